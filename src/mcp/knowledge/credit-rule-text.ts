/**
 * A manifest's declarative credit rule in words, for people and models: the same terms `priceRequest` applies,
 * in the same order, so the explanation cannot drift from the price.
 */
import type { CreditRule } from '../../kernel/manifests/index.js';

export function describeCreditRule(rule: CreditRule): string[] {
  const lines = [`Start from ${rule.base} credit${rule.base === 1 ? '' : 's'}.`];
  for (const term of rule.per ?? []) {
    const measured = term.measure === 'length' ? `each item of \`${term.field}\`` : `each unit of \`${term.field}\``;
    lines.push(`Add ${term.rate} for ${measured}${term.default === undefined ? '' : ` (${term.default} when absent)`}.`);
  }
  for (const term of rule.multiply ?? []) {
    if (term.numeric) {
      lines.push(`Multiply by the value of \`${term.field}\` (${term.default} when absent).`);
    } else {
      const factors = Object.entries(term.map ?? {}).map(([value, factor]) => `${value} ×${factor}`);
      lines.push(`Multiply by \`${term.field}\`: ${factors.join(', ')}; any other or no value ×${term.default}.`);
    }
  }
  lines.push('Round up to a whole credit.');
  if (rule.min !== undefined) lines.push(`Charge at least ${rule.min}.`);
  if (rule.max !== undefined) lines.push(`Charge at most ${rule.max}.`);
  if (rule.settle) {
    const replaced = Object.entries(rule.settle.replace).map(([field, measure]) => `\`${field}\` replaced by the measured \`${measure}\``);
    lines.push(`When the request succeeds, price it again by these steps with ${replaced.join(' and ')}: the difference is refunded, or charged if the balance allows.`);
  }
  return lines;
}
