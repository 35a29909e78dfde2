/**
 * The request log: the account's requests of the last 7 days (whichever key or linked app made them),
 * filtered by status and operation with a plain GET form, and each request's page with its input, output,
 * previews of the hosted media, credits and webhook deliveries. Every member may read them.
 */
import type { Router } from '@koa/router';
import type { Context } from 'koa';
import { roleAtLeast } from '../../../kernel/accounts/members.js';
import type { Gateway } from '../../../kernel/gateway.js';
import { requestStatuses, type RequestRecord, type RequestStatus } from '../../../kernel/store/index.js';
import { html } from '../html.js';
import { renderPage } from '../layout.js';
import { requireMember } from '../require-member.js';
import { ledgerTable } from './credits-page.js';
import { deliveryTable } from './delivery-table.js';
import { hostedMedia, mediaPreviews } from './media-previews.js';
import { consoleLogWindowMs, creditsText, memberOf, renderBadInput, renderNotFound, timeText } from './page-kit.js';

/** One page of the log; a busier account narrows it with the filters. */
const logLimit = 200;

export function addRequestsPages(router: Router, gateway: Gateway): void {
  router.get('/console/requests', requireMember('viewer'), async (ctx) => {
    const status = queryText(ctx, 'status');
    const operation = queryText(ctx, 'operation');
    if (status === undefined || (status !== '' && !requestStatuses.includes(status as RequestStatus))) {
      return renderBadInput(ctx, 400, 'status', `must be one of ${requestStatuses.join(', ')}`);
    }
    if (operation === undefined || (operation !== '' && !gateway.registry.get(operation))) {
      return renderBadInput(ctx, 400, 'operation', 'must be one of the operations this gateway serves');
    }
    const member = memberOf(ctx);
    const rows = await gateway.requests.listForAccount(member.accountId, {
      status: (status || undefined) as RequestStatus | undefined,
      operation: operation || undefined,
      createdFromMs: gateway.clock.now() - consoleLogWindowMs,
      limit: logLimit,
    });
    renderPage(ctx, {
      title: 'Requests',
      section: 'requests',
      body: html`<h1>Requests</h1>
        <p class="lead">Requests of the last 7 days, newest first${rows.length === logLimit ? html` (the latest ${logLimit}: filter to see others)` : ''}.</p>
        ${filterForm(gateway, status, operation)}
        ${rows.length === 0 ? html`<p class="empty">No requests match.</p>` : requestTable(rows)}`,
    });
  });

  router.get('/console/requests/:requestId', requireMember('viewer'), async (ctx) => {
    const member = memberOf(ctx);
    const record = await gateway.requests.getForAccount(ctx.params.requestId, member.accountId);
    if (!record || record.createdAtMs < gateway.clock.now() - consoleLogWindowMs) return renderNotFound(ctx, 'request');
    const deliveries = await gateway.webhookStore.forRequest(record.id);
    const ledger = await gateway.ledgers.of(record);
    renderPage(ctx, {
      title: `Request ${record.id}`,
      section: 'requests',
      body: html`<p><a href="/console/requests">← Requests</a></p>
        <h1>Request <code>${record.id}</code></h1>
        <dl class="facts">
          <dt>Operation</dt><dd>${record.operation}</dd>
          <dt>Model</dt><dd>${record.model}</dd>
          <dt>Status</dt><dd>${statusBadge(record.status)}</dd>
          <dt>Credits</dt><dd>${creditsText(record.billableCredits)}${record.status === 'failed' ? ' (refunded)' : ''}</dd>
          <dt>Created</dt><dd>${timeText(record.createdAtMs)}</dd>
          <dt>Started</dt><dd>${timeText(record.startedAtMs)}</dd>
          <dt>Finished</dt><dd>${timeText(record.completedAtMs)}</dd>
          ${record.status === 'failed' ? html`<dt>Error</dt><dd class="error">${record.errorMessage ?? 'the request failed'}</dd>` : ''}
        </dl>
        ${record.dataRemovedAtMs !== null
          ? html`<p class="callout" role="note" data-purged="true">The input, output and hosted files of this request were removed on ${timeText(record.dataRemovedAtMs)}, when its retention period ended. Its status, credits and times are kept.</p>`
          : html`${outputSection(record, gateway.settings.server.public_url)}
            <h2>Input</h2><pre class="json">${JSON.stringify(record.input, null, 2)}</pre>`}
        <h2>Credit ledger</h2>
        ${ledger.length === 0 ? html`<p class="empty">This request moved no credits.</p>` : ledgerTable(ledger, { caption: 'Credit ledger of this request, oldest first', withRequest: false })}
        <h2>Webhook deliveries</h2>
        ${deliveryTable(ctx, deliveries, { canRedeliver: roleAtLeast(member.role, 'admin'), withRequest: false })}`,
    });
  });
}

/** A query parameter given once (or not at all: ''); repeated, it is undefined (invalid). */
function queryText(ctx: Context, name: string): string | undefined {
  const value = ctx.query[name];
  return Array.isArray(value) ? undefined : value ?? '';
}

function filterForm(gateway: Gateway, status: string, operation: string) {
  return html`<form method="get" action="/console/requests" class="filters" role="search" aria-label="Filter requests">
    <label for="filter-status">Status</label>
    <select id="filter-status" name="status"><option value="">any</option>${requestStatuses.map((value) => html`<option${value === status ? html` selected` : ''}>${value}</option>`)}</select>
    <label for="filter-operation">Operation</label>
    <select id="filter-operation" name="operation"><option value="">any</option>${gateway.registry.names().map((value) => html`<option${value === operation ? html` selected` : ''}>${value}</option>`)}</select>
    <button type="submit" class="button">Filter</button>
  </form>`;
}

function requestTable(rows: RequestRecord[]) {
  return html`<table>
    <caption class="visually-hidden">Requests, newest first</caption>
    <thead><tr><th scope="col">Request</th><th scope="col">Operation</th><th scope="col">Model</th><th scope="col">Status</th><th scope="col" class="number">Credits</th><th scope="col">Created</th></tr></thead>
    <tbody>${rows.map((row) => html`<tr data-request-id="${row.id}">
      <th scope="row"><a href="/console/requests/${encodeURIComponent(row.id)}"><code>${row.id}</code></a></th>
      <td>${row.operation}</td>
      <td>${row.model}</td>
      <td>${statusBadge(row.status)}${row.dataRemovedAtMs !== null ? html` <span class="badge">purged</span>` : ''}</td>
      <td class="number">${creditsText(row.billableCredits)}</td>
      <td>${timeText(row.createdAtMs)}</td>
    </tr>`)}</tbody>
  </table>`;
}

function statusBadge(status: RequestStatus) {
  return html`<span class="badge state-${status}">${status}</span>`;
}

function outputSection(record: RequestRecord, publicUrl: string) {
  const media = hostedMedia(record.output, publicUrl);
  const prompt = record.input?.prompt;
  const subject = typeof prompt === 'string' && prompt.trim() ? `“${prompt.trim().slice(0, 200)}”` : `${record.operation} output`;
  return html`${media.length > 0 ? html`<h2>Media</h2>${mediaPreviews(media, subject)}` : ''}
    <h2>Output</h2>${record.output ? html`<pre class="json">${JSON.stringify(record.output, null, 2)}</pre>` : html`<p class="empty">No output yet.</p>`}`;
}
