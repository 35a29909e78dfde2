/**
 * The consent screen of OAuth account linking: which application (its name and the host it sends you back
 * to), what it asks to do, on behalf of which account. Approve or deny is one CSRF-protected POST form.
 */
import type { Member } from '../../../kernel/accounts/members.js';
import { scopeDescriptions, type OAuthScope } from '../../../kernel/oauth/index.js';
import type { ConsolePage } from '../console-context.js';
import { html } from '../html.js';

export interface ConsentView {
  action: string;
  csrfToken: string;
  clientName: string;
  /** The host the browser goes back to: what tells a person which application this really is. */
  redirectHost: string;
  /** Loopback callbacks: a program on this computer, not a website. */
  redirectIsLoopback: boolean;
  scopes: readonly OAuthScope[];
  /** Scopes the current link already has (a step-up asks for more). */
  alreadyApproved: readonly OAuthScope[];
  accounts: readonly Member[];
  selectedAccountId?: string;
  /** Why the last submission was refused, with the failing field. */
  problem?: { field: string; message: string };
}

export function consentPage(view: ConsentView): ConsolePage {
  const scopes = view.scopes.map((scope) => html`<li><code>${scope}</code>: ${scopeDescriptions[scope]}${view.alreadyApproved.includes(scope) ? html` <span class="muted">(already approved)</span>` : ''}</li>`);
  const accounts = view.accounts.map(
    (member) =>
      html`<li><label><input type="radio" name="account_id" value="${member.accountId}"${member.accountId === (view.selectedAccountId ?? view.accounts[0]?.accountId) ? html` checked` : ''}> <code>${member.accountId}</code> (${member.role})</label></li>`,
  );
  const origin = view.redirectIsLoopback ? html`a program on this computer (<code>${view.redirectHost}</code>)` : html`<code>${view.redirectHost}</code>`;
  return {
    title: `Connect ${view.clientName}`,
    section: 'apps',
    body: html`<h1>Connect <span class="client-name">${view.clientName}</span>?</h1>
<p>After you decide, your browser goes back to ${origin}. Only approve if you started this connection.</p>
${view.problem ? html`<p class="error" role="alert" data-code="MG_VALIDATION_FAILED" data-field="${view.problem.field}"><strong>${view.problem.field}</strong>: ${view.problem.message}</p>` : ''}
<form method="post" action="${view.action}">
<input type="hidden" name="_csrf" value="${view.csrfToken}">
<h2 id="scopes-heading">It asks to</h2>
<ul aria-labelledby="scopes-heading" class="scopes">${scopes.length > 0 ? scopes : html`<li>identify your link only (no scopes)</li>`}</ul>
<fieldset><legend>On behalf of the account</legend><ul class="choices">${accounts}</ul></fieldset>
<p class="actions"><button type="submit" name="decision" value="approve" class="button primary">Approve</button> <button type="submit" name="decision" value="deny" class="button">Deny</button></p>
</form>`,
  };
}
