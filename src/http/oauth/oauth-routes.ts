/**
 * Mounts the authorization server in the API's Koa app: its endpoints under `/oauth` and its RFC 8414 /
 * OpenID metadata at the root go to oidc-provider's own handler (it answers them completely); the login and
 * consent interaction pages are ours.
 */
import type { Router } from '@koa/router';
import type { Context } from 'koa';
import type Provider from 'oidc-provider';
import type { Gateway } from '../../kernel/gateway.js';
import { createAuthorizationServer, oauthRoutes } from './authorization-server.js';
import { addInteractionRoutes } from './interaction-routes.js';

export function addOAuthRoutes(router: Router, gateway: Gateway): void {
  // Built on the first OAuth request, once the keys are read from the store (see OAuthKernel.keys); a failed
  // read (database away) answers 503 and is tried again by the next request.
  let built: Promise<{ provider: Provider; handle: ReturnType<Provider['callback']> }> | undefined;
  const server = () => {
    built ??= gateway.oauth.keys().then(
      (keys) => {
        const provider = createAuthorizationServer(gateway, keys);
        return { provider, handle: provider.callback() };
      },
      (error: unknown) => {
        built = undefined;
        throw error;
      },
    );
    return built;
  };
  const providerPaths = [
    '/.well-known/oauth-authorization-server',
    '/.well-known/openid-configuration',
    ...Object.values(oauthRoutes).flatMap((path) => [path, `${path}/*rest`]),
  ];
  router.all(providerPaths, async (ctx: Context) => {
    // The provider writes the response itself (it is a Koa app of its own, on the same Koa major).
    const { handle } = await server();
    ctx.respond = false;
    await handle(ctx.req, ctx.res);
  });
  addInteractionRoutes(router, gateway, async () => (await server()).provider);
}
