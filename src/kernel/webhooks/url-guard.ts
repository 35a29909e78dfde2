/**
 * What a `webhook_url` must look like, checked when it is given (create, test send), so a bad one is a 422 on
 * the field rather than a failed delivery days later. Where it may point (public addresses only) is the
 * guarded fetch's business at delivery time, as for every other outbound URL.
 */
import { OutboundAllowList } from '../plugin-sdk/outbound-address-policy.js';

export interface UrlGuardSettings {
  require_https: boolean;
  /** `outbound.allow_hosts`: allow-listed hosts may use plain http even where https is required. */
  allow_hosts: string[];
}

/** The problem with a webhook URL, phrased to follow the field name ("webhook_url must use https"), or undefined. */
export function checkWebhookScheme(url: string, settings: UrlGuardSettings): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // `http://`, `http://:80/`, a port above 65535, an IPv6 zone id: the URL parser refuses them.
    return 'is not a valid URL';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'must be an http(s) URL';
  if (parsed.username || parsed.password) return 'must not contain credentials';
  if (settings.require_https && parsed.protocol !== 'https:' && !new OutboundAllowList(settings.allow_hosts).allowsHost(parsed.hostname)) return 'must use https';
  return undefined;
}
