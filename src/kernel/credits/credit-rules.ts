/**
 * Prices a request from its manifest's declarative credit rule. Pure and synchronous: it runs on the
 * create path before any write, and again for estimates, so it must agree with itself exactly.
 *   credits = clamp(ceil((base + Σ per) × Π multiply), min, max)
 * The settled price of a finished request is the same rule over the same input, with the fields its settle rule
 * names replaced by the measured usage: one formula, so the quote and the settlement cannot disagree.
 */
import type { CreditRule } from '../manifests/manifest-types.js';
import { readPath } from '../manifests/read-path.js';
import type { Usage } from './usage.js';

export function priceRequest(rule: CreditRule, input: Record<string, unknown>): number {
  let subtotal = rule.base;
  for (const term of rule.per ?? []) {
    const raw = readPath(input, term.field);
    const amount = term.measure === 'length' ? (Array.isArray(raw) ? raw.length : term.default ?? 0) : toNumber(raw) ?? term.default ?? 0;
    subtotal += term.rate * amount;
  }
  let factor = 1;
  for (const term of rule.multiply ?? []) {
    const raw = readPath(input, term.field);
    if (term.numeric) factor *= toNumber(raw) ?? term.default;
    else factor *= raw !== undefined && term.map && String(raw) in term.map ? term.map[String(raw)] : term.default;
  }
  // Round away floating-point noise before ceil: 0.1 * 30 must cost 3, not 4.
  let credits = Math.ceil(Number((subtotal * factor).toFixed(6)));
  if (rule.min !== undefined) credits = Math.max(rule.min, credits);
  if (rule.max !== undefined) credits = Math.min(rule.max, credits);
  return Math.max(0, credits);
}

/**
 * The price of a finished request from what was measured: `input` with each field of `rule.settle.replace` set to
 * its measure, priced by `rule`. Undefined when the rule settles nothing or no measure it names was reported (the
 * quote stands: nothing was learnt).
 */
export function settlePrice(rule: CreditRule, input: Record<string, unknown>, usage: Usage): number | undefined {
  const replacements = Object.entries(rule.settle?.replace ?? {}).filter(([, measure]) => usage[measure] !== undefined);
  if (replacements.length === 0) return undefined;
  // Replaced fields are top-level input fields (the meta-schema allows no dot path there).
  const measured = { ...input, ...Object.fromEntries(replacements.map(([field, measure]) => [field, usage[measure]])) };
  return priceRequest(rule, measured);
}

function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  return undefined;
}
