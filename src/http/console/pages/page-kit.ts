/**
 * What every console page of this folder shares: the member the page acts for, the CSRF field of its forms,
 * how times and credits read, the 404 and 400 pages. Kept apart so each page module is only its own page.
 */
import type { Context } from 'koa';
import type { Member } from '../../../kernel/accounts/members.js';
import type { ConsoleState } from '../console-context.js';
import { formField, type FormFields } from '../form-body.js';
import { html } from '../html.js';
import { renderPage } from '../layout.js';

/** How far back the request log and the deliveries list reach (the spec's "last 7 days"). */
export const consoleLogWindowMs = 7 * 24 * 60 * 60 * 1000;

export function consoleState(ctx: Context): ConsoleState {
  return ctx.state.console as ConsoleState;
}

/** The member a page acts for; `requireMember` ran before every page, so there is one. */
export function memberOf(ctx: Context): Member {
  const member = consoleState(ctx).member;
  if (!member) throw new Error('console page mounted without requireMember');
  return member;
}

/** The hidden field every POST form carries (checked by csrfProtection). */
export function csrfField(ctx: Context) {
  return html`<input type="hidden" name="_csrf" value="${consoleState(ctx).csrfToken}">`;
}

/** A POST form of one button (revoke, rotate, redeliver): works without JavaScript. */
export function actionButton(ctx: Context, action: string, label: string, options: { danger?: boolean; describedBy?: string; fields?: Record<string, string> } = {}) {
  const fields = Object.entries(options.fields ?? {}).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);
  return html`<form method="post" action="${action}" class="inline-form">${csrfField(ctx)}${fields}<button type="submit" class="${options.danger ? 'button danger' : 'button'}"${options.describedBy ? html` aria-describedby="${options.describedBy}"` : ''}>${label}</button></form>`;
}

/** UTC, to the second, in a <time> element machines can read too. */
export function timeText(ms: number | null | undefined) {
  if (ms === null || ms === undefined) return html`<span class="muted">—</span>`;
  const iso = new Date(ms).toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 19).replace('T', ' ')} UTC</time>`;
}

export function creditsText(amount: number): string {
  return new Intl.NumberFormat('en-US').format(amount);
}

/** Another account's object, or none: the same 404 either way, so ids reveal nothing. */
export function renderNotFound(ctx: Context, what: string): void {
  ctx.status = 404;
  renderPage(ctx, { title: 'Not found', body: html`<h1>Not found</h1><p>There is no ${what} with this id in this account.</p>` });
  ctx.status = 404;
}

/**
 * Bad form or query input: a 4xx page naming the machine-readable code and the failing field, as the API's
 * problem details do (`data-code` / `data-field` let scripts and tests read them).
 */
export function renderBadInput(ctx: Context, status: 400 | 422, field: string, message: string): void {
  ctx.status = status;
  renderPage(ctx, {
    title: 'Invalid input',
    body: html`<h1>Invalid input</h1>${fieldError(field, message)}<p><a href="${ctx.path}">Back</a></p>`,
  });
  ctx.status = status;
}

export function fieldError(field: string, message: string) {
  return html`<p class="error" role="alert" data-code="MG_VALIDATION_FAILED" data-field="${field}"><strong>${field}</strong>: ${message}</p>`;
}

/** Console pages carry account data and CSRF tokens: never cached by the browser or a proxy. */
export function noStore(ctx: Context): void {
  ctx.set('Cache-Control', 'no-store');
}

/** The parsed form of a POST: csrfProtection read it (with `readFormBody`) to check `_csrf`. */
function formOf(ctx: Context): FormFields {
  return (ctx.request as { body?: FormFields }).body ?? {};
}

/** Every value of a repeated field (checkbox groups). */
export function formList(ctx: Context, name: string): string[] {
  const value = formOf(ctx)[name];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** One text field of the form; undefined when it is missing or repeated. */
export function formText(ctx: Context, name: string): string | undefined {
  return formField(formOf(ctx), name);
}
