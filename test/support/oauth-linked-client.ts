/**
 * OAuth account linking as a test step: "link user X of account A with scopes S and give me a connected MCP
 * client". It runs the real flow over HTTP, as a person and an MCP client would: the SDK client meets the 401
 * challenge and registers, the person signs in to the console and approves the consent form (CSRF field
 * included) for one of their accounts, the SDK exchanges the code; the returned client carries the token.
 */
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { CookieBrowser, formOn, MemoryOAuthClient, type Hop } from './oauth-browser.js';

/** Who approves, for which account, in which service. */
export interface Approver {
  /** The service's base URL (`TestService.url`). */
  baseUrl: string;
  email: string;
  password: string;
  /** The account the person picks on the consent page (they may belong to several). */
  accountId: string;
}

export interface LinkOptions {
  /** The client's loopback callback; each link needs its own when several run in one service. */
  callback?: string;
  /** Space-separated scopes to ask for instead of the 401 challenge's (the account tools' scopes). */
  scope?: string;
  /** A registration made beforehand (RFC 7591), instead of the SDK's dynamic registration. */
  registration?: MemoryOAuthClient['registration'];
}

export interface LinkedClient {
  /** An MCP client connected with the access token (its provider refreshes it when needed). */
  client: Client;
  provider: MemoryOAuthClient;
  /** The person's browser, still signed in to the console. */
  browser: CookieBrowser;
  /** The authorize URL the SDK built (with `scope` replaced when asked). */
  authorizeUrl: URL;
  consentPage: Hop;
  /** Where the browser was sent back to: the callback with `code`. */
  back: URL;
  accessToken(): string;
  /** One tool call, read as a model reads it (see `ToolOutcome`). */
  call(name: string, args?: Record<string, unknown>): Promise<ToolOutcome>;
  close(): Promise<void>;
}

/**
 * A tool call's answer as a model reads it: the structured result (checked to be also the first text item) with
 * every content item, or the tool error: our JSON `{code, message, errors?}`, or the SDK's plain text when it
 * refused the arguments before the tool ran.
 */
export type ToolOutcome =
  | { ok: true; value: any; content: ContentBlock[]; error?: undefined }
  | { ok: false; error: any; content: ContentBlock[]; value?: undefined };

export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolOutcome> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as ContentBlock[];
  if (result.isError) {
    expect(result.structuredContent).to.equal(undefined);
    expect(content).to.have.length(1);
    const text = (content[0] as { text: string }).text;
    return { ok: false, error: text.startsWith('{') ? JSON.parse(text) : text, content };
  }
  expect(content[0]).to.deep.equal({ type: 'text', text: JSON.stringify(result.structuredContent) });
  return { ok: true, value: result.structuredContent, content };
}

let nextCallbackPort = 49_200;

/** A callback URL no other link of this test process uses. */
export function uniqueLoopbackCallback(): string {
  return `http://127.0.0.1:${nextCallbackPort++}/callback`;
}

export const isCallback = (callback: string) => (url: string) => url.startsWith(callback);

/** Signs the browser in through the login page the authorization server sent it to. */
export async function signIn(browser: CookieBrowser, loginPage: Hop, as: Pick<Approver, 'email' | 'password'>): Promise<Hop> {
  const form = formOn(loginPage, '/console/login');
  const answer = await browser.request(form.action, { form: { ...form.fields, email: as.email, password: as.password } });
  expect(answer.status, answer.body).to.equal(303);
  return answer;
}

/** From the authorize URL to the consent page: login redirect, sign-in, back to the interaction, consent. */
export async function reachConsent(browser: CookieBrowser, authorizeUrl: string, as: Approver): Promise<Hop> {
  const toLogin = await browser.follow(authorizeUrl, () => false);
  const loginPage = toLogin.final as Hop;
  if (!loginPage.url.includes('/console/login')) return loginPage; // already signed in
  const uid = /interaction%2F([^&]+)/.exec(loginPage.url)?.[1];
  expect(loginPage.url).to.equal(`${as.baseUrl}/console/login?return_to=%2Foauth%2Finteraction%2F${uid}`);
  const signedIn = await signIn(browser, loginPage, as);
  expect(signedIn.location).to.equal(`${as.baseUrl}/oauth/interaction/${uid}`);
  const consent = await browser.follow(signedIn.location!, () => false);
  return consent.final as Hop;
}

/** Approves (or denies) the consent page for `accountId`; returns the URL the browser was sent back to. */
export async function decide(browser: CookieBrowser, consentPage: Hop, decision: 'approve' | 'deny', callback: string, accountId: string): Promise<URL> {
  expect(consentPage.status, consentPage.body).to.equal(200);
  const form = formOn(consentPage, '/oauth/interaction/');
  const result = await browser.follow(form.action, isCallback(callback), { form: { ...form.fields, account_id: accountId, decision } });
  expect(result.final, JSON.stringify(result.hops.map((hop) => [hop.status, hop.url, hop.location]))).to.have.property('stopped', true);
  return new URL(result.final.url);
}

/** The whole flow for `as`: returns an MCP client connected with the token, and what the flow went through. */
export async function linkOAuthClient(as: Approver, options: LinkOptions = {}): Promise<LinkedClient> {
  const callback = options.callback ?? uniqueLoopbackCallback();
  const mcpUrl = new URL(`${as.baseUrl}/mcp`);
  const provider = new MemoryOAuthClient(callback);
  provider.registration = options.registration;
  const browser = new CookieBrowser();
  const unlinked = new Client({ name: 'oauth-test', version: '1.0.0' });
  const firstTransport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
  await unlinked.connect(firstTransport);
  // An account tool without a token: the 401 challenge starts registration and authorization.
  const first = await unlinked.callTool({ name: 'api_status', arguments: {} }).catch((error: unknown) => error);
  expect(first).to.be.instanceOf(UnauthorizedError);
  const authorizeUrl = provider.authorizationUrl!;
  if (options.scope) authorizeUrl.searchParams.set('scope', options.scope);
  const consentPage = await reachConsent(browser, authorizeUrl.href, as);
  const back = await decide(browser, consentPage, 'approve', callback, as.accountId);
  await firstTransport.finishAuth(back.searchParams.get('code')!);
  await unlinked.close();
  const client = new Client({ name: 'oauth-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
  return {
    client,
    provider,
    browser,
    authorizeUrl,
    consentPage,
    back,
    accessToken: () => provider.savedTokens!.access_token,
    call: (name, args) => callTool(client, name, args),
    close: () => client.close(),
  };
}
