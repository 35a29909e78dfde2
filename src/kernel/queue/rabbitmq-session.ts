/**
 * One RabbitMQ connection with its channels. Anything in it breaking loses the whole session: unconfirmed
 * publishes fail at once and the connection supervisor (rabbitmq-connection.ts) opens a new one.
 */
import type { Channel, ChannelModel, ConfirmChannel } from 'amqplib';
import { bounded } from './deadline.js';

export const connectionLostMessage = 'RabbitMQ connection lost before the broker confirmed';

export interface PendingConfirm {
  fail(error: Error): void;
}

/** One connection and its channels; replaced as a whole when anything in it breaks. */
export class Session {
  /** Set before the session is handed out. */
  publisher!: ConfirmChannel;
  readonly consumerChannels: { channel: Channel; consumerTag: string }[] = [];
  consuming = false;
  /** Publishes not yet confirmed; failed at once when the session is lost. */
  readonly pending = new Set<PendingConfirm>();
  /** messageIds the broker returned as unroutable; their confirm arrives after the return. */
  readonly returned = new Set<string>();
  isLost = false;
  readonly lost: Promise<void>;
  private resolveLost!: () => void;

  constructor(
    readonly connection: ChannelModel,
    private readonly onLost: (reason: string, error?: unknown) => void,
  ) {
    this.lost = new Promise((resolve) => (this.resolveLost = resolve));
  }

  markLost(reason: string, error?: unknown): void {
    if (this.isLost) return;
    this.isLost = true;
    const failure = new Error(connectionLostMessage);
    for (const pending of this.pending) pending.fail(failure);
    this.pending.clear();
    this.onLost(reason, error);
    // A broken channel alone leaves the connection up: drop it so the whole session is rebuilt.
    void bounded(this.connection.close());
    this.resolveLost();
  }
}
