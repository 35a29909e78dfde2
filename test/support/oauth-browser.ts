/**
 * A headless stand-in for the person and the browser in an OAuth flow: a cookie jar, redirects followed by
 * hand (so every hop can be checked), the console's sign-in and consent forms read and posted with their
 * hidden fields (CSRF token included), and an `OAuthClientProvider` for the MCP SDK client that keeps its
 * registration, PKCE verifier and tokens in memory.
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

export interface Hop {
  status: number;
  url: string;
  location?: string;
  body: string;
}

export class CookieBrowser {
  private readonly cookies = new Map<string, string>();

  /** One request, no redirect followed; cookies stored from the answer. */
  async request(url: string, init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<Hop> {
    const headers: Record<string, string> = { ...init.headers };
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (cookie) headers.cookie = cookie;
    let body: string | undefined;
    if (init.form) {
      body = new URLSearchParams(init.form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers.origin ??= new URL(url).origin;
    }
    const response = await fetch(url, { method: init.method ?? (init.form ? 'POST' : 'GET'), headers, body, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const index = pair!.indexOf('=');
      const name = pair!.slice(0, index).trim();
      const value = pair!.slice(index + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const location = response.headers.get('location') ?? undefined;
    return { status: response.status, url, location: location ? new URL(location, url).href : undefined, body: await response.text() };
  }

  /** Follows redirects until a page that is not one, or until a URL `stopAt` accepts (not requested). */
  async follow(url: string, stopAt: (url: string) => boolean, init: Parameters<CookieBrowser['request']>[1] = {}): Promise<{ hops: Hop[]; final: Hop | { url: string; stopped: true } }> {
    const hops: Hop[] = [];
    let hop = await this.request(url, init);
    hops.push(hop);
    for (let redirects = 0; hop.location && redirects < 20; redirects++) {
      if (stopAt(hop.location)) return { hops, final: { url: hop.location, stopped: true } };
      hop = await this.request(hop.location);
      hops.push(hop);
    }
    return { hops, final: hop };
  }
}

/** The fields (hidden ones with their values) of the page's POST form whose action contains `action`, and where it posts. */
export function formOn(page: Hop, action: string): { action: string; fields: Record<string, string> } {
  const form = [...page.body.matchAll(/<form method="post" action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)].find((candidate) => candidate[1]!.includes(action));
  if (!form) throw new Error(`no POST form on ${page.url} (HTTP ${page.status}): ${page.body.slice(0, 500)}`);
  const fields: Record<string, string> = {};
  for (const input of form[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[input[1]!] = unescape(input[2]!);
  return { action: new URL(unescape(form[1]!), page.url).href, fields };
}

function unescape(text: string): string {
  return text.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'");
}

/** The SDK's view of one MCP client installation: its registration, PKCE verifier and tokens. */
export class MemoryOAuthClient implements OAuthClientProvider {
  registration?: OAuthClientInformationMixed;
  savedTokens?: OAuthTokens;
  verifier?: string;
  /** Where the SDK sent the user last (the authorize URL it built). */
  authorizationUrl?: URL;

  constructor(
    readonly redirectUrl: string,
    private readonly name = 'Test MCP client',
  ) {}

  get clientMetadata(): OAuthClientMetadata {
    return { client_name: this.name, redirect_uris: [this.redirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  clientInformation() {
    return this.registration;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.registration = information;
  }
  tokens() {
    return this.savedTokens;
  }
  saveTokens(tokens: OAuthTokens) {
    this.savedTokens = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    if (!this.verifier) throw new Error('no PKCE verifier saved');
    return this.verifier;
  }
}

/**
 * What `api_status` answers (without `serverTime`) to a client linked through OAuth with the default scopes: its
 * link's key speaks for it, named after the client, on the test account with 100 credits.
 */
export function linkedClientStatus(clientName: string, apiKeyId: string): Record<string, unknown> {
  return {
    ok: true,
    status: 'ok',
    message: `API key "${clientName}" is valid.`,
    creditsRemaining: 100,
    credits: { remaining: 100 },
    account: { email: 'test@example.com', plan: 'test' },
    apiKey: { id: apiKeyId, name: clientName, scopes: ['requests:read', 'requests:write'] },
  };
}
