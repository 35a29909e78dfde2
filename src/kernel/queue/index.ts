export type { Job, JobHandler, JobQueue } from './queue-port.js';
export { MemoryQueue } from './memory-queue.js';
export { RabbitMqQueue, type RabbitMqQueueOptions } from './rabbitmq-queue.js';
export { defaultWaitBucketsMs, describeTopology, type RabbitMqTopology } from './rabbitmq-topology.js';
