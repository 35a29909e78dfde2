/**
 * What a succeeded request's output says about its price. Plugins report usage, never credits: the gateway writes
 * `exact_cost_credits` itself, from the manifest, on every output of an operation with a settle rule, and drops a
 * figure a plugin put there (a plugin's own arithmetic is a second price list, the thing this module exists to end).
 */
import type { CreditRule } from '../manifests/manifest-types.js';
import type { JsonObject } from '../plugin-sdk/index.js';
import { settlePrice } from './credit-rules.js';
import { readUsage } from './usage.js';

/** The request as it was quoted: the stored input (after defaults) and the credits debited at create. */
export interface Quote {
  input: JsonObject | null;
  billableCredits: number;
}

export type Settlement =
  /** `exactCost` is set when measured usage re-priced the request; the finisher then settles to it. */
  | { output: JsonObject; exactCost?: number }
  | { problem: string };

export function settleOutput(rule: CreditRule, quote: Quote, reported: JsonObject): Settlement {
  const { exact_cost_credits: _pluginFigure, ...output } = reported;
  const read = readUsage(output.usage);
  if ('problem' in read) return { problem: read.problem };
  if (!rule.settle) return { output };
  // The stored input stays until retention, which only touches finished requests; without it nothing can be re-priced.
  const exactCost = quote.input ? settlePrice(rule, quote.input, read.usage) : undefined;
  // `output` is this function's own copy (the rest above): set in place, not spread again (see toRequestRecord on spreads).
  output.exact_cost_credits = exactCost ?? quote.billableCredits;
  return { output, exactCost };
}
