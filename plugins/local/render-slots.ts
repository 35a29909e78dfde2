/**
 * How many of the local provider's renders run at once in one process (`providers.local.renders`, default 2).
 *
 * The worker's `concurrency` bounds every start of every provider, and a vendor's start is mostly a wait on the
 * vendor; a local start is the render itself (ffmpeg, sharp, a synthesis thread), which takes a core and memory for
 * seconds. Bounding renders here lets the worker run many starts at once (instant jobs then share the store's
 * commits) without a laptop running that many ffmpeg processes. Waiting starts are served first come, first
 * served; a wait counts towards the call's timeout like the render does, and an abort (timeout, shutdown, the
 * client's cancel) ends it at once.
 */
import { resolveLocalConfig, type LocalConfig } from './local-config.js';
import { mediaInterrupted } from './media/ffmpeg.js';

interface Waiter {
  admit(): void;
}

export class RenderSlots {
  private running = 0;
  private readonly waiting: Waiter[] = [];

  constructor(readonly size: number) {}

  /** Runs `render` once a slot is free; the slot is handed on when it settles. */
  async run<Result>(signal: AbortSignal, render: () => Promise<Result>): Promise<Result> {
    await this.acquire(signal);
    try {
      return await render();
    } finally {
      this.release();
    }
  }

  /** Starts waiting for a slot (the test of the first-come order reads it). */
  get queued(): number {
    return this.waiting.length;
  }

  private acquire(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(mediaInterrupted());
    if (this.running < this.size && this.waiting.length === 0) {
      this.running += 1;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        admit: () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = (): void => {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        reject(mediaInterrupted());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  /** The slot passes straight to the first waiter, so a start arriving meanwhile cannot overtake it. */
  private release(): void {
    const next = this.waiting.shift();
    if (next) next.admit();
    else this.running -= 1;
  }
}

const slotsByConfig = new WeakMap<LocalConfig, RenderSlots>();

/**
 * The slots of one loaded local plugin, sized by its `renders`: the kernel hands every call of a plugin the same
 * validated config object, so each gateway in a process (tests start several) has slots of its own.
 */
export function renderSlotsFor(config: LocalConfig): RenderSlots {
  let slots = slotsByConfig.get(config);
  if (!slots) {
    slots = new RenderSlots(resolveLocalConfig(config).renders);
    slotsByConfig.set(config, slots);
  }
  return slots;
}
