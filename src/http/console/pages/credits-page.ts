/** Credits: the account's balance and plan, and its ledger (grants, debits, refunds), newest first, in pages. */
import type { Router } from '@koa/router';
import type { Gateway } from '../../../kernel/gateway.js';
import type { LedgerEntry } from '../../../kernel/store/index.js';
import { html } from '../html.js';
import { renderPage } from '../layout.js';
import { requireMember } from '../require-member.js';
import { creditsText, memberOf, renderBadInput, renderNotFound, timeText } from './page-kit.js';

const pageSize = 50;

export function addCreditsPage(router: Router, gateway: Gateway): void {
  router.get('/console/credits', requireMember('viewer'), async (ctx) => {
    const before = ctx.query.before;
    if (before !== undefined && (typeof before !== 'string' || !/^[1-9]\d{0,15}$/.test(before))) {
      return renderBadInput(ctx, 400, 'before', 'must be a ledger entry id (a positive integer)');
    }
    const member = memberOf(ctx);
    const account = await gateway.accounts.getAccount(member.accountId);
    if (!account) return renderNotFound(ctx, 'account');
    const entries = await gateway.accounts.listLedger(member.accountId, { beforeId: before === undefined ? undefined : Number(before), limit: pageSize });
    const last = entries.at(-1);
    renderPage(ctx, {
      title: 'Credits',
      section: 'credits',
      body: html`<h1>Credits</h1>
        <div class="stats">
          <div class="stat"><span class="stat-label">Balance</span> <span class="stat-value" data-balance="${account.creditsBalance}">${creditsText(account.creditsBalance)}</span> <span class="muted">credits</span></div>
          <div class="stat"><span class="stat-label">Plan</span> <span class="stat-value">${account.plan}</span></div>
        </div>
        <h2>Ledger</h2>
        ${entries.length === 0 ? html`<p class="empty">No ledger entries${before ? ' before this one' : ''}.</p>` : ledgerTable(entries)}
        <nav class="pager" aria-label="Ledger pages">
          ${before ? html`<a href="/console/credits">Newest</a>` : ''}
          ${entries.length === pageSize && last ? html`<a href="/console/credits?before=${last.id}">Older entries</a>` : ''}
        </nav>`,
    });
  });
}

const kindLabels: Record<LedgerEntry['kind'], string> = { grant: 'Grant', debit: 'Request', refund: 'Refund', adjust: 'Adjustment' };

/** The account's ledger, or (`withRequest: false`) one request's entries on its own page. */
export function ledgerTable(entries: readonly LedgerEntry[], options: { caption: string; withRequest: boolean } = { caption: 'Credit ledger, newest first', withRequest: true }) {
  return html`<table>
    <caption class="visually-hidden">${options.caption}</caption>
    <thead><tr><th scope="col">When</th><th scope="col">Entry</th>${options.withRequest ? html`<th scope="col">Request</th>` : ''}<th scope="col">Note</th><th scope="col" class="number">Credits</th></tr></thead>
    <tbody>${entries.map((entry) => html`<tr>
      <td>${timeText(entry.atMs)}</td>
      <td>${kindLabels[entry.kind]}</td>
      ${options.withRequest ? html`<td>${entry.requestId ? html`<a href="/console/requests/${encodeURIComponent(entry.requestId)}"><code>${entry.requestId}</code></a>` : '—'}</td>` : ''}
      <td>${entry.note ?? ''}</td>
      <td class="number ${entry.amount < 0 ? 'negative' : 'positive'}">${entry.amount > 0 ? '+' : ''}${creditsText(entry.amount)}</td>
    </tr>`)}</tbody>
  </table>`;
}
