/**
 * API keys: the account's keys with prefix, scopes and last use; create (name + scopes, the secret shown once
 * on the page the create redirects to); revoke. Developers and up manage keys; viewers read the list.
 */
import type { Router } from '@koa/router';
import type { Context } from 'koa';
import { roleAtLeast } from '../../../kernel/accounts/members.js';
import type { Gateway } from '../../../kernel/gateway.js';
import { allScopes, type ApiKeyRecord, type Scope } from '../../../kernel/store/index.js';
import { html } from '../html.js';
import { renderPage } from '../layout.js';
import { requireMember } from '../require-member.js';
import { createdPagePath, handOverSecret, takeSecret } from './new-key-secret.js';
import { actionButton, csrfField, fieldError, formList, formText, memberOf, renderNotFound, timeText } from './page-kit.js';

const maxNameLength = 100;

const scopeDescriptions: Record<Scope, string> = {
  'requests:read': 'read requests, their outputs and webhook deliveries',
  'requests:write': 'create and cancel requests (spends credits), manage the webhook secret',
};

export function addKeysPages(router: Router, gateway: Gateway): void {
  const secureCookies = gateway.settings.server.public_url.startsWith('https:');

  router.get('/console/keys', requireMember('viewer'), async (ctx) => {
    await renderKeysPage(ctx, gateway);
  });

  router.post('/console/keys', requireMember('developer'), async (ctx) => {
    const member = memberOf(ctx);
    const name = formText(ctx, 'name')?.trim();
    const scopes = formList(ctx, 'scopes');
    const unknown = scopes.find((scope) => !allScopes.includes(scope as Scope));
    const problem =
      name === undefined || name === '' || name.length > maxNameLength
        ? { field: 'name', message: `give the key a name of 1 to ${maxNameLength} characters` }
        : scopes.length === 0 || unknown !== undefined
          ? { field: 'scopes', message: unknown ? `unknown scope ${unknown}; known scopes: ${allScopes.join(', ')}` : 'pick at least one scope' }
          : undefined;
    if (problem) {
      ctx.status = 422;
      await renderKeysPage(ctx, gateway, { ...problem, name: name ?? '' });
      ctx.status = 422;
      return;
    }
    const { plaintext, record } = await gateway.apiKeys.create(member.accountId, name!, [...new Set(scopes)] as Scope[]);
    gateway.log.info({ accountId: member.accountId, userId: member.userId, apiKeyId: record.id }, 'API key created in the console');
    handOverSecret(ctx, record.id, plaintext, secureCookies);
    ctx.status = 303;
    ctx.redirect(createdPagePath(record.id));
  });

  router.get('/console/keys/:keyId/created', requireMember('developer'), async (ctx) => {
    const member = memberOf(ctx);
    const key = await gateway.accounts.getApiKeyOfAccount(ctx.params.keyId, member.accountId);
    if (!key) return renderNotFound(ctx, 'API key');
    const secret = takeSecret(ctx, key.id, secureCookies);
    const shown = secret !== undefined && (await gateway.apiKeys.matchesKey(secret, member.accountId, key.id));
    renderPage(ctx, {
      title: `Key ${key.name} created`,
      section: 'keys',
      body: html`<h1>Key “${key.name}” created</h1>
        ${shown
          ? html`<div class="callout" role="status">
              <p><strong>Copy this secret now.</strong> It is shown only this once; mediagate stores only its hash.</p>
              <p><label for="new-key-secret">Secret of ${key.name}</label></p>
              <input id="new-key-secret" class="secret" type="text" readonly value="${secret}" size="40" spellcheck="false" autocomplete="off">
            </div>`
          : html`<p class="callout" role="status" data-secret="gone">The secret of this key was shown once, when it was created, and cannot be shown again. If you lost it, revoke the key and create a new one.</p>`}
        <p>Prefix <code>${key.keyPrefix}</code>, scopes ${key.scopes.join(', ')}.</p>
        <p><a href="/console/keys">Back to API keys</a></p>`,
    });
  });

  router.post('/console/keys/:keyId/revoke', requireMember('developer'), async (ctx) => {
    const member = memberOf(ctx);
    const key = await gateway.accounts.getApiKeyOfAccount(ctx.params.keyId, member.accountId);
    if (!key || (await gateway.oauth.links.keyIdsOfAccount(member.accountId)).has(key.id)) return renderNotFound(ctx, 'API key');
    if (await gateway.apiKeys.revokeOfAccount(member.accountId, key.id)) {
      gateway.log.info({ accountId: member.accountId, userId: member.userId, apiKeyId: key.id }, 'API key revoked in the console');
    }
    ctx.status = 303;
    ctx.redirect('/console/keys');
  });
}

async function renderKeysPage(ctx: Context, gateway: Gateway, rejected?: { field: string; message: string; name: string }): Promise<void> {
  const member = memberOf(ctx);
  // A linked application's key is managed with its link (Linked apps), so it is not listed here.
  const linked = await gateway.oauth.links.keyIdsOfAccount(member.accountId);
  const keys = (await gateway.apiKeys.listOfAccount(member.accountId)).filter((key) => !linked.has(key.id));
  const canManage = roleAtLeast(member.role, 'developer');
  renderPage(ctx, {
    title: 'API keys',
    section: 'keys',
    body: html`<h1>API keys</h1>
      <p class="lead">Keys call the REST API and the MCP server as this account. A key's secret is shown once, when it is created.</p>
      ${canManage ? createForm(ctx, rejected) : ''}
      <h2>Keys of this account</h2>
      ${keys.length === 0 ? html`<p class="empty">No keys yet.</p>` : keyTable(ctx, keys, canManage)}`,
  });
}

function createForm(ctx: Context, rejected?: { field: string; message: string; name: string }) {
  const checked = rejected ? new Set(formList(ctx, 'scopes')) : new Set<string>(allScopes);
  return html`<form method="post" action="/console/keys" class="card" aria-labelledby="create-key-heading">
    <h2 id="create-key-heading">Create a key</h2>
    ${rejected ? fieldError(rejected.field, rejected.message) : ''}
    ${csrfField(ctx)}
    <p><label for="key-name">Name</label>
    <input id="key-name" name="name" type="text" required maxlength="${maxNameLength}" value="${rejected?.name ?? ''}" placeholder="e.g. production server"></p>
    <fieldset><legend>Scopes</legend>
      ${allScopes.map((scope) => html`<p><label><input type="checkbox" name="scopes" value="${scope}"${checked.has(scope) ? html` checked` : ''}> <code>${scope}</code> — ${scopeDescriptions[scope]}</label></p>`)}
    </fieldset>
    <p><button type="submit" class="button primary">Create key</button></p>
  </form>`;
}

function keyTable(ctx: Context, keys: ApiKeyRecord[], canManage: boolean) {
  return html`<table>
    <caption class="visually-hidden">API keys, newest first</caption>
    <thead><tr><th scope="col">Name</th><th scope="col">Prefix</th><th scope="col">Scopes</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th>${canManage ? html`<th scope="col"><span class="visually-hidden">Actions</span></th>` : ''}</tr></thead>
    <tbody>${keys.map((key) => html`<tr data-key-id="${key.id}">
      <th scope="row" id="key-${key.id}">${key.name}</th>
      <td><code>${key.keyPrefix}…</code></td>
      <td>${key.scopes.join(', ')}</td>
      <td>${timeText(key.createdAtMs)}</td>
      <td>${key.lastUsedAtMs === null ? html`<span class="muted">never</span>` : timeText(key.lastUsedAtMs)}</td>
      <td>${key.revokedAtMs === null ? html`<span class="badge ok">active</span>` : html`<span class="badge">revoked</span> ${timeText(key.revokedAtMs)}`}</td>
      ${canManage ? html`<td>${key.revokedAtMs === null ? actionButton(ctx, `/console/keys/${encodeURIComponent(key.id)}/revoke`, 'Revoke', { danger: true, describedBy: `key-${key.id}` }) : ''}</td>` : ''}
    </tr>`)}</tbody>
  </table>`;
}
