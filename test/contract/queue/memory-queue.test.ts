import { MemoryQueue } from '../../../src/kernel/queue/index.js';
import { describeQueueContract } from './queue-contract.js';

describeQueueContract('MemoryQueue', async () => {
  const queue = new MemoryQueue();
  return { queue, cleanup: () => queue.close() };
});
