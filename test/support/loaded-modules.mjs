/**
 * `node --import` this file to learn which modules a process loads (ECMAScript modules as a resolve hook sees them,
 * CommonJS ones from require's cache) and which OpenTelemetry globals it registered (the API keeps its tracer
 * provider, propagator and context manager under `Symbol.for('opentelemetry.js.api.<major>')`). Written as JSON,
 * `{ modules, globals }`, to $LOADED_MODULES_FILE when the process exits. Plain JavaScript: it is loaded before tsx.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

// `--import` preloads run in every worker thread too (the SQLite checkpointer is one): a thread that truncated the list
// below or wrote it at its own exit would erase what the main thread recorded. The main thread's hook sees the modules
// of the whole process that matter here; threads record nothing.
if (isMainThread) record();

/** Records this process's modules and globals into $LOADED_MODULES_FILE at exit. */
function record() {
  const resolvedFile = `${process.env.LOADED_MODULES_FILE}.resolved`;
  writeFileSync(resolvedFile, '');
  register(new URL('./loaded-modules-hook.mjs', import.meta.url), { data: { file: resolvedFile } });

  process.on('exit', () => {
    const required = Object.keys(createRequire(import.meta.url).cache);
    const globals = Object.getOwnPropertySymbols(globalThis).map(String).filter((name) => name.includes('opentelemetry'));
    const resolved = readFileSync(resolvedFile, 'utf8').split('\n').filter(Boolean);
    writeFileSync(process.env.LOADED_MODULES_FILE, JSON.stringify({ modules: [...new Set(resolved), ...required], globals }));
  });
}
