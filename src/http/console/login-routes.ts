/**
 * Signing in and out of the console, and switching the account a session acts in:
 *   GET  /console/login?return_to=<path>   the form (a signed-in visitor goes straight to return_to)
 *   POST /console/login                    e-mail + password; 303 to return_to, 422 (same message for any
 *                                          wrong e-mail or password), 429 + Retry-After when throttled
 *   POST /console/logout                   ends the session
 *   POST /console/account                  account_id: act in another account the user is a member of
 * Every POST passes csrfProtection (the sign-in form with the pre-session token).
 */
import type { Router } from '@koa/router';
import type { Context } from 'koa';
import type { Gateway } from '../../kernel/gateway.js';
import { ApiError } from '../../kernel/errors/index.js';
import { addConsoleAssetRoutes } from './console-assets.js';
import type { ConsoleState } from './console-context.js';
import { consoleSession, currentSession, endSession, startSignedInSession } from './console-session.js';
import { csrfProtection } from './csrf.js';
import { formField, readFormBody } from './form-body.js';
import { html } from './html.js';
import { renderPage } from './layout.js';
import { requireMember } from './require-member.js';
import { safeReturnTo } from './return-to.js';

/** One message for an unknown e-mail, a wrong password and a disabled user: none of them is revealed. */
export const wrongCredentialsMessage = 'Wrong e-mail or password.';

interface LoginForm {
  returnTo: string;
  email?: string;
  problem?: { code: string; field?: string; message: string };
}

export function addLoginRoutes(router: Router, gateway: Gateway): void {
  const session = [consoleSession(gateway), csrfProtection()] as const;
  addConsoleAssetRoutes(router);

  router.get('/console/login', ...session, (ctx) => {
    const returnTo = safeReturnTo(ctx.query.return_to);
    if ((ctx.state.console as ConsoleState).userId) return ctx.redirect(returnTo);
    renderLoginForm(ctx, { returnTo });
  });

  router.post('/console/login', ...session, async (ctx) => {
    const form = await readFormBody(ctx);
    const returnTo = safeReturnTo(formField(form, 'return_to'));
    const email = formField(form, 'email') ?? '';
    const password = formField(form, 'password') ?? '';
    for (const [field, value] of [['email', email], ['password', password]] as const) {
      if (!value) return renderLoginForm(ctx, { returnTo, email, problem: { code: 'MG_VALIDATION_FAILED', field, message: `Enter your ${field === 'email' ? 'e-mail' : 'password'}.` } }, 422);
    }
    const result = await gateway.consoleSignIn.attempt(email, password, ctx.ip);
    if (result.outcome === 'throttled') {
      ctx.set('Retry-After', String(result.retryAfterSeconds));
      const minutes = Math.ceil(result.retryAfterSeconds / 60);
      return renderLoginForm(ctx, { returnTo, email, problem: { code: 'MG_RATE_LIMITED', message: `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.` } }, 429);
    }
    if (result.outcome === 'invalid') return renderLoginForm(ctx, { returnTo, email, problem: { code: 'MG_LOGIN_FAILED', message: wrongCredentialsMessage } }, 422);
    await startSignedInSession(ctx, gateway, result.user);
    gateway.log.info({ userId: result.user.id }, 'console sign-in');
    ctx.status = 303;
    ctx.redirect(returnTo);
  });

  router.post('/console/logout', ...session, async (ctx) => {
    await endSession(ctx, gateway);
    ctx.status = 303;
    ctx.redirect('/console/login');
  });

  router.post('/console/account', ...session, requireMember('viewer'), async (ctx) => {
    const form = await readFormBody(ctx);
    const accountId = formField(form, 'account_id');
    const state = ctx.state.console as ConsoleState;
    // Not a member there (or no such account): the same answer, so account ids cannot be probed.
    if (!accountId || !state.memberships.some((member) => member.accountId === accountId)) {
      throw new ApiError('MG_NOT_FOUND', 'you are not a member of that account', { errors: [{ path: 'account_id', message: 'not one of your accounts' }] });
    }
    await gateway.consoleSessions.switchAccount(currentSession(ctx)!.id, accountId);
    ctx.status = 303;
    ctx.redirect(safeReturnTo(formField(form, 'return_to')));
  });
}

function renderLoginForm(ctx: Context, form: LoginForm, status = 200): void {
  const state = ctx.state.console as ConsoleState;
  const { problem } = form;
  renderPage(ctx, {
    title: 'Sign in',
    body: html`<section class="card narrow" aria-labelledby="sign-in-heading">
<h1 id="sign-in-heading">Sign in</h1>
${problem ? html`<p class="error" role="alert" id="sign-in-problem" data-code="${problem.code}"${problem.field ? html` data-field="${problem.field}"` : ''}>${problem.message}</p>` : ''}
<form method="post" action="/console/login"${problem ? html` aria-describedby="sign-in-problem"` : ''}>
<input type="hidden" name="_csrf" value="${state.csrfToken}">
<input type="hidden" name="return_to" value="${form.returnTo}">
<label for="email">E-mail</label>
<input type="email" id="email" name="email" autocomplete="username" required value="${form.email ?? ''}"${problem ? ' aria-invalid="true"' : ''}>
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required>
<p><button type="submit" class="button primary">Sign in</button></p>
</form>
</section>`,
  });
  ctx.status = status;
}
