/**
 * What the finisher makes of a plugin's output, priced by the product manifests: the quote of the input (after
 * its defaults, as create prices it) and the output settled by the operation's settle rule. A plugin test uses it
 * to show which price the usage its vendor reported comes to — the plugin itself never prices anything.
 */
import { join } from 'node:path';
import { projectRoot } from '../../src/kernel/config/index.js';
import { settleOutput } from '../../src/kernel/credits/index.js';
import { loadManifests, OperationRegistry } from '../../src/kernel/manifests/index.js';
import type { JsonObject } from '../../src/kernel/plugin-sdk/index.js';

let registry: Promise<OperationRegistry> | undefined;

export interface SettledPrice {
  /** Credits debited at create for this input. */
  quote: number;
  /** The re-priced credits, or undefined when the output reported no usage the rule settles on. */
  exactCost: number | undefined;
  /** The output as the request stores it (with `exact_cost_credits` for an operation with a settle rule). */
  output: JsonObject;
}

export async function settledPrice(operation: string, input: JsonObject, output: JsonObject): Promise<SettledPrice> {
  registry ??= loadManifests([join(projectRoot, 'manifests/operations')]).then((manifests) => new OperationRegistry(manifests));
  const definition = (await registry).require(operation);
  const prepared = definition.prepare(input);
  const settlement = settleOutput(definition.manifest.credits, { input: prepared.input as JsonObject, billableCredits: prepared.credits }, output);
  if ('problem' in settlement) throw new Error(`the output would fail the request: ${settlement.problem}`);
  return { quote: prepared.credits, exactCost: settlement.exactCost, output: settlement.output };
}
