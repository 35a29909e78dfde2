/**
 * The OAuth 2.1 authorization server for MCP account linking: oidc-provider 9 configured for exactly what MCP
 * clients need and nothing more. Issuer = the public URL's origin (RFC 8414 metadata at the root), endpoints
 * under `/oauth`, authorization code + PKCE S256 for every client, RFC 8707 resource indicators issuing JWT
 * access tokens bound to `<public_url>/mcp`, rotating refresh tokens (a reused one revokes the grant),
 * revocation, dynamic registration limited by `redirect-uri-policy.ts`. Login and consent are console pages
 * (`interaction-routes.ts`); persistence and keys are the kernel's (`src/kernel/oauth`).
 *
 * oidc-provider 9 supports Node 22+ and prints "Unsupported runtime" on Node 20; it runs correctly there
 * (every flow of test/e2e/oauth-flow.test.ts passes). Moving the gateway to Node 22 silences it.
 */
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Gateway } from '../../kernel/gateway.js';
import { hashRedirectUris, oauthScopes, type OAuthKeyMaterial } from '../../kernel/oauth/index.js';
import { escapeHtml } from '../console/html.js';
import { redirectUriAllowed } from './redirect-uri-policy.js';

/** Where the endpoints live; the interaction pages are ours, the rest is the provider's. */
export const oauthRoutes = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  registration: '/oauth/register',
  jwks: '/oauth/jwks',
  revocation: '/oauth/revoke',
  userinfo: '/oauth/userinfo',
  end_session: '/oauth/session/end',
} as const;

export const interactionPath = (uid: string) => `/oauth/interaction/${uid}`;

export function createAuthorizationServer(gateway: Gateway, keys: OAuthKeyMaterial): Provider {
  const { oauth, settings } = gateway;
  const approvedRedirects = new Set(settings.oauth.approved_redirect_uris);
  const mcpResource = oauth.mcpResource;

  const configuration: Configuration = {
    adapter: (name: string) => oauth.models.adapterFor(name),
    jwks: { keys: keys.signingKeys },
    cookies: { keys: settings.oauth.cookie_keys.length > 0 ? settings.oauth.cookie_keys : keys.cookieKeys },
    routes: oauthRoutes,
    // `workspace:*` and `requests:*` must be known here too: MCP clients put the scope they want in their
    // registration, which is refused with scopes the provider does not list.
    scopes: ['openid', 'offline_access', ...oauthScopes],
    claims: { openid: ['sub'] },
    responseTypes: ['code'],
    pkce: { required: () => true },
    clientDefaults: { grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      // RFC 7592: a client may change its redirect URIs (through the same policy); its links then need consent again.
      registrationManagement: { enabled: true, rotateRegistrationAccessToken: true },
      // A client may revoke only its own tokens (public clients authenticate by client_id alone).
      revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => mcpResource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => {
          // The only resource we issue tokens for: a client cannot obtain a token for somewhere else.
          if (resource !== mcpResource) throw new errors.InvalidTarget();
          return {
            scope: oauthScopes.join(' '),
            audience: mcpResource,
            accessTokenTTL: settings.oauth.access_token_ttl_seconds,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
    extraClientMetadata: {
      // A property no client sends: its validator is the hook oidc-provider runs at every registration and
      // update (RFC 7592), with the whole metadata, so the redirect policy is checked there.
      properties: ['mg_redirect_policy'],
      validator(_ctx, _key, _value, metadata) {
        // A registered `scope` would cap what the client may ever ask for, and MCP clients register the scope of
        // their first 401 challenge: a later step-up to workspace scopes would be refused with invalid_scope.
        // What a client may do is decided at consent and recorded on its link, so the registered value is dropped.
        delete (metadata as { scope?: string }).scope;
        for (const uri of metadata.redirect_uris ?? []) {
          if (typeof uri !== 'string' || !redirectUriAllowed(uri, approvedRedirects)) {
            // The error's own description ("did not match any registered") fits the authorize endpoint, not this.
            throw Object.assign(new errors.InvalidRedirectUri(), { error_description: `redirect_uris: ${String(uri)} is neither a loopback callback nor on the operator's approved list` });
          }
        }
      },
    },
    // MCP clients do not ask for offline_access, and their refresh must not die with a browser session.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    expiresWithSession: async () => false,
    rotateRefreshToken: true,
    ttl: {
      AccessToken: settings.oauth.access_token_ttl_seconds,
      AuthorizationCode: 60,
      Interaction: 3600,
      Session: settings.oauth.refresh_token_ttl_seconds,
      Grant: settings.oauth.refresh_token_ttl_seconds,
      RefreshToken: settings.oauth.refresh_token_ttl_seconds,
      IdToken: 3600,
    },
    interactions: { url: (_ctx, interaction) => interactionPath(interaction.uid) },
    findAccount: async (_ctx, sub) => {
      const user = await gateway.users.get(sub);
      return user ? { accountId: user.id, claims: async () => ({ sub: user.id }) } : undefined;
    },
    // A grant counts only while its link is active and the client's redirect URIs are those that were approved.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const client = ctx.oidc.client;
      const grantId = ctx.oidc.result?.consent?.grantId ?? (client ? ctx.oidc.session?.grantIdFor(client.clientId) : undefined);
      if (!grantId || !client) return undefined;
      const link = await oauth.links.findByGrant(grantId);
      if (!link || link.revokedAtMs !== null || link.redirectUrisHash !== hashRedirectUris(client.redirectUris ?? [])) return undefined;
      return ctx.oidc.provider.Grant.find(grantId);
    },
    // The link id lets the resource server find the account and the key that owns the client's requests.
    extraTokenClaims: async (_ctx, token) => {
      const grantId = 'grantId' in token ? token.grantId : undefined;
      const link = grantId ? await oauth.links.findByGrant(grantId) : undefined;
      return link ? { mg_link: link.id } : undefined;
    },
    renderError: async (ctx, out) => {
      ctx.type = 'text/html; charset=utf-8';
      const description = String(out.error_description ?? 'the request could not be completed');
      ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Authorization failed</title></head><body><main><h1>Authorization failed</h1><p data-code="${escapeHtml(String(out.error))}">${escapeHtml(String(out.error))}: ${escapeHtml(description)}</p></main></body></html>`;
    },
  };

  const provider = new Provider(oauth.issuer, configuration);
  // Behind the same proxies as the API: trust X-Forwarded-Proto for the https decision and secure cookies.
  provider.proxy = true;
  provider.on('server_error', (_ctx, error) => gateway.log.error({ err: error }, 'authorization server error'));
  provider.on('grant.revoked', (_ctx, grantId) => gateway.log.info({ grantId }, 'OAuth grant revoked'));
  return provider;
}
