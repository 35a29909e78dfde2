/**
 * Where a BFL task is polled, and so where our key may go.
 *
 * BFL answers a submission with `polling_url` on the cluster that took the task (`https://api.eu2.bfl.ai/v1/
 * get_result?id=...`), a host other than the one we posted to, and asks clients to poll exactly that URL: "do
 * not rebuild it or swap the host yourself" (https://help.bfl.ai/articles/9532536301-which-api-endpoint-should-i-use;
 * https://docs.bfl.ai/api_integration/integration_guidelines, "Polling URL Usage").
 *
 * The URL is vendor data and the poll carries `x-key`, so it is followed only where the key may go:
 * - under the configured `base_url` itself (same origin and path prefix: BFL's own host, or a proxy that hands
 *   out its own polling URLs);
 * - while `base_url` is a BFL host, any https host under bfl.ai (BFL's clusters; their names change).
 * Anything else, in particular a BFL cluster URL seen through a proxy whose `base_url` holds the proxy's key, is
 * not followed: the task is polled at `v1/get_result?id=` under `base_url` (the documented lookup by id), so the
 * key never reaches a host the operator did not configure. These calls use the vendor client like every call to
 * `base_url` (the operator's choice, not the public-address guard); the image itself is fetched by
 * `ctx.blobs.rehost`, through the guarded fetch, without the key.
 */
import type { ProviderTask, VendorRequest } from '../../src/kernel/plugin-sdk/index.js';

const BFL_DOMAIN = 'bfl.ai';

export function pollRequest(task: ProviderTask, baseUrl: string): VendorRequest {
  const pollingUrl = task.state?.polling_url;
  if (typeof pollingUrl === 'string' && mayCarryKey(pollingUrl, baseUrl)) return { path: pollingUrl };
  return { path: 'v1/get_result', query: { id: task.taskId } };
}

function mayCarryKey(candidate: string, baseUrl: string): boolean {
  const target = parse(candidate);
  const base = parse(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  if (!target || !base || target.username || target.password) return false;
  if (target.origin === base.origin && target.pathname.startsWith(base.pathname)) return true;
  return isBflHost(base) && isBflHost(target) && target.protocol === 'https:' && target.port === '';
}

function isBflHost(url: URL): boolean {
  return url.hostname === BFL_DOMAIN || url.hostname.endsWith(`.${BFL_DOMAIN}`);
}

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}
