/**
 * Plugins have no pricing settings: a price lives only in the operation manifests. Earlier plugins had their own
 * (`credits_per_second`, `credits_per_topaz_credit`, `upscale_credits_per_second`, `minimum_credits`), and a
 * configuration that still sets one must stop the start saying where prices went, not with a bare "unknown
 * setting" that invites a look for the setting's new spelling.
 */
const pricingWord = /(^|_)credits?(_|$)/;

/** The start error for `key` at `path` (e.g. `providers.topaz.minimum_credits`) when it looks like a price. */
export function retiredPricingSetting(path: string, key: string): string | undefined {
  if (!pricingWord.test(key)) return undefined;
  return (
    `${path} is not a setting: plugins have no prices; a request is priced only by its operation manifest ` +
    '(`credits` in manifests/operations/<operation>.yaml, whose `settle` rule re-prices it from the usage the vendor measured; docs/pricing.md). Remove it.'
  );
}
