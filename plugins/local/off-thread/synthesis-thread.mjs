// Entry of a synthesis worker thread (off-thread.ts). Plain JavaScript because Node only starts workers from
// .js/.mjs files; the TypeScript jobs load through tsx's API, since loader hooks registered in the parent
// (`--import tsx`) do not reach a worker thread on every Node version.
import { parentPort, workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

const { synthesisJobs } = await tsImport('./synthesis-jobs.ts', import.meta.url);
try {
  const result = await synthesisJobs[workerData.name](workerData.request);
  // Moved, not copied: a few minutes of audio is tens of MB that the parent would otherwise clone.
  parentPort.postMessage({ result }, transferablesOf(result));
} catch (error) {
  parentPort.postMessage({ error: { name: error?.name ?? 'Error', message: error instanceof Error ? error.message : String(error) } });
}

function transferablesOf(result) {
  const views = result instanceof Uint8Array ? [result] : Array.isArray(result?.channels) ? result.channels : [];
  // Distinct whole buffers only: a view over part of a pooled buffer cannot be transferred.
  return [...new Set(views.filter((view) => view.byteOffset === 0 && view.byteLength === view.buffer.byteLength).map((view) => view.buffer))];
}
