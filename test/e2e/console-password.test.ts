/**
 * A member changes their own password in the console: the current one is required, the new one must follow the
 * rules, and every other session of the user ends (a stolen cookie elsewhere stops working).
 */
import { expect } from 'chai';
import { ConsoleClient, testPassword } from '../support/console-client.js';
import { startTestService, type TestService } from '../support/test-service.js';

describe('console: changing the password', function () {
  this.timeout(60_000);
  let service: TestService;
  let accountId: string;
  const email = 'changer@example.com';
  const newPassword = 'a much longer new passphrase';

  before(async () => {
    service = await startTestService();
    ({ accountId } = await service.createKey());
    await service.service.gateway.users.create({ email, password: testPassword, accountId, role: 'developer' });
  });
  after(() => service.stop());

  it('refuses a wrong current password and a too short new one, naming the field; then changes it and ends the other sessions', async () => {
    const here = new ConsoleClient(service.url);
    const elsewhere = new ConsoleClient(service.url);
    await here.signIn(email);
    await elsewhere.signIn(email);
    await here.get('/console/account');

    const wrong = await here.post('/console/account/password', { current_password: 'not it at all', new_password: newPassword });
    expect(wrong.status).to.equal(422);
    expect(wrong.text).to.include('data-field="current_password"');
    const short = await here.post('/console/account/password', { current_password: testPassword, new_password: 'short' });
    expect(short.status).to.equal(422);
    expect(short.text).to.include('data-field="new_password"');

    const changed = await here.post('/console/account/password', { current_password: testPassword, new_password: newPassword });
    expect({ status: changed.status, location: changed.headers.get('location') }).to.deep.equal({ status: 303, location: '/console/account?password=changed' });
    expect((await here.get('/console/account?password=changed')).text).to.include('data-status="password-changed"');

    // The other browser's session ended; the old password no longer signs in; the new one does.
    expect((await elsewhere.get('/console/account')).status).to.equal(303);
    const old = new ConsoleClient(service.url);
    await old.get('/console/login');
    expect((await old.post('/console/login', { email, password: testPassword })).status).to.equal(422);
    await new ConsoleClient(service.url).signIn(email, newPassword);
  });

  it('needs the CSRF token like every console form', async () => {
    const client = new ConsoleClient(service.url);
    await client.signIn(email, newPassword);
    const refused = await client.post('/console/account/password', { _csrf: null, current_password: newPassword, new_password: 'yet another passphrase' });
    expect(refused.status).to.equal(403);
  });
});
