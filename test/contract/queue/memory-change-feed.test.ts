import { MemoryChangeFeed } from '../../../src/kernel/queue/index.js';
import { describeChangeFeedContract } from './change-feed-contract.js';

describeChangeFeedContract('MemoryChangeFeed', async () => {
  const feed = new MemoryChangeFeed();
  return { announcer: feed, subscriber: feed, cleanup: () => feed.close() };
});
