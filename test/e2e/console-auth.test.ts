/**
 * Console sign-in and its security checks, over real HTTP against a real service and SQLite: the same answer
 * for a wrong password and an unknown e-mail, cookie flags, a new session id at sign-in (fixation), sign-out,
 * CSRF (missing token, wrong token, foreign Origin), brute-force throttling per e-mail and per client IP,
 * open-redirect attempts, role enforcement, the account switcher, the CLI's users commands, the development
 * owner's password file, and passwords kept out of the log.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Router } from '@koa/router';
import { expect } from 'chai';
import Koa from 'koa';
import { startService, type RunningService } from '../../src/cli/serve.js';
import { consoleSession } from '../../src/http/console/console-session.js';
import { requireMember } from '../../src/http/console/require-member.js';
import { problemDetails } from '../../src/http/middleware/problem-details.js';
import { Users, verifyPassword, type Role } from '../../src/kernel/accounts/index.js';
import { loadSettings } from '../../src/kernel/config/index.js';
import { newId, openDatabase } from '../../src/kernel/store/index.js';
import { CapturedLog } from '../support/captured-log.js';
import { freePort } from '../support/free-port.js';
import { startTestService, type TestService } from '../support/test-service.js';

/** A browser in miniature: one cookie jar, no redirects followed, forms posted urlencoded. */
class Browser {
  readonly cookies = new Map<string, string>();
  constructor(readonly baseUrl: string) {}

  async get(path: string, headers: Record<string, string> = {}): Promise<Response> {
    return this.receive(await fetch(this.baseUrl + path, { redirect: 'manual', headers: { ...this.cookieHeader(), ...headers } }));
  }

  async post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    const body = new URLSearchParams(fields).toString();
    return this.receive(await fetch(this.baseUrl + path, { method: 'POST', redirect: 'manual', body, headers: { 'content-type': 'application/x-www-form-urlencoded', ...this.cookieHeader(), ...headers } }));
  }

  /** The `_csrf` value of the first form on `path`. */
  async csrfFrom(path: string): Promise<string> {
    const page = await (await this.get(path)).text();
    const token = /name="_csrf" value="([^"]+)"/.exec(page)?.[1];
    if (!token) throw new Error(`no _csrf field on ${path}: ${page.slice(0, 300)}`);
    return token;
  }

  async signIn(email: string, password: string, options: { returnTo?: string; headers?: Record<string, string> } = {}): Promise<Response> {
    const _csrf = await this.csrfFrom('/console/login');
    return this.post('/console/login', { _csrf, email, password, ...(options.returnTo === undefined ? {} : { return_to: options.returnTo }) }, options.headers);
  }

  private cookieHeader(): Record<string, string> {
    return this.cookies.size ? { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') } : {};
  }

  private receive(response: Response): Response {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = pair!.split('=') as [string, string];
      if (value === '' || /Max-Age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }
}

const alertOf = (page: string) => /<p class="error" role="alert"[^>]*>[^<]*<\/p>/.exec(page)?.[0];

describe('console: sign-in, sessions and their security checks', function () {
  this.timeout(120_000);
  let service: TestService;
  let accountId: string;
  const password = 'a long enough password';

  async function member(role: Role, email = `${role}-${newId('u')}@example.com`, account = accountId): Promise<string> {
    await service.service.gateway.users.create({ email, password, accountId: account, role });
    return email;
  }

  before(async () => {
    service = await startTestService();
    accountId = (await service.createKey({ credits: 1234 })).accountId;
  });
  after(async () => service?.stop());

  it('signs in with the right password; a wrong password and an unknown e-mail get the same 422 and message', async () => {
    const email = await member('owner');
    const browser = new Browser(service.url);
    const right = await browser.signIn(email.toUpperCase(), password);
    expect(right.status).to.equal(303);
    expect(right.headers.get('location')).to.equal('/console');

    const wrong = await new Browser(service.url).signIn(email, 'not the password');
    const unknown = await new Browser(service.url).signIn('nobody@example.com', 'not the password');
    expect(wrong.status).to.equal(422);
    expect(unknown.status).to.equal(422);
    const [wrongAlert, unknownAlert] = [alertOf(await wrong.text()), alertOf(await unknown.text())];
    expect(wrongAlert).to.equal('<p class="error" role="alert" id="sign-in-problem" data-code="MG_LOGIN_FAILED">Wrong e-mail or password.</p>');
    expect(unknownAlert).to.equal(wrongAlert);
  });

  it('sets the session cookie HttpOnly and SameSite=Lax, and never cached', async () => {
    const email = await member('viewer');
    const response = await new Browser(service.url).signIn(email, password);
    const session = response.headers.getSetCookie().find((line) => line.startsWith('mg_session='));
    expect(session).to.match(/^mg_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax$/);
    const page = await new Browser(service.url).get('/console/login');
    expect(page.headers.get('cache-control')).to.equal('no-store');
    expect(page.headers.get('x-frame-options')).to.equal('DENY');
  });

  it('with an https public URL the cookies are Secure and __Host- prefixed', async () => {
    const secure = await startTestService({ server: { public_url: 'https://console.example' } });
    try {
      const email = 'secure@example.com';
      const account = (await secure.createKey()).accountId;
      await secure.service.gateway.users.create({ email, password, accountId: account, role: 'owner' });
      const browser = new Browser(secure.url);
      const response = await browser.signIn(email, password, { headers: { origin: 'https://console.example' } });
      expect(response.status).to.equal(303);
      const cookies = response.headers.getSetCookie();
      expect(cookies.find((line) => line.startsWith('__Host-mg_session='))).to.match(/^__Host-mg_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Secure$/);
      expect([...browser.cookies.keys()]).to.have.members(['__Host-mg_csrf', '__Host-mg_session']);
    } finally {
      await secure.stop();
    }
  });

  it('issues a new session id at sign-in, and the one from before stops working (session fixation)', async () => {
    const email = await member('owner');
    const browser = new Browser(service.url);
    await browser.signIn(email, password);
    const first = browser.cookies.get('mg_session')!;
    expect((await browser.get('/console/account')).status).to.equal(200);
    // Signing in again from a signed-in browser (the form posted with that session's token) still rotates the id.
    const again = await browser.post('/console/login', { _csrf: await browser.csrfFrom('/console/account'), email, password });
    expect(again.status).to.equal(303);
    const second = browser.cookies.get('mg_session')!;
    expect(second).to.not.equal(first);
    const planted = new Browser(service.url);
    planted.cookies.set('mg_session', first);
    const response = await planted.get('/console/account');
    expect(response.status).to.equal(303);
    expect(response.headers.get('location')).to.equal('/console/login?return_to=%2Fconsole%2Faccount');
  });

  it('signs out: the session row is deleted and the cookie no longer signs anybody in', async () => {
    const email = await member('owner');
    const browser = new Browser(service.url);
    await browser.signIn(email, password);
    const cookie = browser.cookies.get('mg_session')!;
    const out = await browser.post('/console/logout', { _csrf: await browser.csrfFrom('/console/account') });
    expect(out.status).to.equal(303);
    expect(out.headers.get('location')).to.equal('/console/login');
    expect(browser.cookies.has('mg_session')).to.equal(false);
    const rows = await service.service.gateway.database.sql.all('SELECT id FROM console_sessions WHERE user_id = (SELECT id FROM users WHERE email = ?)', [email]);
    expect(rows).to.deep.equal([]);
    const replay = new Browser(service.url);
    replay.cookies.set('mg_session', cookie);
    expect((await replay.get('/console/account')).status).to.equal(303);
  });

  it('refuses a form without the CSRF token, with a wrong one, or from a foreign Origin', async () => {
    const email = await member('owner');
    const browser = new Browser(service.url);
    await browser.signIn(email, password);
    const token = await browser.csrfFrom('/console/account');
    const problem = (detail: string, errors: { path: string; message: string }[]) => ({
      type: 'https://mediagate.dev/docs/errors#mg-csrf-rejected',
      title: 'The form failed the CSRF check',
      status: 403,
      detail,
      code: 'MG_CSRF_REJECTED',
      instance: '/console/logout',
      errors,
    });
    const tokenProblem = 'the form is missing its CSRF token or it does not match this session; reload the page and try again';
    const missing = await browser.post('/console/logout', {});
    expect(missing.status).to.equal(403);
    expect(await missing.json()).to.deep.equal(problem(tokenProblem, [{ path: '_csrf', message: 'missing' }]));
    const wrong = await browser.post('/console/logout', { _csrf: token.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')) });
    expect(wrong.status).to.equal(403);
    expect(await wrong.json()).to.deep.equal(problem(tokenProblem, [{ path: '_csrf', message: 'does not match' }]));
    const foreign = await browser.post('/console/logout', { _csrf: token }, { origin: 'https://evil.example' });
    expect(foreign.status).to.equal(403);
    expect(await foreign.json()).to.deep.equal(problem('a form from https://evil.example may not change anything here', [{ path: 'Origin', message: 'not this site' }]));
    // Still signed in: none of the refused forms did anything.
    expect((await browser.get('/console/account')).status).to.equal(200);
    // The sign-in form is protected too (login CSRF): its pre-session token is required.
    const anonymous = await new Browser(service.url).post('/console/login', { email, password });
    expect(anonymous.status).to.equal(403);
    expect((await anonymous.json()).code).to.equal('MG_CSRF_REJECTED');
  });

  it('throttles after 5 failures for one e-mail (from any address), then refuses even the right password with 429', async () => {
    const email = await member('owner');
    for (let attempt = 1; attempt <= 5; attempt++) {
      const response = await new Browser(service.url).signIn(email, 'wrong', { headers: { 'x-forwarded-for': `198.51.100.${attempt}` } });
      expect(response.status, `attempt ${attempt}`).to.equal(422);
    }
    const throttled = await new Browser(service.url).signIn(email, password, { headers: { 'x-forwarded-for': '198.51.100.77' } });
    expect(throttled.status).to.equal(429);
    expect(Number(throttled.headers.get('retry-after'))).to.be.within(890, 900);
    expect(alertOf(await throttled.text())).to.equal('<p class="error" role="alert" id="sign-in-problem" data-code="MG_RATE_LIMITED">Too many failed sign-ins. Try again in 15 minutes.</p>');
    // Another e-mail from the same address is not affected.
    const other = await member('owner');
    expect((await new Browser(service.url).signIn(other, password, { headers: { 'x-forwarded-for': '198.51.100.77' } })).status).to.equal(303);
  });

  it('throttles after 20 failures from one client IP, whatever the e-mails', async () => {
    const ip = '203.0.113.9';
    for (let attempt = 1; attempt <= 20; attempt++) {
      const response = await new Browser(service.url).signIn(`guess-${attempt}@example.com`, 'wrong', { headers: { 'x-forwarded-for': ip } });
      expect(response.status, `attempt ${attempt}`).to.equal(422);
    }
    const email = await member('owner');
    const throttled = await new Browser(service.url).signIn(email, password, { headers: { 'x-forwarded-for': ip } });
    expect(throttled.status).to.equal(429);
    expect(throttled.headers.get('retry-after')).to.match(/^\d+$/);
    expect((await new Browser(service.url).signIn(email, password, { headers: { 'x-forwarded-for': '203.0.113.10' } })).status).to.equal(303);
  });

  it('sends every return_to that is not a same-origin path to /console', async () => {
    const email = await member('owner');
    for (const attempt of ['//evil.example', 'https://evil.example', '/\\evil.example', '\\\\evil.example', 'javascript:alert(1)', '/%0d%0aSet-Cookie:x', '/ok\r\nx: y']) {
      const response = await new Browser(service.url).signIn(email, password, { returnTo: attempt });
      expect(response.status, attempt).to.equal(303);
      const expected = attempt === '/%0d%0aSet-Cookie:x' ? attempt : '/console';
      expect(response.headers.get('location'), attempt).to.equal(expected);
    }
    const kept = await new Browser(service.url).signIn(email, password, { returnTo: '/console/keys?page=2' });
    expect(kept.headers.get('location')).to.equal('/console/keys?page=2');
    const browser = new Browser(service.url);
    await browser.signIn(email, password);
    const signedIn = await browser.get('/console/login?return_to=//evil.example');
    expect(signedIn.status).to.equal(302);
    expect(signedIn.headers.get('location')).to.equal('/console');
  });

  it('requireMember: sends visitors to sign in, refuses weaker roles with 403, lets stronger ones through', async () => {
    const router = new Router();
    router.get('/console/admin-only', consoleSession(service.service.gateway), requireMember('admin'), (ctx) => {
      ctx.body = { ok: true };
    });
    const app = new Koa();
    app.use(problemDetails(service.service.gateway.log));
    app.use(router.routes());
    // The guarded page is served beside the gateway (same cookies, host and store), so the session carries over.
    const server: Server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const visitor = await new Browser(`http://127.0.0.1:${port}`).get('/console/admin-only?x=1');
      expect(visitor.status).to.equal(303);
      expect(visitor.headers.get('location')).to.equal('/console/login?return_to=%2Fconsole%2Fadmin-only%3Fx%3D1');
      for (const [role, status] of [['viewer', 403], ['developer', 403], ['admin', 200], ['owner', 200]] as const) {
        const browser = new Browser(service.url);
        await browser.signIn(await member(role), password);
        const guarded = new Browser(`http://127.0.0.1:${port}`);
        guarded.cookies.set('mg_session', browser.cookies.get('mg_session')!);
        const response = await guarded.get('/console/admin-only');
        expect(response.status, role).to.equal(status);
        const body = await response.json();
        if (status === 200) expect(body).to.deep.equal({ ok: true });
        else {
          expect(body).to.deep.equal({
            type: 'https://mediagate.dev/docs/errors#mg-forbidden-role',
            title: 'Your role in this account does not allow this',
            status: 403,
            detail: `this needs the admin role or a stronger one; you are ${role} in account ${accountId}`,
            code: 'MG_FORBIDDEN_ROLE',
            instance: '/console/admin-only',
          });
        }
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('shows the member their account, and switches only between accounts they belong to', async () => {
    const email = await member('owner');
    const second = (await service.createKey({ credits: 77 })).accountId;
    const users = service.service.gateway.users;
    await users.invite({ email, accountId: second, role: 'viewer' });
    const stranger = (await service.createKey()).accountId;
    const browser = new Browser(service.url);
    await browser.signIn(email, password);
    const before = await (await browser.get('/console/account')).text();
    expect(before).to.contain(`<dt>Account</dt><dd class="secret">${accountId}</dd>`);
    expect(before).to.contain('<dt>Your role</dt><dd>owner</dd>');
    expect(before).to.contain('<dd data-testid="balance">1,234</dd>');
    const token = await browser.csrfFrom('/console/account');
    const switched = await browser.post('/console/account', { _csrf: token, account_id: second, return_to: '/console/account' });
    expect(switched.status).to.equal(303);
    expect(switched.headers.get('location')).to.equal('/console/account');
    const after = await (await browser.get('/console/account')).text();
    expect(after).to.contain(`<dt>Account</dt><dd class="secret">${second}</dd>`);
    expect(after).to.contain('<dt>Your role</dt><dd>viewer</dd>');
    const refused = await browser.post('/console/account', { _csrf: token, account_id: stranger });
    expect(refused.status).to.equal(404);
    expect((await refused.json()).errors).to.deep.equal([{ path: 'account_id', message: 'not one of your accounts' }]);
  });

  it('escapes what users typed when it is shown back', async () => {
    const response = await new Browser(service.url).signIn('"><script>alert(1)</script>@x', 'wrong');
    const page = await response.text();
    expect(page).to.not.contain('<script>alert(1)</script>');
    expect(page).to.contain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;@x"');
  });
});

describe('console: the development owner and the users CLI', function () {
  this.timeout(120_000);
  const root = new URL('../..', import.meta.url).pathname;
  const cli = join(root, 'bin/mediagate.js');

  it('the first embedded start creates the dev owner with a 0600 password file, and no password reaches the log', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'mediagate-dev-owner-'));
    const log = new CapturedLog();
    let service: RunningService | undefined;
    try {
      const settings = loadSettings({ env: {}, overrides: { server: { host: '127.0.0.1', port: await freePort(), public_url: '' }, data_dir: dataDir, log: { level: 'trace' }, worker: { thread: false } } });
      service = await startService(settings, { logDestination: log });
      const passwordFile = join(dataDir, 'dev-console-password');
      expect(service.devKey?.owner).to.deep.equal({ email: 'dev@mediagate.local', passwordFile });
      expect((await stat(passwordFile)).mode & 0o777).to.equal(0o600);
      const devPassword = (await readFile(passwordFile, 'utf8')).trim();
      expect(devPassword).to.match(/^[A-Za-z0-9_-]{24}$/);
      const browser = new Browser(service.url);
      const wrong = await browser.signIn('dev@mediagate.local', 'wrong password');
      expect(wrong.status).to.equal(422);
      const signedIn = await browser.signIn('dev@mediagate.local', devPassword);
      expect(signedIn.status).to.equal(303);
      const page = await (await browser.get('/console/account')).text();
      expect(page).to.contain('<dt>Your role</dt><dd>owner</dd>');
      // Something did get logged (the sign-in), and neither password nor the session cookie is in it.
      expect(log.entries('console sign-in')).to.have.length(1);
      for (const secret of [devPassword, 'wrong password', browser.cookies.get('mg_session')!]) expect(log.text()).to.not.contain(secret);
      // A second start of the same data folder creates nothing and keeps the password.
      await service.stop();
      service = await startService(settings, { logDestination: log });
      expect(service.devKey?.owner).to.equal(undefined);
      expect((await readFile(passwordFile, 'utf8')).trim()).to.equal(devPassword);
    } finally {
      await service?.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('users create (password file or generated, printed once) and users invite (one-time password), with errors named', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'mediagate-users-cli-'));
    const env = { ...process.env, MEDIAGATE_DATA_DIR: dataDir, MEDIAGATE_LOG_LEVEL: 'warn' };
    const run = async (...args: string[]) => (await promisify(execFile)(process.execPath, [cli, ...args], { env })).stdout;
    const failure = async (...args: string[]) => {
      try {
        await run(...args);
      } catch (error) {
        // Only our own lines: oidc-provider warns on stderr when it runs on Node 20.
        const stderr = (error as { stderr: string }).stderr.split('\n').filter((line) => !line.startsWith('oidc-provider WARNING')).join('\n');
        return { code: (error as { code: number }).code, stderr };
      }
      throw new Error(`${args.join(' ')} succeeded`);
    };
    try {
      const key = JSON.parse(await run('keys', 'create', '--name', 'team', '--json'));
      await writeFile(join(dataDir, 'owner-password'), 'owner chosen password\n', { mode: 0o600 });
      const owner = JSON.parse(await run('users', 'create', '--email', 'Owner@Example.com', '--account', key.key.slice(0, 11), '--role', 'owner', '--password-file', join(dataDir, 'owner-password'), '--json'));
      expect(owner).to.deep.equal({ userId: owner.userId, email: 'owner@example.com', accountId: key.accountId, role: 'owner' });
      const generated = await run('users', 'create', '--email', 'second@example.com', '--account', key.accountId);
      const generatedPassword = /password \(shown once; sign in at \/console\/login\): ([A-Za-z0-9_-]{24})\n$/.exec(generated)?.[1];
      expect(generated, generated).to.match(/^user second@example\.com \(user_[0-9a-z]+\) is owner of account acct_[0-9a-z]+\n/);
      const invited = JSON.parse(await run('users', 'invite', '--email', 'dev@example.com', '--account', key.id, '--role', 'developer', '--json'));
      expect(invited).to.include({ email: 'dev@example.com', accountId: key.accountId, role: 'developer' });
      expect(invited.password).to.match(/^[A-Za-z0-9_-]{24}$/);

      // Each refusal: exit code 2, the command and the reason on the first line, then its usage and where help is.
      const refusals: [string[], string][] = [
        [['users', 'create', '--email', 'owner@example.com', '--account', key.accountId], 'mediagate: users create: a user with the e-mail owner@example.com already exists'],
        [['users', 'invite', '--email', 'x@example.com', '--account', key.accountId, '--role', 'boss'], 'mediagate: users invite: unknown role boss; roles: owner, admin, developer, viewer'],
        [['users', 'invite', '--email', 'x@example.com', '--account', 'acct_nope', '--role', 'viewer'], 'mediagate: users invite: no account or API key acct_nope'],
        [['users', 'create', '--email', 'not-an-email', '--account', key.accountId], 'mediagate: users create: "not-an-email" is not an e-mail address'],
      ];
      for (const [args, firstLine] of refusals) {
        const refused = await failure(...args);
        expect(refused.code, args.join(' ')).to.equal(2);
        expect(refused.stderr.split('\n')[0], args.join(' ')).to.equal(firstLine);
        expect(refused.stderr, args.join(' ')).to.match(/Run "mediagate users (create|invite) --help" for details\.\n$/);
      }

      // What the CLI stored signs in: the passwords verify against the hashes, and only hashes are stored.
      const database = openDatabase(`sqlite:${join(dataDir, 'mediagate.sqlite')}`, { poolMax: 1 });
      try {
        const users = new Users(database.sql, { now: () => Date.now() });
        expect(await verifyPassword('owner chosen password', (await users.findByEmail('owner@example.com'))!.passwordHash)).to.equal(true);
        expect(await verifyPassword(generatedPassword!, (await users.findByEmail('second@example.com'))!.passwordHash)).to.equal(true);
        expect(await verifyPassword(invited.password, (await users.findByEmail('dev@example.com'))!.passwordHash)).to.equal(true);
        expect(await users.memberships(invited.userId)).to.deep.equal([{ userId: invited.userId, email: 'dev@example.com', accountId: key.accountId, role: 'developer' }]);
        const stored = JSON.stringify(await database.sql.all('SELECT * FROM users'));
        for (const plaintext of ['owner chosen password', generatedPassword!, invited.password]) expect(stored).to.not.contain(plaintext);
      } finally {
        await database.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
