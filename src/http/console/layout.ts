/**
 * The console's page frame: the document head, the top bar (navigation, account switcher, sign-out) and the
 * headers every console page carries — never cached, never framed (clickjacking), a Content-Security-Policy
 * that allows no inline script or style (the console works without JavaScript; the stylesheet is a file).
 */
import type { Context } from 'koa';
import type { ConsolePage, ConsoleState } from './console-context.js';
import { html, trustedHtml, type SafeHtml } from './html.js';

// `page.body` as a plain string is trusted markup by contract (ConsolePage), inserted as is like SafeHtml.

const navigation: { section: NonNullable<ConsolePage['section']>; href: string; label: string }[] = [
  { section: 'requests', href: '/console/requests', label: 'Requests' },
  { section: 'workspaces', href: '/console/workspaces', label: 'Workspaces' },
  { section: 'keys', href: '/console/keys', label: 'API keys' },
  { section: 'credits', href: '/console/credits', label: 'Credits' },
  { section: 'webhooks', href: '/console/webhooks', label: 'Webhooks' },
  { section: 'apps', href: '/console/apps', label: 'Linked apps' },
  { section: 'account', href: '/console/account', label: 'Account' },
];

// Media previews may point at hosted files on an object store's own host (https), hence `https:` for media.
const contentSecurityPolicy = "default-src 'self'; img-src 'self' data: https:; media-src 'self' https:; style-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

export function renderPage(ctx: Context, page: ConsolePage): void {
  const state = ctx.state.console as ConsoleState | undefined;
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Content-Security-Policy', contentSecurityPolicy);
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'same-origin');
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title} · mediagate console</title>
<link rel="stylesheet" href="/console/assets/console.css">
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="topbar">
<a class="brand" href="/console">mediagate <span class="brand-sub">console</span></a>
${state?.userId ? signedInBar(ctx, state, page) : ''}
</header>
<main id="main" tabindex="-1">
${typeof page.body === 'string' ? trustedHtml(page.body) : page.body}
</main>
</body>
</html>
`.toString();
}

function signedInBar(ctx: Context, state: ConsoleState, page: ConsolePage): SafeHtml {
  const csrf = html`<input type="hidden" name="_csrf" value="${state.csrfToken}">`;
  const returnTo = html`<input type="hidden" name="return_to" value="${ctx.method === 'GET' ? ctx.originalUrl : '/console'}">`;
  return html`<nav aria-label="Console">
<ul class="nav">
${navigation.map((item) => html`<li><a href="${item.href}"${item.section === page.section ? html` aria-current="page"` : ''}>${item.label}</a></li>`)}
</ul>
</nav>
<div class="session">
${state.memberships.length > 1
  ? html`<form method="post" action="/console/account" class="account-switcher">${csrf}${returnTo}
<label for="account-switch" class="visually-hidden">Account</label>
<select id="account-switch" name="account_id">
${state.memberships.map((member) => html`<option value="${member.accountId}"${member.accountId === state.member?.accountId ? html` selected` : ''}>${member.accountId} (${member.role})</option>`)}
</select>
<button type="submit" class="button">Switch</button>
</form>`
  : state.member
    ? html`<span class="muted">${state.member.accountId} (${state.member.role})</span>`
    : ''}
<span class="user">${state.email}</span>
<form method="post" action="/console/logout" class="inline-form">${csrf}<button type="submit" class="button">Sign out</button></form>
</div>`;
}
