/**
 * OAuth account linking for MCP, end to end over real HTTP: the MCP SDK client's `OAuthClientProvider` meets
 * the 401 challenge, registers with a loopback callback, builds the PKCE S256 authorize URL with `resource`;
 * the "person" (a cookie-jar browser) signs in to the console and approves the consent form with its CSRF
 * field; the SDK exchanges the code and calls account tools with the JWT. Then refresh rotation with reuse
 * detection, revocation, the registration policy, foreign audiences, expiry, step-up and consent again after
 * a client changed its redirect URIs.
 */
import { createPrivateKey, sign } from 'node:crypto';
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { CookieBrowser, formOn, MemoryOAuthClient, type Hop, linkedClientStatus } from '../support/oauth-browser.js';
import { rawToolCall } from '../support/mcp-tool-call.js';
import { decide as decideFor, isCallback, linkOAuthClient, reachConsent as reachConsentAs, type Approver, type LinkOptions } from '../support/oauth-linked-client.js';

const password = 'correct horse battery staple 42';
const hostedCallback = 'https://app.example.com/oauth/callback';

describe('OAuth account linking for MCP', function () {
  this.timeout(60_000);
  let service: TestService;
  let offsetMs = 0;
  const clock = { now: () => Date.now() + offsetMs };
  let accountId: string;
  const email = 'owner@example.com';

  before(async () => {
    service = await startTestService({ oauth: { approved_redirect_uris: [hostedCallback] } }, { clock });
    ({ accountId } = await service.createKey({ credits: 100 }));
    await service.service.gateway.users.create({ email, password, accountId, role: 'owner' });
  });
  after(async () => service?.stop());
  afterEach(() => {
    offsetMs = 0;
  });

  const mcpUrl = () => `${service.url}/mcp`;
  const metadataUrl = () => `${service.url}/.well-known/oauth-protected-resource/mcp`;

  const approver = (as = email): Approver => ({ baseUrl: service.url, email: as, password, accountId });
  const reachConsent = (browser: CookieBrowser, authorizeUrl: string, as = email) => reachConsentAs(browser, authorizeUrl, approver(as));
  const decide = (browser: CookieBrowser, consentPage: Hop, decision: 'approve' | 'deny', callback: string) => decideFor(browser, consentPage, decision, callback, accountId);

  /** An MCP client that met the 401 challenge and registered: its authorize URL waits for a person. */
  async function pendingAuthorization(callback: string) {
    const provider = new MemoryOAuthClient(callback);
    const client = new Client({ name: 'oauth-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl()), { authProvider: provider }));
    expect(await client.callTool({ name: 'api_status', arguments: {} }).catch((error: unknown) => error)).to.be.instanceOf(UnauthorizedError);
    return { provider, client };
  }

  /** An MCP client linked through the whole flow, with the code exchanged; `scope` overrides the challenge's. */
  const linkedClient = (options: LinkOptions = {}) => linkOAuthClient(approver(), { callback: 'http://127.0.0.1:48123/callback', ...options });

  const toolCall = (token: string, name: string, args: Record<string, unknown> = {}) => rawToolCall(mcpUrl(), token, name, args);

  async function tokenRequest(form: Record<string, string>) {
    const response = await fetch(`${service.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it('links an MCP client: DCR with a loopback callback, PKCE S256, resource, sign-in, consent, token, account tools', async () => {
    const { provider, client, authorizeUrl, consentPage, back } = await linkedClient();
    const params = Object.fromEntries(authorizeUrl.searchParams);
    expect(params).to.include({ response_type: 'code', code_challenge_method: 'S256', resource: mcpUrl(), scope: 'requests:read requests:write', client_id: provider.registration!.client_id });
    expect(authorizeUrl.origin + authorizeUrl.pathname).to.equal(`${service.url}/oauth/authorize`);
    // The consent page names the client, where the browser goes back to and what it may do.
    expect(consentPage.body).to.include('Connect <span class="client-name">Test MCP client</span>?');
    expect(consentPage.body).to.include('a program on this computer (<code>127.0.0.1:48123</code>)');
    expect(consentPage.body).to.include('<code>requests:write</code>');
    expect(back.searchParams.get('iss')).to.equal(service.url);

    // The access token: a JWT bound to the MCP resource, with the scopes approved.
    const [, payload] = provider.savedTokens!.access_token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
    expect(claims).to.include({ iss: service.url, aud: mcpUrl(), scope: 'requests:read requests:write', client_id: provider.registration!.client_id });
    expect(provider.savedTokens).to.include({ token_type: 'Bearer', expires_in: 600, scope: 'requests:read requests:write' });

    const status = await client.callTool({ name: 'api_status', arguments: {} });
    const link = (await service.service.gateway.oauth.links.listForAccount(accountId))[0]!;
    const { serverTime: _time, ...statusBody } = status.structuredContent as Record<string, unknown>;
    expect(statusBody).to.deep.equal(linkedClientStatus('Test MCP client', link.apiKeyId));

    // The client's request is owned by its link's key: the console's request log shows it under that key.
    const created = await client.callTool({ name: 'create_generation_request', arguments: { operation: 'image.generate', input: { prompt: 'a red kite', model: 'seedream-4', resolution: '2K' }, confirmed: true, max_credits: 5 } });
    const requestId = (created.structuredContent as { id: string }).id;
    expect(created.structuredContent).to.deep.include({ status: 'queued', operation: 'image.generate', credits: 5, replayed: false });
    const row = await service.service.gateway.database.knex('requests').where({ id: requestId }).first();
    expect({ account: row.account_id, key: row.api_key_id }).to.deep.equal({ account: accountId, key: link.apiKeyId });
    const polled = await client.callTool({ name: 'get_generation_request', arguments: { id: requestId } });
    expect(polled.structuredContent).to.deep.include({ id: requestId, operation: 'image.generate' });
    await client.close();
  });

  it('rotates refresh tokens; reusing an old one revokes the link and every token of it', async () => {
    const { provider, client } = await linkedClient();
    const clientId = provider.registration!.client_id;
    const first = provider.savedTokens!;
    const rotated = await tokenRequest({ grant_type: 'refresh_token', refresh_token: first.refresh_token!, client_id: clientId });
    expect(rotated.status).to.equal(200);
    expect(rotated.body.refresh_token).to.be.a('string').and.not.equal(first.refresh_token);
    expect((await toolCall(String(rotated.body.access_token), 'api_status')).status).to.equal(200);

    const reused = await tokenRequest({ grant_type: 'refresh_token', refresh_token: first.refresh_token!, client_id: clientId });
    expect(reused).to.deep.equal({ status: 400, body: { error: 'invalid_grant', error_description: 'grant request is invalid' } });
    // Reuse detection revoked the grant: the newest refresh token and the access tokens are dead too.
    const newest = await tokenRequest({ grant_type: 'refresh_token', refresh_token: String(rotated.body.refresh_token), client_id: clientId });
    expect(newest.status).to.equal(400);
    const refused = await toolCall(String(rotated.body.access_token), 'api_status');
    expect(refused.status).to.equal(401);
    expect(refused.challenge).to.equal(`Bearer resource_metadata="${metadataUrl()}", scope="requests:read requests:write", error="invalid_token", error_description="the credential is invalid, expired or revoked"`);
    expect(await service.service.gateway.oauth.links.listForAccount(accountId)).to.satisfy((links: { clientId: string }[]) => links.every((link) => link.clientId !== clientId));
    await client.close();
  });

  it('revokes: the refresh token at /oauth/revoke ends the link; its access token is refused at once', async () => {
    const { provider, client } = await linkedClient();
    const tokens = provider.savedTokens!;
    const response = await fetch(`${service.url}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tokens.refresh_token!, client_id: provider.registration!.client_id }),
    });
    expect(response.status).to.equal(200);
    const refused = await toolCall(tokens.access_token, 'api_status');
    expect({ status: refused.status, body: refused.body }).to.deep.equal({
      status: 401,
      body: { type: 'https://mediagate.dev/docs/errors#mg-unauthenticated', title: 'API key missing, invalid or revoked', status: 401, code: 'MG_UNAUTHENTICATED', detail: 'the access to this account was revoked; connect the application again', instance: '/mcp' },
    });
    await client.close();
  });

  it('lists the linked app in the console and revokes it there; another account\'s link is 404', async () => {
    const { provider, browser, client } = await linkedClient({ callback: 'http://127.0.0.1:48130/callback' });
    const link = (await service.service.gateway.oauth.links.listForAccount(accountId)).find((candidate) => candidate.clientId === provider.registration!.client_id)!;
    const page = await browser.request(`${service.url}/console/apps`);
    expect(page.status).to.equal(200);
    expect(page.body).to.include('<th scope="row">Test MCP client</th>');

    // The link's own key (which owns the client's requests) is managed with the link, not among the developer keys.
    const keysPage = await browser.request(`${service.url}/console/keys`);
    expect(keysPage.status).to.equal(200);
    expect(keysPage.body).to.not.include(link.apiKeyId);
    const keyRevoke = await browser.request(`${service.url}/console/keys/${link.apiKeyId}/revoke`, { form: formOn(page, `/console/apps/${link.id}/revoke`).fields });
    expect(keyRevoke.status).to.equal(404);
    expect(await service.service.gateway.oauth.links.active(link.id)).to.not.equal(undefined);

    const other = await service.createKey();
    const foreign = await service.service.gateway.oauth.links.approve({ grantId: 'grant_of_other', accountId: other.accountId, userId: 'user_other', clientId: 'c', clientName: 'Other', scopes: ['requests:read'], redirectUris: [] });
    const csrf = formOn(page, `/console/apps/${link.id}/revoke`).fields;
    const notOurs = await browser.request(`${service.url}/console/apps/${foreign.id}/revoke`, { form: csrf });
    expect(notOurs.status).to.equal(404);
    expect(await service.service.gateway.oauth.links.active(foreign.id)).to.not.equal(undefined);

    const revoke = formOn(page, `/console/apps/${link.id}/revoke`);
    const revoked = await browser.request(revoke.action, { form: revoke.fields });
    expect({ status: revoked.status, location: revoked.location }).to.deep.equal({ status: 303, location: `${service.url}/console/apps?revoked=1` });
    expect((await toolCall(provider.savedTokens!.access_token, 'api_status')).status).to.equal(401);
    const refresh = await tokenRequest({ grant_type: 'refresh_token', refresh_token: provider.savedTokens!.refresh_token!, client_id: provider.registration!.client_id });
    expect(refresh.body.error).to.equal('invalid_grant');
    await client.close();
  });

  describe('dynamic registration policy', () => {
    async function register(redirectUris: string[]) {
      const response = await fetch(`${service.url}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: 'probe', redirect_uris: redirectUris, token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'] }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    }

    for (const uri of ['https://other.example.com/oauth/callback', 'http://app.example.com/oauth/callback', 'https://app.example.com/oauth/callback/extra', 'http://127.0.0.1.evil.example/cb']) {
      it(`refuses ${uri} with invalid_redirect_uri`, async () => {
        expect(await register([uri])).to.deep.equal({ status: 400, body: { error: 'invalid_redirect_uri', error_description: `redirect_uris: ${uri} is neither a loopback callback nor on the operator's approved list` } });
      });
    }

    for (const uri of ['http://127.0.0.1:51234/callback', 'http://localhost:9/cb', 'http://[::1]:3000/cb', hostedCallback]) {
      it(`accepts ${uri}`, async () => {
        const answer = await register([uri]);
        expect(answer.status).to.equal(201);
        expect(answer.body.redirect_uris).to.deep.equal([uri]);
      });
    }
  });

  it('refuses a token signed by us for another audience, and a forged one', async () => {
    const key = (await service.service.gateway.oauth.keys()).signingKeys[0]!;
    const now = Math.floor(Date.now() / 1000);
    const jwt = (claims: Record<string, unknown>, privateJwk = key) => {
      const head = Buffer.from(JSON.stringify({ alg: 'RS256', kid: key.kid, typ: 'at+jwt' })).toString('base64url');
      const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
      const signature = sign('sha256', Buffer.from(`${head}.${body}`), createPrivateKey({ key: { ...privateJwk }, format: 'jwk' })).toString('base64url');
      return `${head}.${body}.${signature}`;
    };
    const claims = { iss: service.url, sub: 'user_x', client_id: 'c', scope: 'requests:read', mg_link: 'link_x', iat: now, exp: now + 600 };
    const otherAudience = await toolCall(jwt({ ...claims, aud: 'https://other.example.com/mcp' }), 'api_status');
    expect({ status: otherAudience.status, detail: otherAudience.body.detail }).to.deep.equal({ status: 401, detail: 'the access token is for another resource' });
    const tampered = jwt({ ...claims, aud: mcpUrl() }).replace(/\.[^.]+$/, '.AAAA');
    expect((await toolCall(tampered, 'api_status')).body.detail).to.equal('the access token was not issued by this server');
  });

  it('answers an expired access token with 401 and the challenge naming the resource metadata and scopes', async () => {
    const { provider, client } = await linkedClient();
    offsetMs = 601_000;
    const expired = await toolCall(provider.savedTokens!.access_token, 'api_status');
    expect({ status: expired.status, detail: expired.body.detail, challenge: expired.challenge }).to.deep.equal({
      status: 401,
      detail: 'the access token has expired; refresh it',
      challenge: `Bearer resource_metadata="${metadataUrl()}", scope="requests:read requests:write", error="invalid_token", error_description="the credential is invalid, expired or revoked"`,
    });
    const none = await fetch(mcpUrl(), { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'api_status', arguments: {} } }) });
    expect({ status: none.status, challenge: none.headers.get('www-authenticate') }).to.deep.equal({ status: 401, challenge: `Bearer resource_metadata="${metadataUrl()}", scope="requests:read requests:write"` });
    await client.close();
  });

  it('steps up: a token without the scope a tool needs gets 403 insufficient_scope naming it', async () => {
    const { provider, client } = await linkedClient({ callback: 'http://127.0.0.1:48124/callback', scope: 'requests:read' });
    const refused = await toolCall(provider.savedTokens!.access_token, 'create_generation_request', { operation: 'image.generate', input: { prompt: 'x' } });
    expect({ status: refused.status, code: refused.body.code, challenge: refused.challenge }).to.deep.equal({
      status: 403,
      code: 'MG_INSUFFICIENT_SCOPE',
      challenge: `Bearer resource_metadata="${metadataUrl()}", scope="requests:write", error="insufficient_scope", error_description="create_generation_request needs requests:write"`,
    });
    expect((await toolCall(provider.savedTokens!.access_token, 'api_status')).status).to.equal(200);
    await client.close();
  });

  describe('consent', () => {
    it('refuses to redirect to a callback the client did not register (no Location, an error page)', async () => {
      const { provider, client, browser } = await linkedClient({ callback: 'http://127.0.0.1:48125/callback' });
      const url = new URL(`${service.url}/oauth/authorize`);
      for (const [name, value] of Object.entries({ client_id: provider.registration!.client_id, response_type: 'code', redirect_uri: 'https://evil.example/steal', code_challenge: 'a'.repeat(43), code_challenge_method: 'S256', scope: 'requests:read' })) {
        url.searchParams.set(name, value);
      }
      const answer = await browser.request(url.href);
      expect({ status: answer.status, location: answer.location }).to.deep.equal({ status: 400, location: undefined });
      expect(answer.body).to.include('data-code="invalid_redirect_uri"');
      await client.close();
    });

    it('a consent form without the CSRF token changes nothing', async () => {
      const { provider, client } = await pendingAuthorization('http://127.0.0.1:48126/callback');
      const browser = new CookieBrowser();
      const consentPage = await reachConsent(browser, provider.authorizationUrl!.href);
      const form = formOn(consentPage, '/oauth/interaction/');
      const { _csrf: _ignored, ...withoutToken } = form.fields;
      const answer = await browser.request(form.action, { form: { ...withoutToken, account_id: accountId, decision: 'approve' } });
      expect({ status: answer.status, code: JSON.parse(answer.body).code }).to.deep.equal({ status: 403, code: 'MG_CSRF_REJECTED' });
      expect(await service.service.gateway.oauth.links.listForAccount(accountId)).to.satisfy((links: { clientId: string }[]) => links.every((link) => link.clientId !== provider.registration!.client_id));
      await client.close();
    });

    it('a viewer cannot approve write scopes: 422 naming the field, nothing linked', async () => {
      await service.service.gateway.users.create({ email: 'viewer@example.com', password, accountId, role: 'viewer' });
      const { provider, client } = await pendingAuthorization('http://127.0.0.1:48132/callback');
      const browser = new CookieBrowser();
      const consentPage = await reachConsent(browser, provider.authorizationUrl!.href, 'viewer@example.com');
      const form = formOn(consentPage, '/oauth/interaction/');
      const answer = await browser.request(form.action, { form: { ...form.fields, account_id: accountId, decision: 'approve' } });
      expect(answer.status).to.equal(422);
      expect(answer.body).to.include('data-code="MG_VALIDATION_FAILED" data-field="account_id"><strong>account_id</strong>: your role (viewer) in this account cannot approve requests:write</p>');
      expect(await service.service.gateway.oauth.links.listForAccount(accountId)).to.satisfy((links: { clientId: string }[]) => links.every((link) => link.clientId !== provider.registration!.client_id));
      await client.close();
    });

    it('deny sends the browser back with access_denied', async () => {
      const { provider, client } = await pendingAuthorization('http://127.0.0.1:48127/callback');
      const browser = new CookieBrowser();
      const back = await decide(browser, await reachConsent(browser, provider.authorizationUrl!.href), 'deny', 'http://127.0.0.1:48127/callback');
      expect(back.searchParams.get('error')).to.equal('access_denied');
      await client.close();
    });

    it('asks again before an existing link gains workspace scopes, then records them on the same link', async () => {
      const callback = 'http://127.0.0.1:48131/callback';
      const { provider, browser, client, authorizeUrl } = await linkedClient({ callback });
      const before = (await service.service.gateway.oauth.links.listForAccount(accountId)).find((link) => link.clientId === provider.registration!.client_id)!;
      const stepUp = new URL(authorizeUrl);
      stepUp.searchParams.set('scope', 'requests:read requests:write workspace:read');
      const page = (await browser.follow(stepUp.href, isCallback(callback))).final as Hop;
      expect(page.status, 'consent asked, not skipped').to.equal(200);
      expect(page.body).to.include('<code>requests:read</code>: read the generation requests it made and their results <span class="muted">(already approved)</span>');
      expect(page.body).to.include('<code>workspace:read</code>: read the account’s workspaces: projects, worlds and assets</li>');
      const back = await decide(browser, page, 'approve', callback);
      expect(back.searchParams.has('code')).to.equal(true);
      const after = (await service.service.gateway.oauth.links.listForAccount(accountId)).find((link) => link.clientId === provider.registration!.client_id)!;
      expect({ id: after.id, key: after.apiKeyId, scopes: after.scopes }).to.deep.equal({ id: before.id, key: before.apiKeyId, scopes: ['requests:read', 'requests:write', 'workspace:read'] });
      await client.close();
    });

    it('ends with the console session: after signing out, an approved client is not re-authorized silently', async () => {
      const callback = 'http://127.0.0.1:48132/callback';
      const { browser, client, authorizeUrl } = await linkedClient({ callback });
      const silent = await browser.follow(authorizeUrl.href, isCallback(callback));
      expect(silent.final).to.have.property('stopped', true);

      const account = await browser.request(`${service.url}/console/account`);
      const signOut = await browser.request(`${service.url}/console/logout`, { form: formOn(account, '/console/logout').fields });
      expect(signOut.status).to.equal(303);
      const afterSignOut = await browser.follow(authorizeUrl.href, isCallback(callback));
      expect(afterSignOut.final).to.not.have.property('stopped');
      expect(new URL((afterSignOut.final as Hop).url).pathname).to.equal('/console/login');
      await client.close();
    });

    it('is skipped for an approved client, and asked again once the client changed its redirect URIs', async () => {
      const callback = 'http://127.0.0.1:48128/callback';
      // Registered by hand: the SDK keeps only what it needs, not the RFC 7592 management credentials.
      const registered = await fetch(`${service.url}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: 'Test MCP client', redirect_uris: [callback], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] }),
      });
      const registration = (await registered.json()) as { client_id: string; registration_access_token: string; registration_client_uri: string };
      const { browser, client, authorizeUrl } = await linkedClient({ callback, registration });
      // Same client, same browser: straight back with a code.
      const again = await browser.follow(authorizeUrl.href, isCallback(callback));
      expect(again.final).to.have.property('stopped', true);
      expect(new URL(again.final.url).searchParams.has('code')).to.equal(true);

      // RFC 7592 update of the registration with an extra callback: the earlier approval no longer counts.
      const updated = await fetch(registration.registration_client_uri!, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${registration.registration_access_token}` },
        body: JSON.stringify({ client_id: registration.client_id, client_name: 'Test MCP client', redirect_uris: [callback, 'http://127.0.0.1:48129/callback'], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] }),
      });
      expect(updated.status, await updated.clone().text()).to.equal(200);
      const afterChange = await browser.follow(authorizeUrl.href, isCallback(callback));
      const page = afterChange.final as Hop;
      expect(page.status).to.equal(200);
      expect(page.body).to.include('Connect <span class="client-name">Test MCP client</span>?');
      await client.close();
    });
  });
});
