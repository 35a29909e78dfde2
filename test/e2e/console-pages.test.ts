/**
 * The console's account pages over plain HTTP, as a browser without JavaScript uses them: each role sees and
 * may do what it should, another account's objects are 404, a key's secret is shown once, every form needs
 * its CSRF token, and a purged request says so. Real service, real SQLite, real sign-in.
 */
import { expect } from 'chai';
import { ConsoleClient, signedInMember } from '../support/console-client.js';
import { pollUntilTerminal, startTestService, type TestService } from '../support/test-service.js';

describe('console pages', function () {
  this.timeout(120_000);
  let service: TestService;
  /** Account A, where the members sign in, with one finished image request. */
  let a: { key: string; accountId: string; keyId: string; requestId: string };
  /** Account B: its objects must not exist for A's members. */
  let b: { key: string; accountId: string; keyId: string; requestId: string; deliveryId: string };
  const members: Record<'viewer' | 'developer' | 'admin', ConsoleClient> = {} as never;

  async function finishedImageRequest(key: string, prompt: string): Promise<string> {
    const created = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'image.generate', input: { prompt, model: 'nano-banana-pro', aspect_ratio: '1:1', resolution: '1K' } } });
    expect(created.status, JSON.stringify(created.body)).to.equal(202);
    await pollUntilTerminal(service, key, created.body.id);
    return created.body.id;
  }

  /** A finished (failed) webhook delivery of `requestId`, written the way the deliverer leaves one. */
  async function failedDelivery(accountId: string, requestId: string): Promise<string> {
    const { webhookStore, database, clock } = service.service.gateway;
    const id = `msg_console_${requestId}`;
    await webhookStore.enqueue(database.sql, { id, requestId, accountId, url: 'https://receiver.example/hook', eventType: 'request.succeeded', payload: '{}', nowMs: clock.now() });
    await webhookStore.recordAttempt(id, { attemptedAtMs: clock.now(), statusCode: 500, error: null, durationMs: 12 }, { state: 'failed', nextAttemptAtMs: null });
    return id;
  }

  before(async () => {
    service = await startTestService();
    const keyA = await service.createKey({ credits: 1000, name: 'server A' });
    a = { ...keyA, requestId: await finishedImageRequest(keyA.key, 'a lighthouse at dusk') };
    const keyB = await service.createKey({ credits: 1000, name: 'server B' });
    const requestB = await finishedImageRequest(keyB.key, 'a secret of account B');
    b = { ...keyB, requestId: requestB, deliveryId: await failedDelivery(keyB.accountId, requestB) };
    for (const role of ['viewer', 'developer', 'admin'] as const) members[role] = await signedInMember(service, a.accountId, role);
  });
  after(async () => service?.stop());

  describe('roles', () => {
    it('sends a visitor without a session to sign in, with the page to come back to', async () => {
      const response = await new ConsoleClient(service.url).get('/console/keys');
      expect(response.status).to.equal(303);
      expect(response.headers.get('location')).to.equal('/console/login?return_to=%2Fconsole%2Fkeys');
    });

    for (const path of ['/console/requests', '/console/keys', '/console/credits', '/console/webhooks']) {
      it(`lets a viewer read ${path}`, async () => {
        const response = await members.viewer.get(path);
        expect(response.status).to.equal(200);
        expect(response.headers.get('content-type')).to.equal('text/html; charset=utf-8');
        expect(response.headers.get('cache-control')).to.equal('no-store');
      });
    }

    it('shows a viewer the keys but no form to create or revoke them', async () => {
      const { text } = await members.viewer.get('/console/keys');
      expect(text).to.include('server A').and.include(`data-key-id="${a.keyId}"`);
      expect(text).not.to.include('action="/console/keys"');
      expect(text).not.to.include('/revoke');
    });

    const forbidden: [role: 'viewer' | 'developer', action: string, path: () => string][] = [
      ['viewer', 'create a key', () => '/console/keys'],
      ['viewer', 'revoke a key', () => `/console/keys/${a.keyId}/revoke`],
      ['developer', 'rotate the webhook secret', () => '/console/webhooks/secret/rotate'],
      ['developer', 'redeliver a webhook', () => `/console/webhooks/deliveries/${b.deliveryId}/redeliver`],
    ];
    for (const [role, action, path] of forbidden) {
      it(`refuses a ${role} to ${action} (403)`, async () => {
        const response = await members[role].post(path(), { name: 'not allowed', scopes: 'requests:read' });
        expect(response.status).to.equal(403);
      });
    }

    it('nothing a refused member posted changed anything', async () => {
      const keys = await service.service.gateway.apiKeys.listOfAccount(a.accountId);
      expect(keys.map((key) => [key.name, key.revokedAtMs])).to.deep.equal([['server A', null]]);
    });

    it('shows the webhook secret to admins only', async () => {
      const secret = await service.service.gateway.webhookSecrets.current(a.accountId);
      expect((await members.admin.get('/console/webhooks')).text).to.include(secret);
      const developerPage = (await members.developer.get('/console/webhooks')).text;
      expect(developerPage).not.to.include(secret);
      expect(developerPage).to.include('Only admins and owners');
    });
  });

  describe("another account's objects", () => {
    it("404s B's request, and does not list it", async () => {
      const response = await members.admin.get(`/console/requests/${b.requestId}`);
      expect(response.status).to.equal(404);
      expect(response.text).not.to.include('a secret of account B');
      const log = (await members.admin.get('/console/requests')).text;
      expect(log).not.to.include(b.requestId);
      expect(log).to.include(a.requestId);
    });

    it("404s revoking B's key, and B's key keeps working", async () => {
      const response = await members.admin.post(`/console/keys/${b.keyId}/revoke`);
      expect(response.status).to.equal(404);
      expect((await service.api('GET', `/api/v1/requests/${b.requestId}`, { key: b.key })).status).to.equal(200);
    });

    it("404s redelivering B's webhook delivery, which stays failed", async () => {
      const response = await members.admin.post(`/console/webhooks/deliveries/${b.deliveryId}/redeliver`);
      expect(response.status).to.equal(404);
      expect((await service.service.gateway.webhookStore.forRequest(b.requestId)).map((delivery) => delivery.state)).to.deep.equal(['failed']);
    });

    it("404s the created page of B's key", async () => {
      expect((await members.developer.get(`/console/keys/${b.keyId}/created`)).status).to.equal(404);
    });
  });

  describe('API keys', () => {
    it('shows a new key secret exactly once, and the secret works', async () => {
      const created = await members.developer.post('/console/keys', { name: 'laptop', scopes: ['requests:read'] });
      expect(created.status).to.equal(303);
      const location = created.headers.get('location')!;
      expect(location).to.match(/^\/console\/keys\/key_[^/]+\/created$/);
      expect(created.text).not.to.match(/mg_[0-9A-Za-z]{32}/);

      const first = await members.developer.get(location);
      expect(first.status).to.equal(200);
      const secret = /value="(mg_[0-9A-Za-z]{32})"/.exec(first.text)?.[1];
      expect(secret, 'the secret on the first showing').to.be.a('string');
      expect((await service.api('GET', '/api/v1/requests', { key: secret })).status).to.equal(200);

      const again = await members.developer.get(location);
      expect(again.status).to.equal(200);
      expect(again.text).not.to.include(secret!);
      expect(again.text).to.include('data-secret="gone"');
      const list = await members.developer.get('/console/keys');
      expect(list.text).not.to.include(secret!);
      expect(list.text).to.include(`<code>${secret!.slice(0, 11)}…</code>`);
    });

    it('revokes a key of the account, which then stops working', async () => {
      const { plaintext: key, record } = await service.service.gateway.apiKeys.create(a.accountId, 'to revoke', ['requests:read']);
      const keyId = record.id;
      const response = await members.developer.post(`/console/keys/${keyId}/revoke`);
      expect(response.status).to.equal(303);
      expect(response.headers.get('location')).to.equal('/console/keys');
      expect((await service.api('GET', '/api/v1/requests', { key })).status).to.equal(401);
      expect((await members.developer.get('/console/keys')).text).to.match(new RegExp(`data-key-id="${keyId}"[\\s\\S]*?revoked`));
    });

    for (const [fields, field] of [
      [{ name: '', scopes: 'requests:read' }, 'name'],
      [{ name: 'x'.repeat(101), scopes: 'requests:read' }, 'name'],
      [{ name: 'no scopes' }, 'scopes'],
      [{ name: 'workspace', scopes: ['requests:read', 'workspace:read'] }, 'scopes'],
    ] as const) {
      it(`refuses a key with a bad ${field} (${JSON.stringify(fields).slice(0, 60)}) with 422 naming the field`, async () => {
        const before = (await service.service.gateway.apiKeys.listOfAccount(a.accountId)).length;
        const response = await members.developer.post('/console/keys', fields as Record<string, string | string[]>);
        expect(response.status).to.equal(422);
        expect(response.text).to.include(`data-code="MG_VALIDATION_FAILED" data-field="${field}"`);
        expect((await service.service.gateway.apiKeys.listOfAccount(a.accountId)).length).to.equal(before);
      });
    }
  });

  describe('CSRF', () => {
    const forms: [role: 'developer' | 'admin', form: string, path: () => string][] = [
      ['developer', 'create key', () => '/console/keys'],
      ['developer', 'revoke key', () => `/console/keys/${a.keyId}/revoke`],
      ['admin', 'rotate webhook secret', () => '/console/webhooks/secret/rotate'],
      ['admin', 'redeliver', () => `/console/webhooks/deliveries/msg_console_${a.requestId}/redeliver`],
    ];
    for (const [role, form, path] of forms) {
      for (const token of [null, 'forged-token']) {
        it(`refuses the ${form} form with ${token === null ? 'no' : 'a wrong'} CSRF token (403), changing nothing`, async () => {
          const { gateway } = service.service;
          const secretBefore = await gateway.webhookSecrets.current(a.accountId);
          const keysBefore = JSON.stringify(await gateway.apiKeys.listOfAccount(a.accountId));
          const response = await members[role].post(path(), { _csrf: token, name: 'csrf', scopes: 'requests:read' });
          expect(response.status).to.equal(403);
          expect(await gateway.webhookSecrets.current(a.accountId)).to.equal(secretBefore);
          expect(JSON.stringify(await gateway.apiKeys.listOfAccount(a.accountId))).to.equal(keysBefore);
        });
      }
    }

    it('every form on every page carries the session token', async () => {
      for (const path of ['/console/keys', '/console/webhooks', `/console/requests/${a.requestId}`]) {
        const { text } = await members.admin.get(path);
        const forms = text.match(/<form method="post"[\s\S]*?<\/form>/g) ?? [];
        expect(forms.length, path).to.be.greaterThan(0);
        for (const form of forms) expect(form, path).to.include(`name="_csrf" value="${members.admin.csrfToken}"`);
      }
    });
  });

  describe('requests, credits and webhooks', () => {
    it('shows a request with its input, output, hosted image preview and credits', async () => {
      const { text, status } = await members.viewer.get(`/console/requests/${a.requestId}`);
      expect(status).to.equal(200);
      const record = (await service.service.gateway.requests.get(a.requestId))!;
      const imageUrl = record.output!.image_url as string;
      expect(imageUrl.startsWith(`${service.url}/files/`)).to.equal(true);
      expect(text).to.include(`<img src="${imageUrl}" alt="Image 1 of 1: “a lighthouse at dusk”" loading="lazy">`);
      expect(text).to.include('&quot;prompt&quot;: &quot;a lighthouse at dusk&quot;');
      expect(text).to.include('<dt>Credits</dt><dd>' + record.billableCredits);
    });

    it('filters the log by status and operation, and names a bad filter', async () => {
      expect((await members.viewer.get('/console/requests?status=failed')).text).not.to.include(a.requestId);
      expect((await members.viewer.get('/console/requests?status=succeeded&operation=image.generate')).text).to.include(a.requestId);
      expect((await members.viewer.get('/console/requests?operation=video.generate')).text).not.to.include(a.requestId);
      const bad = await members.viewer.get('/console/requests?status=lost');
      expect(bad.status).to.equal(400);
      expect(bad.text).to.include('data-field="status"');
    });

    it('shows the balance and the ledger with the request debit', async () => {
      const { text } = await members.viewer.get('/console/credits');
      const account = (await service.service.gateway.accounts.getAccount(a.accountId))!;
      expect(text).to.include(`data-balance="${account.creditsBalance}"`).and.include('opening balance').and.include(`/console/requests/${a.requestId}`);
    });

    it('rotates the webhook secret (admin), keeping the previous one for the grace period', async () => {
      const { gateway } = service.service;
      const before = await gateway.webhookSecrets.current(a.accountId);
      const response = await members.admin.post('/console/webhooks/secret/rotate');
      expect(response.status).to.equal(303);
      expect(response.headers.get('location')).to.equal('/console/webhooks');
      const after = await gateway.webhookSecrets.current(a.accountId);
      expect(after).not.to.equal(before);
      expect(await gateway.webhookSecrets.signing(a.accountId)).to.deep.equal([after, before]);
      expect((await members.admin.get('/console/webhooks')).text).to.include(after).and.include('The previous secret still signs');
    });

    it('redelivers a finished delivery (admin), back to its request page', async () => {
      const deliveryId = await failedDelivery(a.accountId, a.requestId);
      const response = await members.admin.post(`/console/webhooks/deliveries/${deliveryId}/redeliver`, { from: 'request' });
      expect(response.status).to.equal(303);
      expect(response.headers.get('location')).to.equal(`/console/requests/${a.requestId}`);
      expect((await service.service.gateway.webhookStore.getForAccount(deliveryId, a.accountId))!.state).to.equal('pending');
      expect((await members.viewer.get('/console/webhooks')).text).to.include(`data-delivery-id="${deliveryId}"`);
    });

    it('says so when a request was purged, and shows none of its data', async () => {
      const requestId = await finishedImageRequest(a.key, 'a purged picture');
      await service.service.gateway.requests.removeData(requestId, service.service.gateway.clock.now());
      const { status, text } = await members.viewer.get(`/console/requests/${requestId}`);
      expect(status).to.equal(200);
      expect(text).to.include('data-purged="true"').and.include('were removed on');
      expect(text).not.to.include('a purged picture');
      expect(text).not.to.include('<img');
      expect((await members.viewer.get('/console/requests')).text).to.match(new RegExp(`data-request-id="${requestId}"[\\s\\S]*?purged`));
    });
  });
});
