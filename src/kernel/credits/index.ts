export { priceRequest, settlePrice } from './credit-rules.js';
export { settleOutput, type Quote, type Settlement } from './settlement.js';
export { readUsage, usageMeasures, type Usage, type UsageMeasure } from './usage.js';
export { retiredPricingSetting } from './pricing-settings.js';
export { RequestLedgers } from './request-ledgers.js';
