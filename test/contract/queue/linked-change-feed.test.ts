/**
 * The change feed of the embedded default when its worker runs on a thread of its own (worker-thread/): one
 * MemoryChangeFeed per thread, the announcing one forwarding its batches over a MessagePort (structured clone, as
 * between the threads) and the other receiving them. Same contract as every change feed.
 */
import { MessageChannel } from 'node:worker_threads';
import { MemoryChangeFeed } from '../../../src/kernel/queue/index.js';
import { describeChangeFeedContract } from './change-feed-contract.js';

describeChangeFeedContract('MemoryChangeFeed across a thread boundary', async () => {
  const { port1, port2 } = new MessageChannel();
  const announcer = new MemoryChangeFeed((requestIds) => port1.postMessage(requestIds));
  const subscriber = new MemoryChangeFeed();
  port2.on('message', (requestIds: string[]) => subscriber.receive(requestIds));
  return {
    announcer,
    subscriber,
    cleanup: async () => {
      await announcer.close();
      await subscriber.close();
      port1.close();
    },
  };
});
