/**
 * What a `webhook_url` must look like, checked when it is given (create, test send), so a bad one is a 422 on
 * the field rather than a failed delivery days later. Where it may point (public addresses only) is the
 * guarded fetch's business at delivery time, as for every other outbound URL.
 */
import { outboundUrlShape } from '../plugin-sdk/guarded-fetch.js';
import { OutboundAllowList } from '../plugin-sdk/outbound-address-policy.js';

export interface UrlGuardSettings {
  require_https: boolean;
  /** `outbound.allow_hosts`: allow-listed hosts may use plain http even where https is required. */
  allow_hosts: string[];
}

/** The rules for one configuration, built once (the allow-list is parsed at start, not per create). */
export class WebhookUrlRules {
  private readonly allowList: OutboundAllowList;

  constructor(private readonly settings: UrlGuardSettings) {
    this.allowList = new OutboundAllowList(settings.allow_hosts);
  }

  /** The problem with a webhook URL, phrased to follow the field name ("webhook_url must use https"), or undefined. */
  problem(url: string): string | undefined {
    const shape = outboundUrlShape(url);
    // `http://`, `http://:80/`, a port above 65535, an IPv6 zone id: the URL parser refuses them.
    if (shape.refusal === 'invalid') return 'is not a valid URL';
    if (shape.refusal === 'scheme') return 'must be an http(s) URL';
    if (shape.refusal === 'credentials') return 'must not contain credentials';
    if (this.settings.require_https && shape.url.protocol !== 'https:' && !this.allowList.allowsHost(shape.url.hostname)) return 'must use https';
    return undefined;
  }
}
