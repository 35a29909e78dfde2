/**
 * Usage: what a plugin reports of a finished job for pricing, as `output.usage`. It holds quantities the vendor
 * measured (or the plugin measured from the media itself), never credits: the price of a measure lives in the
 * manifest, whose settle rule (`credits.settle.replace`) names the priced input field each measure replaces.
 *
 * The measures are a closed list so that a misspelt measure in a plugin or a manifest fails loudly (a malformed
 * output, a manifest that does not load) instead of silently settling nothing. Add a measure here when a vendor
 * reports another quantity, with what it means.
 */
export const usageMeasures = [
  /**
   * Seconds of media the job delivered, as the vendor billed or measured them (sync.'s `outputDuration`, fal's
   * billed `duration`), or as probed from the media the job rendered.
   */
  'output_seconds',
] as const;

export type UsageMeasure = (typeof usageMeasures)[number];

/** Measured quantities of one finished job; a measure the plugin could not learn is left out. */
export type Usage = Partial<Record<UsageMeasure, number>>;

const known: ReadonlySet<string> = new Set(usageMeasures);

/** `output.usage` as reported: absent is no usage; anything but known, finite, non-negative measures is a problem. */
export function readUsage(value: unknown): { usage: Usage } | { problem: string } {
  if (value === undefined) return { usage: {} };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { problem: 'usage must be an object of measures' };
  const usage: Usage = {};
  for (const [measure, amount] of Object.entries(value)) {
    if (!known.has(measure)) return { problem: `usage.${measure} is not a known measure (${usageMeasures.join(', ')})` };
    if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0) return { problem: `usage.${measure} must be a non-negative number` };
    usage[measure as UsageMeasure] = amount;
  }
  return { usage };
}
