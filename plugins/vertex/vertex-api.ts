/**
 * Calls to the Vertex AI API as the configured service account: the access token in `Authorization: Bearer`,
 * Google's error body read for the client's message, and one resend with a fresh token when the API answers 401.
 */
import type { VendorRequest, VendorResponse } from '../../src/kernel/plugin-sdk/index.js';
import { describeGoogleApiError, ProviderError } from '../../src/kernel/plugin-sdk/index.js';
import { accessToken, forgetAccessToken } from './service-account.js';
import { DEFAULT_TIMEOUT_MS, PROVIDER_ID, vertexBaseUrl, type VertexContext } from './vertex-config.js';

function send<T>(ctx: VertexContext, token: string, request: VendorRequest): Promise<VendorResponse<T>> {
  return ctx
    .http({ provider: PROVIDER_ID, baseUrl: vertexBaseUrl(ctx.config), headers: { authorization: `Bearer ${token}` }, timeoutMs: ctx.config.timeout_ms ?? DEFAULT_TIMEOUT_MS, describeError: describeGoogleApiError })
    .request<T>(request);
}

/**
 * One Vertex AI call. A 401 means the API no longer takes our token (revoked, or expired sooner than our clock
 * says) and refused the request before doing anything, so sending it once more with a fresh token cannot make
 * a second job; a second 401 is a real credentials problem and fails the request.
 */
export async function vertexRequest<T = unknown>(ctx: VertexContext, request: VendorRequest): Promise<VendorResponse<T>> {
  const token = await accessToken(ctx);
  try {
    return await send<T>(ctx, token, request);
  } catch (error) {
    if (!ProviderError.is(error) || error.details.vendorStatus !== 401) throw error;
    ctx.log.info('vertex refused the access token; exchanging a new one and sending the call again');
    forgetAccessToken(ctx, token);
    return send<T>(ctx, await accessToken(ctx), request);
  }
}
