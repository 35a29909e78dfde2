/**
 * A console user over plain HTTP, as a browser without JavaScript would be: a cookie jar, no automatic
 * redirects (tests assert them), forms posted urlencoded with the page's `_csrf` field. Also makes members:
 * a user with a role in an account, through the kernel's own user store.
 */
import type { Role } from '../../src/kernel/accounts/members.js';
import type { TestService } from './test-service.js';

export interface ConsoleResponse {
  status: number;
  headers: Headers;
  text: string;
}

export const testPassword = 'correct horse battery staple';

export class ConsoleClient {
  private readonly cookies = new Map<string, string>();
  /** The CSRF token of the session, read from the last page that had a form. */
  csrfToken = '';

  constructor(readonly baseUrl: string) {}

  async get(path: string): Promise<ConsoleResponse> {
    return this.send('GET', path);
  }

  /** Posts `fields` with the session's CSRF token unless `fields._csrf` says otherwise (null: none at all). */
  async post(path: string, fields: Record<string, string | string[] | null> = {}): Promise<ConsoleResponse> {
    const form = new URLSearchParams();
    const withToken = '_csrf' in fields ? fields : { _csrf: this.csrfToken, ...fields };
    for (const [name, value] of Object.entries(withToken)) {
      if (value === null) continue;
      for (const item of Array.isArray(value) ? value : [value]) form.append(name, item);
    }
    return this.send('POST', path, form.toString());
  }

  async signIn(email: string, password = testPassword): Promise<void> {
    await this.get('/console/login');
    const response = await this.post('/console/login', { email, password });
    if (response.status !== 303) throw new Error(`sign-in of ${email}: HTTP ${response.status} ${response.text.slice(0, 500)}`);
    // The session (and its token) is new after sign-in: read the token from a page.
    await this.get('/console/requests');
  }

  private async send(method: string, path: string, body?: string): Promise<ConsoleResponse> {
    const headers: Record<string, string> = { origin: this.baseUrl };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(this.baseUrl + path, { method, headers, body, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) this.remember(line);
    const text = await response.text();
    const token = /name="_csrf" value="([^"]+)"/.exec(text)?.[1];
    if (token) this.csrfToken = token;
    return { status: response.status, headers: response.headers, text };
  }

  private remember(setCookie: string): void {
    const [pair, ...attributes] = setCookie.split(';');
    const [name, ...value] = pair!.split('=');
    const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute) || /^\s*expires=thu, 01 jan 1970/i.test(attribute));
    if (expired || value.join('=') === '') this.cookies.delete(name!.trim());
    else this.cookies.set(name!.trim(), value.join('='));
  }
}

/** A user with `role` in `accountId`, signed in over HTTP. */
export async function signedInMember(service: TestService, accountId: string, role: Role, email = `${role}-${Math.random().toString(36).slice(2, 8)}@example.com`): Promise<ConsoleClient> {
  await service.service.gateway.users.create({ email, password: testPassword, accountId, role });
  const client = new ConsoleClient(service.url);
  await client.signIn(email);
  return client;
}
