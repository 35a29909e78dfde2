// The body of SqliteCheckpointer's worker thread (sqlite-checkpointer.ts). Plain JavaScript so the thread
// starts without the TypeScript loader: it only opens its own connection and checkpoints on a timer.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

/** @type {{ filename: string; intervalMs: number }} */
const { filename, intervalMs } = workerData;
const connection = new Database(filename);

// PASSIVE never waits for or blocks the serving connection: it copies what no reader still needs back into
// the database file and fsyncs. Starting the WAL over is the serving connection's part (its backstop).
const timer = setInterval(() => {
  try {
    connection.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
}, intervalMs);

parentPort?.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  connection.close();
  parentPort?.close();
});
