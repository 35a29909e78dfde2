/**
 * The loader hook of loaded-modules.mjs: appends every URL the resolution chain settles on to a file, synchronously,
 * so that nothing is lost when the process exits (messages posted to the main thread may still be undelivered then).
 */
import { appendFileSync } from 'node:fs';

let file;

export function initialize(data) {
  file = data.file;
}

export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  appendFileSync(file, `${result.url}\n`);
  return result;
}
