export type { Job, JobHandler, JobQueue } from './queue-port.js';
export { MemoryQueue } from './memory-queue.js';
