/**
 * `GET /console/account`: the signed-in member and the account they act in (plan, balance, role), and the
 * password form. `POST /console/account/password` changes the password (the current one is required) and ends
 * the user's other sessions; a user invited with a one-time password sets their own here.
 */
import type { Router } from '@koa/router';
import type { Context } from 'koa';
import { UserInputError } from '../../kernel/accounts/index.js';
import type { Gateway } from '../../kernel/gateway.js';
import type { ConsoleState } from './console-context.js';
import { consoleSession, currentSession } from './console-session.js';
import { formField, readFormBody } from './form-body.js';
import { html } from './html.js';
import { renderPage } from './layout.js';
import { csrfField, fieldError } from './pages/page-kit.js';
import { requireMember } from './require-member.js';

type PasswordOutcome = { changed: true } | { field: string; message: string };

export function addAccountPage(router: Router, gateway: Gateway): void {
  router.get('/console/account', consoleSession(gateway), requireMember('viewer'), async (ctx) => {
    await renderAccountPage(ctx, gateway, ctx.query.password === 'changed' ? { changed: true } : undefined);
  });

  router.post('/console/account/password', consoleSession(gateway), requireMember('viewer'), async (ctx) => {
    const state = ctx.state.console as ConsoleState;
    const form = await readFormBody(ctx);
    try {
      await gateway.users.changePassword(state.userId!, formField(form, 'current_password') ?? '', formField(form, 'new_password') ?? '');
    } catch (error) {
      if (!(error instanceof UserInputError)) throw error;
      ctx.status = 422;
      await renderAccountPage(ctx, gateway, { field: error.field, message: error.message });
      ctx.status = 422;
      return;
    }
    const session = currentSession(ctx);
    if (session) await gateway.consoleSessions.endOthers(state.userId!, session.id);
    gateway.log.info({ userId: state.userId }, 'console password changed; other sessions ended');
    ctx.status = 303;
    ctx.redirect('/console/account?password=changed');
  });
}

async function renderAccountPage(ctx: Context, gateway: Gateway, outcome?: PasswordOutcome): Promise<void> {
    const state = ctx.state.console as ConsoleState;
    const member = state.member!;
    const account = await gateway.accounts.getAccount(member.accountId);
    renderPage(ctx, {
      title: 'Account',
      section: 'account',
      body: html`<h1>Account</h1>
<section class="card" aria-labelledby="account-heading">
<h2 id="account-heading">${account?.email ?? member.accountId}</h2>
<dl class="facts">
<dt>Account</dt><dd class="secret">${member.accountId}</dd>
<dt>Plan</dt><dd>${account?.plan ?? ''}</dd>
<dt>Credit balance</dt><dd data-testid="balance">${new Intl.NumberFormat('en-US').format(account?.creditsBalance ?? 0)}</dd>
<dt>Signed in as</dt><dd>${state.email}</dd>
<dt>Your role</dt><dd>${member.role}</dd>
</dl>
</section>
${state.memberships.length > 1
  ? html`<section class="card" aria-labelledby="memberships-heading"><h2 id="memberships-heading">Your accounts</h2>
<table><thead><tr><th scope="col">Account</th><th scope="col">Role</th></tr></thead><tbody>
${state.memberships.map((each) => html`<tr><td class="secret">${each.accountId}</td><td>${each.role}</td></tr>`)}
</tbody></table></section>`
  : ''}
<section class="card" aria-labelledby="password-heading">
<h2 id="password-heading">Password</h2>
${outcome && 'changed' in outcome ? html`<p class="callout" role="status" data-status="password-changed">Your password was changed; your other sessions were signed out.</p>` : ''}
${outcome && 'field' in outcome ? fieldError(outcome.field, outcome.message) : ''}
<form method="post" action="/console/account/password">
${csrfField(ctx)}
<p><label for="current_password">Current password</label>
<input id="current_password" name="current_password" type="password" autocomplete="current-password" required></p>
<p><label for="new_password">New password (at least 8 characters)</label>
<input id="new_password" name="new_password" type="password" autocomplete="new-password" minlength="8" required></p>
<p><button type="submit">Change password</button></p>
</form>
</section>`,
    });
}
