export { WebhookStore, type DeliveryRecord, type DueDelivery, type DeliveryState, type AttemptRecord } from './webhook-store.js';
export { WebhookSecrets } from './webhook-secrets.js';
export { WebhookDeliverer, type WebhookSettings, type AttemptResult } from './webhook-deliverer.js';
export { signWebhook, newWebhookSecret } from './webhook-signing.js';
export { WebhookUrlRules, type UrlGuardSettings } from './url-guard.js';
