/**
 * The console under `/console`: the session (who is signed in, in which account) and the CSRF check in front
 * of every console path, then sign-in/out and the account page, the account's pages, and the linked MCP applications. The OAuth login and
 * consent screens live under `/oauth/interaction` (src/http/oauth) and bring their own session middleware.
 * Each piece adds its own routes; this file is only the order they are mounted in.
 */
import type { Router } from '@koa/router';
import type { Gateway } from '../../kernel/gateway.js';
import { addAccountPage, addLoginRoutes, consoleSession, csrfProtection } from './index.js';
import { addCreditsPage } from './pages/credits-page.js';
import { addKeysPages } from './pages/keys-page.js';
import { addOAuthConsoleRoutes } from './pages/linked-apps-page.js';
import { addProjectPage } from './pages/project-page.js';
import { addRequestsPages } from './pages/requests-page.js';
import { addWebhooksPages } from './pages/webhooks-page.js';
import { addWorkspacesPages } from './pages/workspaces-page.js';
import { addWorldPage } from './pages/world-page.js';

export function addConsoleRoutes(router: Router, gateway: Gateway): void {
  // Both are idempotent per request, so routes that also list them (the sign-in pages) run them once.
  router.use('/console', consoleSession(gateway), csrfProtection());
  addLoginRoutes(router, gateway);
  addAccountPage(router, gateway);
  router.get('/console', (ctx) => {
    ctx.status = 303;
    ctx.redirect('/console/requests');
  });
  addRequestsPages(router, gateway);
  addKeysPages(router, gateway);
  addCreditsPage(router, gateway);
  addWebhooksPages(router, gateway);
  addOAuthConsoleRoutes(router, gateway);
  addWorkspacesPages(router, gateway);
  addProjectPage(router, gateway);
  addWorldPage(router, gateway);
}
