/**
 * The process that holds the long-poll section's waits (held-waits.ts says why it is a process of its own). Its
 * parent sends one message, `{ kind, target, ids, etags }`; it answers `held` once every wait is open, and closes
 * them and exits on SIGTERM.
 */
import { holdLongPolls, holdStreams, type Holders, type Target, type WaitKind } from './held-waits.js';

interface Order {
  kind: WaitKind;
  target: Target;
  ids: string[];
  etags: [string, string][];
}

process.once('message', (order: Order) => {
  const holding: Promise<Holders> = order.kind === 'long polls' ? holdLongPolls(order.target, order.ids, new Map(order.etags)) : holdStreams(order.target, order.ids);
  holding.then(
    (holders) => {
      process.once('SIGTERM', () => {
        holders.close();
        process.exit(0);
      });
      process.send!('held');
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
});
