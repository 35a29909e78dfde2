/**
 * The embedded worker thread itself (worker-thread.ts starts it): a kernel in the worker role over the main
 * thread's settings, with its own connection to the same SQLite file (migrated already by the main thread) and the
 * in-process queue, fed with the main thread's jobs. It serves no HTTP: notices, breaker changes and metrics go to
 * the main thread, which serves them.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Settings } from '../config/index.js';
import type { FromThread, ToThread } from './messages.js';

const port = parentPort!;
const { settings } = workerData as { settings: Settings };
const post = (message: FromThread) => port.postMessage(message);

// Messages may come before the kernel is up (the main thread publishes as soon as it serves): kept until then.
const early: ToThread[] = [];
let handle: (message: ToThread) => void = (message) => early.push(message);
// The main thread starts this one while it composes its own kernel, and says when the store is migrated.
let storeReady!: () => void;
const migrated = new Promise<void>((resolve) => (storeReady = resolve));
let storeOpened = false;
port.on('message', (message: ToThread) => {
  if (message.type === 'store-ready') return storeReady();
  // Asked to stop before it opened anything (the main thread's start failed): nothing to finish or close.
  if (message.type === 'stop' && !storeOpened) process.exit(0);
  handle(message);
});

try {
  // Before the kernel is imported, as `mediagate start` does: OpenTelemetry patches modules as they load.
  const { startTracing, tracingDecision } = await import('../observability/tracing-switch.js');
  const { buildInfo } = await import('../observability/build-info.js');
  // `worker`: the resource attribute tells this thread's spans from the main thread's (`all`).
  const tracing = tracingDecision(process.env).enabled ? await startTracing({ role: 'worker', version: buildInfo('all').version }) : undefined;
  const { createGateway } = await import('../gateway.js');
  const { createLogger } = await import('../observability/logger.js');
  const { MemoryChangeFeed, MemoryQueue } = await import('../queue/index.js');

  const changes = new MemoryChangeFeed((requestIds) => post({ type: 'changes', requestIds }));
  const cancels = new MemoryChangeFeed();
  const gateway = await createGateway(settings, {
    // Its lines carry `thread: "worker"` beside the process's pid: one process, two threads logging.
    log: createLogger({ level: settings.log.level }).child({ thread: 'worker' }),
    role: 'all',
    skipMigrations: true,
    changeFeed: changes,
    cancelNotices: cancels,
    breakerChanges: (pluginId, open) => post({ type: 'breaker', pluginId, open }),
    storeGauges: false,
    databaseCheckpoints: 'elsewhere',
    beforeStore: async () => {
      await migrated;
      storeOpened = true;
    },
  });
  const queue = gateway.queue;
  if (!(queue instanceof MemoryQueue)) throw new Error('the worker thread runs the in-process queue only (no MEDIAGATE_AMQP_URL)');

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await gateway.close();
      await tracing?.shutdown();
      // Nothing of the kernel is left running; plugin timers or sockets some vendor library keeps must not hold
      // the thread (the main thread waits for its exit).
      process.exit(0);
    })());
  handle = (message) => {
    switch (message.type) {
      case 'job':
        queue.accept(message.job, message.delayMs);
        return;
      case 'cancels':
        cancels.receive(message.requestIds);
        return;
      case 'metrics':
        void gateway.metrics.snapshot().then((metrics) => post({ type: 'metrics', ask: message.ask, metrics }), () => post({ type: 'metrics', ask: message.ask, metrics: [] }));
        return;
      case 'stop':
        void stop();
        return;
    }
  };
  for (const message of early.splice(0)) handle(message);
  if (!stopping) {
    await gateway.startWorking();
    // Ready (the main thread's /healthz says so) once the start-up sweep has re-sent what the store holds: a job
    // sent from then on is not sent a second time by that pass.
    await gateway.sweeper.startedUp();
    post({ type: 'ready' });
  }
} catch (error) {
  post({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  process.exit(1);
}
