/** The webhook deliveries table, shared by a request's page and the webhooks page. */
import type { Context } from 'koa';
import type { DeliveryRecord } from '../../../kernel/webhooks/webhook-store.js';
import { html } from '../html.js';
import { actionButton, timeText } from './page-kit.js';

export function redeliverPath(deliveryId: string): string {
  return `/console/webhooks/deliveries/${encodeURIComponent(deliveryId)}/redeliver`;
}

/** `canRedeliver`: the member may re-send (admins); `withRequest`: link each row to its request. */
export function deliveryTable(ctx: Context, deliveries: DeliveryRecord[], options: { canRedeliver: boolean; withRequest: boolean }) {
  if (deliveries.length === 0) return html`<p class="empty">No webhook deliveries.</p>`;
  return html`<table>
    <caption class="visually-hidden">Webhook deliveries, newest first</caption>
    <thead><tr><th scope="col">Delivery</th>${options.withRequest ? html`<th scope="col">Request</th>` : ''}<th scope="col">Event</th><th scope="col">URL</th><th scope="col">State</th><th scope="col">Attempts</th><th scope="col">Last response</th><th scope="col">Delivered</th>${options.canRedeliver ? html`<th scope="col"><span class="visually-hidden">Actions</span></th>` : ''}</tr></thead>
    <tbody>${deliveries.map((delivery) => html`<tr data-delivery-id="${delivery.id}">
      <th scope="row" id="delivery-${delivery.id}"><code>${delivery.id}</code></th>
      ${options.withRequest ? html`<td><a href="/console/requests/${encodeURIComponent(delivery.requestId)}"><code>${delivery.requestId}</code></a></td>` : ''}
      <td>${delivery.eventType}</td>
      <td class="url">${delivery.url}</td>
      <td><span class="badge state-${delivery.state}">${delivery.state}</span></td>
      <td>${delivery.attempts}</td>
      <td>${delivery.lastStatusCode !== null ? `HTTP ${delivery.lastStatusCode}` : delivery.lastError ?? '—'}</td>
      <td>${timeText(delivery.deliveredAtMs)}</td>
      ${options.canRedeliver ? html`<td>${delivery.state === 'pending' ? html`<span class="muted">queued</span>` : actionButton(ctx, redeliverPath(delivery.id), 'Redeliver', { describedBy: `delivery-${delivery.id}`, fields: { from: options.withRequest ? 'webhooks' : 'request' } })}</td>` : ''}
    </tr>`)}</tbody>
  </table>`;
}
