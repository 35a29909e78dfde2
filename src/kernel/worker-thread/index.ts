export { EmbeddedWorkerThread, type WorkerThreadOptions } from './worker-thread.js';
export { ThreadQueue, type JobSink } from './thread-queue.js';
export type { FromThread, ToThread } from './messages.js';
