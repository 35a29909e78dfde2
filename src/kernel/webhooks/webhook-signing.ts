/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the secret is `whsec_` + base64 of random
 * bytes; the signature is base64(HMAC-SHA256(secret bytes, "<webhook-id>.<webhook-timestamp>.<body>")),
 * sent as `webhook-signature: v1,<signature>` — several, space-separated, while a rotated secret is in grace.
 */
import { createHmac, randomBytes } from 'node:crypto';

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}
