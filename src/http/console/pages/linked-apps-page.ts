/**
 * Linked apps: the MCP applications members connected to this account through OAuth, with what each may do,
 * when it was linked and last used; revoking one ends its grant and every token at once. Everyone in the
 * account sees the list; developers and up revoke (as with API keys).
 */
import type { Router } from '@koa/router';
import type { Context } from 'koa';
import { roleAtLeast } from '../../../kernel/accounts/members.js';
import type { Gateway } from '../../../kernel/gateway.js';
import { revokeLinkOfAccount, type OAuthLink } from '../../../kernel/oauth/index.js';
import { html } from '../html.js';
import { renderPage } from '../layout.js';
import { requireMember } from '../require-member.js';
import { actionButton, memberOf, noStore, renderNotFound, timeText } from './page-kit.js';

export function addOAuthConsoleRoutes(router: Router, gateway: Gateway): void {
  router.get('/console/apps', requireMember('viewer'), async (ctx) => {
    noStore(ctx);
    const links = await gateway.oauth.links.listForAccount(memberOf(ctx).accountId);
    renderPage(ctx, { title: 'Linked apps', section: 'apps', body: linkedAppsBody(ctx, links, ctx.query.revoked === '1') });
  });

  router.post('/console/apps/:linkId/revoke', requireMember('developer'), async (ctx) => {
    const member = memberOf(ctx);
    // Another account's link and no link read the same: 404, so ids reveal nothing.
    if (!(await revokeLinkOfAccount(gateway.oauth, ctx.params.linkId, member.accountId))) return renderNotFound(ctx, 'linked app');
    gateway.log.info({ accountId: member.accountId, userId: member.userId, linkId: ctx.params.linkId }, 'linked app revoked in the console');
    ctx.status = 303;
    ctx.redirect('/console/apps?revoked=1');
  });
}

function linkedAppsBody(ctx: Context, links: readonly OAuthLink[], revoked: boolean) {
  const canRevoke = roleAtLeast(memberOf(ctx).role, 'developer');
  const rows = links.map(
    (link) => html`<tr>
<th scope="row">${link.clientName}</th>
<td>${link.scopes.map((scope, index) => html`${index > 0 ? ', ' : ''}<code>${scope}</code>`)}</td>
<td>${timeText(link.createdAtMs)}</td>
<td>${timeText(link.lastUsedAtMs)}</td>
${canRevoke ? html`<td>${actionButton(ctx, `/console/apps/${link.id}/revoke`, 'Revoke', { danger: true })}</td>` : ''}
</tr>`,
  );
  return html`<h1>Linked apps</h1>
${revoked ? html`<p class="notice" role="status">The app was disconnected: its tokens no longer work.</p>` : ''}
<p>MCP applications connected to this account with OAuth. Their requests appear in the request log under the key named after the app.</p>
${
  links.length === 0
    ? html`<p class="empty">No app is linked. Connect one from an MCP client (it opens this console to ask for your approval).</p>`
    : html`<table>
<caption class="visually-hidden">Linked apps</caption>
<thead><tr><th scope="col">App</th><th scope="col">Scopes</th><th scope="col">Linked</th><th scope="col">Last used</th>${canRevoke ? html`<th scope="col"><span class="visually-hidden">Actions</span></th>` : ''}</tr></thead>
<tbody>${rows}</tbody>
</table>`
}`;
}
