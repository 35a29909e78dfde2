/** What the console's pieces (pages, the OAuth login and consent screens) use from the session layer. */
export type { ConsolePage, ConsoleState } from './console-context.js';
export { consoleSession, currentSession } from './console-session.js';
export { csrfProtection } from './csrf.js';
export { readFormBody, formField, type FormFields } from './form-body.js';
export { html, trustedHtml, escapeHtml, SafeHtml, type HtmlValue } from './html.js';
export { renderPage } from './layout.js';
export { addLoginRoutes } from './login-routes.js';
export { addAccountPage } from './account-page.js';
export { requireMember } from './require-member.js';
export { safeReturnTo } from './return-to.js';
