/**
 * The contract between the console's pieces (session and CSRF middleware, page layout, pages, the OAuth
 * login/consent screens). The session middleware sets `ctx.state.console`; pages read it.
 */
import type { Member } from '../../kernel/accounts/members.js';
import type { SafeHtml } from './html.js';

export interface ConsoleState {
  /** The signed-in user's id, when a valid session cookie came with the request. */
  userId?: string;
  email?: string;
  /** The account the user is acting in (the session remembers the last one picked), with the user's role there. */
  member?: Member;
  /** Every account the user is a member of (for the account switcher and the consent screen). */
  memberships: Member[];
  /** The CSRF token to put in every form of this session (a hidden `_csrf` field). */
  csrfToken: string;
}

export interface ConsolePage {
  title: string;
  /** Trusted HTML built with the `html` template tag of `./html.ts` (which escapes interpolated values). */
  body: string | SafeHtml;
  /** Which navigation item is active. */
  section?: 'requests' | 'workspaces' | 'keys' | 'credits' | 'webhooks' | 'apps' | 'account';
}
