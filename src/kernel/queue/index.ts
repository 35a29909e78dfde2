export { withTraceparent, type Job, type JobHandler, type JobQueue, type PublishObserver } from './queue-port.js';
export { MemoryQueue } from './memory-queue.js';
export { RabbitMqQueue, type RabbitMqQueueOptions } from './rabbitmq-queue.js';
export { defaultDelayLevels, defaultDelayRadix, defaultDelayResolutionMs, describeTopology, type RabbitMqTopology } from './rabbitmq-topology.js';
export type { ChangeFeed, ChangeListener, ChangeNotices } from './change-feed.js';
export { MemoryChangeFeed } from './memory-change-feed.js';
export { RabbitMqChangeFeed, type RabbitMqChangeFeedOptions } from './rabbitmq-change-feed.js';
