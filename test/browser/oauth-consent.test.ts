/**
 * OAuth account linking with a person in a real browser (Debian's Chromium through playwright-core): an MCP
 * SDK client registers dynamically with a loopback callback served by this test, its authorization URL is
 * opened in Chromium, the member signs in on the console page, reads the consent screen (client name, redirect
 * host, scopes) and approves; Chromium lands on the callback with `code` and `state`, the SDK exchanges the code
 * and calls an account tool. Then the member revokes the app on the linked apps page and the token is refused.
 * Denying lands on the callback with `error=access_denied`. The consent screen and the linked apps page are
 * photographed (see test/support/chromium.ts for where the pictures go and the CI rule).
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { launchChromium, requireChromium, screenshotFolder, type ScreenshotFolder } from '../support/chromium.js';
import { testPassword } from '../support/console-client.js';
import { startLoopbackCallback, type LoopbackCallback } from '../support/loopback-callback.js';
import { MemoryOAuthClient, linkedClientStatus } from '../support/oauth-browser.js';
import { startTestService, type TestService } from '../support/test-service.js';

/** A client that sends an unguessable `state`, as a native app should to tie the callback to its request. */
class StatefulOAuthClient extends MemoryOAuthClient {
  readonly sentState = randomBytes(16).toString('base64url');
  state(): string {
    return this.sentState;
  }
}

describe('OAuth consent in Chromium', function () {
  this.timeout(180_000);
  let service: TestService;
  let browser: Browser;
  let screenshots: ScreenshotFolder;
  let callback: LoopbackCallback;
  let accountId: string;
  const email = 'owner@example.com';

  before(async function () {
    requireChromium(this);
    service = await startTestService();
    ({ accountId } = await service.createKey({ credits: 100 }));
    await service.service.gateway.users.create({ email, password: testPassword, accountId, role: 'owner' });
    callback = await startLoopbackCallback();
    browser = await launchChromium();
    screenshots = await screenshotFolder();
  });
  after(async () => {
    await browser?.close();
    await callback?.close();
    await service?.stop();
    await screenshots?.dispose();
  });

  const mcpUrl = () => `${service.url}/mcp`;
  const isCallback = (url: URL) => url.href.startsWith(callback.url);

  /** An MCP client that met the 401 challenge of an account tool and registered: its authorize URL waits for a person. */
  async function pendingAuthorization(name: string) {
    const provider = new StatefulOAuthClient(callback.url, name);
    const transport = new StreamableHTTPClientTransport(new URL(mcpUrl()), { authProvider: provider });
    const client = new Client({ name: 'oauth-browser-test', version: '1.0.0' });
    await client.connect(transport);
    expect(await client.callTool({ name: 'api_status', arguments: {} }).catch((error: unknown) => error)).to.be.instanceOf(UnauthorizedError);
    // Registered dynamically (RFC 7591) with the loopback callback; the authorize URL carries the client's state.
    expect(provider.registration).to.deep.include({ client_name: name, redirect_uris: [callback.url], token_endpoint_auth_method: 'none' });
    expect(provider.authorizationUrl!.searchParams.get('state')).to.equal(provider.sentState);
    return { provider, transport, client };
  }

  /** A fresh browser profile (no console session), so each test signs in on its own. */
  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    return context.newPage();
  }

  /** Opens the authorization URL: the console's sign-in page comes first, then the consent screen. */
  async function signInThroughAuthorization(page: Page, authorizationUrl: URL): Promise<void> {
    await page.goto(authorizationUrl.href);
    const login = new URL(page.url());
    expect(login.pathname).to.equal('/console/login');
    expect(login.searchParams.get('return_to')).to.match(/^\/oauth\/interaction\/[\w-]+$/);
    await page.fill('input[name="email"]', email);
    await page.fill('input[name="password"]', testPassword);
    await Promise.all([page.waitForURL(/\/oauth\/interaction\/[\w-]+$/), page.click('form[method="post"] button[type="submit"]')]);
  }

  /** Where Chromium was sent back to, as the callback server saw it (the last hit, which must be this one). */
  async function decide(page: Page, decision: 'Approve' | 'Deny'): Promise<URL> {
    const hitsBefore = callback.received.length;
    await Promise.all([page.waitForURL(isCallback), page.click(`button[name="decision"]:has-text("${decision}")`)]);
    expect(callback.received).to.have.length(hitsBefore + 1);
    const back = callback.received.at(-1)!;
    expect(back.href).to.equal(page.url());
    return back;
  }

  async function toolCall(token: string) {
    const response = await fetch(mcpUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'api_status', arguments: {} } }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }

  it('signs in, approves the consent screen, links the client; the member revokes it on the linked apps page', async () => {
    const { provider, transport, client } = await pendingAuthorization('Desktop MCP client');
    const page = await newPage();
    await signInThroughAuthorization(page, provider.authorizationUrl!);

    // The consent screen: who asks, where the browser goes back to, what for, on behalf of which account.
    const port = new URL(callback.url).port;
    expect(await page.textContent('h1')).to.equal('Connect Desktop MCP client?');
    expect(await page.textContent('main p:has-text("goes back to")')).to.equal(`After you decide, your browser goes back to a program on this computer (127.0.0.1:${port}). Only approve if you started this connection.`);
    expect(await page.locator('ul.scopes li').allTextContents()).to.deep.equal([
      'requests:read: read the generation requests it made and their results',
      'requests:write: create generation requests that spend the account’s credits',
    ]);
    expect(await page.locator('input[name="account_id"]:checked').getAttribute('value')).to.equal(accountId);
    await screenshots.photograph(page, 'consent');

    const back = await decide(page, 'Approve');
    expect([...back.searchParams.keys()].sort()).to.deep.equal(['code', 'iss', 'state']);
    expect({ path: back.pathname, state: back.searchParams.get('state'), iss: back.searchParams.get('iss') }).to.deep.equal({ path: '/callback', state: provider.sentState, iss: service.url });

    // The SDK finishes the token exchange (PKCE verifier, resource) and calls an account tool with the token.
    await transport.finishAuth(back.searchParams.get('code')!);
    await client.close();
    const linked = new Client({ name: 'oauth-browser-test', version: '1.0.0' });
    await linked.connect(new StreamableHTTPClientTransport(new URL(mcpUrl()), { authProvider: provider }));
    const status = await linked.callTool({ name: 'api_status', arguments: {} });
    const link = (await service.service.gateway.oauth.links.listForAccount(accountId))[0]!;
    const { serverTime: _time, ...statusBody } = status.structuredContent as Record<string, unknown>;
    expect(statusBody).to.deep.equal(linkedClientStatus('Desktop MCP client', link.apiKeyId));
    await linked.close();

    // The linked apps page lists it; revoking it there ends its tokens at once.
    await page.goto(`${service.url}/console/apps`);
    expect(await page.textContent('h1')).to.equal('Linked apps');
    const row = page.locator('tbody tr', { has: page.locator('th', { hasText: 'Desktop MCP client' }) });
    expect(await row.locator('td code').allTextContents()).to.deep.equal(['requests:read', 'requests:write']);
    await screenshots.photograph(page, 'linked-apps');
    await Promise.all([page.waitForURL(`${service.url}/console/apps?revoked=1`), row.locator('button:has-text("Revoke")').click()]);
    expect(await page.textContent('[role="status"]')).to.equal('The app was disconnected: its tokens no longer work.');
    expect(await page.locator('tbody tr').count()).to.equal(0);

    expect(await toolCall(provider.savedTokens!.access_token)).to.deep.equal({
      status: 401,
      body: { type: 'https://mediagate.dev/docs/errors#mg-unauthenticated', title: 'API key missing, invalid or revoked', status: 401, code: 'MG_UNAUTHENTICATED', detail: 'the access to this account was revoked; connect the application again', instance: '/mcp' },
    });
  });

  it('denying sends the browser back with access_denied and the state; nothing is linked', async () => {
    const { provider, client } = await pendingAuthorization('Unknown MCP client');
    const page = await newPage();
    await signInThroughAuthorization(page, provider.authorizationUrl!);
    expect(await page.textContent('h1')).to.equal('Connect Unknown MCP client?');

    const back = await decide(page, 'Deny');
    expect({ path: back.pathname, error: back.searchParams.get('error'), state: back.searchParams.get('state'), code: back.searchParams.get('code') }).to.deep.equal({
      path: '/callback',
      error: 'access_denied',
      state: provider.sentState,
      code: null,
    });
    const links = await service.service.gateway.oauth.links.listForAccount(accountId);
    expect(links.map((link) => link.clientId)).not.to.include(provider.registration!.client_id);
    await client.close();
  });
});
