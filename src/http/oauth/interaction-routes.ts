/**
 * The authorization server's login and consent steps as console pages. Login is the console's own sign-in:
 * without a console session the browser goes to `/console/login?return_to=<this interaction>` and comes back.
 * Consent shows the client, where it sends the browser back and the scopes, and lets the member pick the
 * account; approving records the grant and the link (with its request-owning key) before the provider resumes.
 */
import type { Router } from '@koa/router';
import type { Context } from 'koa';
import type Provider from 'oidc-provider';
import { roleAtLeast, type Member } from '../../kernel/accounts/members.js';
import type { Gateway } from '../../kernel/gateway.js';
import { parseOAuthScopes, type OAuthScope } from '../../kernel/oauth/index.js';
import { consoleSession } from '../console/console-session.js';
import { csrfProtection } from '../console/csrf.js';
import { html } from '../console/html.js';
import { renderPage } from '../console/layout.js';
import { consentPage, type ConsentView } from '../console/pages/consent-page.js';
import { consoleState, formText, noStore } from '../console/pages/page-kit.js';
import { interactionPath } from './authorization-server.js';
import { isLoopbackRedirect } from './redirect-uri-policy.js';

type InteractionDetails = Awaited<ReturnType<Provider['interactionDetails']>>;

/** Scopes a member of each role may hand to an application: viewers only read, as in the console. */
function roleMayGrant(member: Member, scope: OAuthScope): boolean {
  return scope.endsWith(':read') || roleAtLeast(member.role, 'developer');
}

export function addInteractionRoutes(router: Router, gateway: Gateway, providerOf: () => Promise<Provider>): void {
  const session = consoleSession(gateway);

  router.get('/oauth/interaction/:uid', session, async (ctx) => {
    noStore(ctx);
    const provider = await providerOf();
    const details = await interactionOf(ctx, provider);
    if (!details) return;
    const userId = consoleState(ctx).userId;
    if (!userId) {
      ctx.redirect(`/console/login?return_to=${encodeURIComponent(interactionPath(details.uid))}`);
      return;
    }
    // The console session is who signs in: the provider's own session follows it (also after a switch of user).
    if (details.prompt.name === 'login' || details.session?.accountId !== userId) {
      ctx.redirect(await provider.interactionResult(ctx.req, ctx.res, { login: { accountId: userId } }, { mergeWithLastSubmission: false }));
      return;
    }
    renderPage(ctx, consentPage(await consentView(ctx, gateway, provider, details)));
  });

  router.post('/oauth/interaction/:uid/consent', session, csrfProtection(), async (ctx) => {
    noStore(ctx);
    const provider = await providerOf();
    const details = await interactionOf(ctx, provider);
    if (!details) return;
    const state = consoleState(ctx);
    if (!state.userId || details.prompt.name !== 'consent' || details.session?.accountId !== state.userId) {
      renderInteractionProblem(ctx, 400, 'this sign-in step has changed; start the connection from the application again');
      return;
    }
    if (formText(ctx, 'decision') === 'deny') {
      ctx.redirect(await provider.interactionResult(ctx.req, ctx.res, { error: 'access_denied', error_description: 'the member denied the request' }, { mergeWithLastSubmission: false }));
      return;
    }
    const scopes = parseOAuthScopes(String(details.params.scope ?? ''));
    const member = state.memberships.find((candidate) => candidate.accountId === formText(ctx, 'account_id'));
    const refusal = !member
      ? 'pick one of your accounts'
      : scopes.filter((scope) => !roleMayGrant(member, scope)).map((scope) => `your role (${member.role}) in this account cannot approve ${scope}`)[0];
    if (!member || refusal) {
      ctx.status = 422;
      renderPage(ctx, consentPage({ ...(await consentView(ctx, gateway, provider, details)), problem: { field: 'account_id', message: refusal ?? 'pick one of your accounts' } }));
      ctx.status = 422;
      return;
    }
    const grantId = await saveGrant(gateway, provider, details, member, scopes);
    ctx.redirect(await provider.interactionResult(ctx.req, ctx.res, { consent: { grantId } }, { mergeWithLastSubmission: true }));
  });
}

/**
 * The grant the approval extends: the session's existing one when its link is for the same account, a new one
 * otherwise. Every scope the client asked for is both an OP scope and a resource scope in oidc-provider's eyes,
 * and both must be granted or it asks for consent again.
 */
async function saveGrant(gateway: Gateway, provider: Provider, details: InteractionDetails, member: Member, scopes: OAuthScope[]): Promise<string> {
  const clientId = String(details.params.client_id);
  const existingLink = details.grantId ? await gateway.oauth.links.findByGrant(details.grantId) : undefined;
  const reuse = details.grantId && existingLink?.accountId === member.accountId && existingLink.revokedAtMs === null;
  const grant = (reuse ? await provider.Grant.find(details.grantId!) : undefined) ?? new provider.Grant({ accountId: member.userId, clientId });
  const promptDetails = details.prompt.details as { missingOIDCScope?: string[] };
  const oidcScopes = (promptDetails.missingOIDCScope ?? []).filter((scope) => scope === 'openid' || scope === 'offline_access' || scopes.includes(scope as OAuthScope));
  if (oidcScopes.length > 0) grant.addOIDCScope(oidcScopes.join(' '));
  if (scopes.length > 0) grant.addResourceScope(gateway.oauth.mcpResource, scopes.join(' '));
  const grantId = await grant.save();
  const client = await provider.Client.find(clientId);
  await gateway.oauth.links.approve({
    grantId,
    accountId: member.accountId,
    userId: member.userId,
    clientId,
    clientName: client?.clientName ?? clientId,
    scopes,
    redirectUris: client?.redirectUris ?? [],
  });
  return grantId;
}

async function consentView(ctx: Context, gateway: Gateway, provider: Provider, details: InteractionDetails): Promise<ConsentView> {
  const state = consoleState(ctx);
  const client = await provider.Client.find(String(details.params.client_id));
  const redirectUri = String(details.params.redirect_uri ?? '');
  const link = details.grantId ? await gateway.oauth.links.findByGrant(details.grantId) : undefined;
  return {
    action: `${interactionPath(details.uid)}/consent`,
    csrfToken: state.csrfToken,
    clientName: client?.clientName ?? String(details.params.client_id),
    redirectHost: URL.parse(redirectUri)?.host ?? redirectUri,
    redirectIsLoopback: isLoopbackRedirect(redirectUri),
    scopes: parseOAuthScopes(String(details.params.scope ?? '')),
    alreadyApproved: link && link.revokedAtMs === null ? link.scopes : [],
    accounts: state.memberships,
    selectedAccountId: link?.accountId ?? state.member?.accountId,
  };
}

/** The provider's interaction for this browser, or a 400 page when there is none (expired, another browser). */
async function interactionOf(ctx: Context, provider: Provider): Promise<InteractionDetails | undefined> {
  try {
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    if (details.uid === ctx.params.uid) return details;
  } catch {
    // SessionNotFound: no interaction cookie, or it expired.
  }
  renderInteractionProblem(ctx, 400, 'this sign-in step has expired or belongs to another browser; start the connection from the application again');
  return undefined;
}

function renderInteractionProblem(ctx: Context, status: 400, message: string): void {
  ctx.status = status;
  renderPage(ctx, { title: 'Connection expired', section: 'apps', body: html`<h1>Connection expired</h1><p class="error" role="alert" data-code="invalid_request">${message}</p>` });
  ctx.status = status;
}
