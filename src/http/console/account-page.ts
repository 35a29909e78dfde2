/** `GET /console/account`: the signed-in member and the account they act in (plan, balance, role). */
import type { Router } from '@koa/router';
import type { Gateway } from '../../kernel/gateway.js';
import type { ConsoleState } from './console-context.js';
import { consoleSession } from './console-session.js';
import { html } from './html.js';
import { renderPage } from './layout.js';
import { requireMember } from './require-member.js';

export function addAccountPage(router: Router, gateway: Gateway): void {
  router.get('/console/account', consoleSession(gateway), requireMember('viewer'), async (ctx) => {
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
  : ''}`,
    });
  });
}
