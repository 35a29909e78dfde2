/**
 * `requireMember(role)` in front of a console page: a visitor who is not signed in is sent to the sign-in
 * page (and brought back afterwards); a member whose role is weaker than `role` gets 403. Roles, strongest
 * first: owner, admin, developer, viewer (kernel/accounts/members.ts).
 */
import type { Context, Middleware, Next } from 'koa';
import { roleAtLeast, type Role } from '../../kernel/accounts/members.js';
import { ApiError } from '../../kernel/errors/index.js';
import type { ConsoleState } from './console-context.js';

export function requireMember(role: Role): Middleware {
  return async function checkMember(ctx: Context, next: Next): Promise<void> {
    const state = ctx.state.console as ConsoleState | undefined;
    if (!state) throw new Error('requireMember needs consoleSession(gateway) in front of it');
    if (!state.userId) {
      // Only a GET can be resumed after sign-in; a POST would lose its form, so it comes back to the page it names.
      const returnTo = ctx.method === 'GET' ? ctx.originalUrl : ctx.path;
      ctx.status = 303;
      ctx.redirect(`/console/login?return_to=${encodeURIComponent(returnTo)}`);
      return;
    }
    if (!state.member) throw new ApiError('MG_FORBIDDEN_ROLE', 'you are not a member of any account; ask an account owner to invite you');
    if (!roleAtLeast(state.member.role, role)) {
      throw new ApiError('MG_FORBIDDEN_ROLE', `this needs the ${role} role or a stronger one; you are ${state.member.role} in account ${state.member.accountId}`);
    }
    await next();
  };
}
