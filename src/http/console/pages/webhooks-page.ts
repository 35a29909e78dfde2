/**
 * Webhooks: the account's signing secret (admins see and rotate it: it lets its holder forge deliveries) and
 * the deliveries of the last 7 days, which admins can send again. Every member sees the deliveries.
 */
import type { Router } from '@koa/router';
import { roleAtLeast } from '../../../kernel/accounts/members.js';
import type { Gateway } from '../../../kernel/gateway.js';
import { html } from '../html.js';
import { renderPage } from '../layout.js';
import { requireMember } from '../require-member.js';
import { deliveryTable } from './delivery-table.js';
import { actionButton, consoleLogWindowMs, formText, memberOf, renderNotFound, timeText } from './page-kit.js';

const deliveriesShown = 100;

export function addWebhooksPages(router: Router, gateway: Gateway): void {
  const { webhookSecrets, webhookStore, clock, settings, log } = gateway;

  router.get('/console/webhooks', requireMember('viewer'), async (ctx) => {
    const member = memberOf(ctx);
    const isAdmin = roleAtLeast(member.role, 'admin');
    const deliveries = await webhookStore.recentForAccount(member.accountId, clock.now() - consoleLogWindowMs, deliveriesShown);
    const secrets = isAdmin ? await webhookStore.secretRow(member.accountId) : undefined;
    const secret = isAdmin ? secrets?.secret ?? (await webhookSecrets.current(member.accountId)) : undefined;
    const previousValidUntil = secrets?.previousSecret && (secrets.previousExpiresAtMs ?? 0) > clock.now() ? secrets.previousExpiresAtMs : null;
    renderPage(ctx, {
      title: 'Webhooks',
      section: 'webhooks',
      body: html`<h1>Webhooks</h1>
        <p class="lead">Requests created with a <code>webhook_url</code> are delivered there when they finish, signed per <a href="https://www.standardwebhooks.com/">Standard Webhooks</a> with this account's secret.</p>
        <section class="card" aria-labelledby="secret-heading">
          <h2 id="secret-heading">Signing secret</h2>
          ${secret === undefined
            ? html`<p class="muted">Only admins and owners can see and rotate the signing secret.</p>`
            : html`<details><summary>Show the secret</summary>
                <p><label for="webhook-secret">Signing secret</label></p>
                <input id="webhook-secret" class="secret" type="text" readonly value="${secret}" size="48" spellcheck="false" autocomplete="off">
              </details>
              ${previousValidUntil ? html`<p role="status">The previous secret still signs deliveries until ${timeText(previousValidUntil)}.</p>` : ''}
              <p>Rotating makes a new secret; the previous one keeps signing next to it for ${Math.round(settings.webhooks.rotation_grace_ms / 3_600_000)} hours, so receivers can switch over.</p>
              ${actionButton(ctx, '/console/webhooks/secret/rotate', 'Rotate secret')}`}
        </section>
        <h2>Deliveries of the last 7 days</h2>
        ${deliveryTable(ctx, deliveries, { canRedeliver: isAdmin, withRequest: true })}`,
    });
  });

  router.post('/console/webhooks/secret/rotate', requireMember('admin'), async (ctx) => {
    const member = memberOf(ctx);
    await webhookSecrets.rotate(member.accountId);
    log.info({ accountId: member.accountId, userId: member.userId }, 'webhook secret rotated in the console');
    ctx.status = 303;
    ctx.redirect('/console/webhooks');
  });

  router.post('/console/webhooks/deliveries/:deliveryId/redeliver', requireMember('admin'), async (ctx) => {
    const member = memberOf(ctx);
    const delivery = await webhookStore.getForAccount(ctx.params.deliveryId, member.accountId);
    if (!delivery) return renderNotFound(ctx, 'webhook delivery');
    await webhookStore.redeliver(delivery.id, clock.now());
    ctx.status = 303;
    ctx.redirect(formText(ctx, 'from') === 'request' ? `/console/requests/${encodeURIComponent(delivery.requestId)}` : '/console/webhooks');
  });
}
