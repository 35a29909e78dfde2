/**
 * The loopback vendor of the vendor-scale bench: a task API that takes a submission (with our request id), answers
 * `pending` for a configurable time, then `done` with a small result, and can be asked for a task by our request id.
 * It injects faults into every call at fixed rates (a 500 that did nothing, or a hang past the client's timeout;
 * a submission that hangs has created its task first, as a vendor whose answer was lost would have) from a seeded
 * generator, so runs are comparable.
 *
 * It keeps the evidence the bench checks: tasks created per request id (a second one is a duplicate submission),
 * every status read, each task's first `done` and any reads after it, and, for every scheduled poll, how late it
 * arrived against the due time the gateway stored (see poll-schedule.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PollSchedule } from './poll-schedule.js';

export interface MockVendorOptions {
  /** How long a task answers `pending`, before a per-task spread of ±`pendingSpread` (0.2 = ±20%). */
  pendingMs: number;
  pendingSpread: number;
  /** Share of calls answered 500 without doing anything. */
  errorRate: number;
  /** Share of calls left unanswered (the client times out); held this long, then the socket is dropped. */
  hangRate: number;
  hangMs: number;
  /** How long every answer takes, as a real vendor's API does (0 = at once). */
  latencyMs: number;
  seed: number;
  schedule?: PollSchedule;
}

interface Task {
  id: string;
  requestId: string;
  createdAtMs: number;
  doneAtMs: number;
  /** When `done` was first answered. */
  doneServedAtMs?: number;
  readsAfterDone: number;
  /** The last read of this task was a fault: the next read is the client's retry of it. */
  lastReadFaulted: boolean;
}

export interface MockVendorStats {
  tasks: number;
  /** Request ids that have a task. */
  requestsWithTasks: number;
  /** Request ids with more than one task: submissions sent twice. */
  duplicateSubmissions: number;
  submissions: number;
  submissionErrors: number;
  submissionHangs: number;
  lookups: { found: number; absent: number };
  reads: number;
  readErrors: number;
  readHangs: number;
  /** Reads that repeat a faulted read (the SDK's retry inside one call). */
  readRetries: number;
  /** Tasks whose `done` was answered, and reads of a task after that. */
  doneServed: number;
  readsAfterDone: number;
  /** Tasks created and not yet answered `done`. */
  inFlight: number;
}

/** mulberry32: a small seeded generator, so the fault pattern repeats from run to run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class MockVendor {
  private readonly server: Server;
  private readonly random: () => number;
  private readonly tasks = new Map<string, Task>();
  private readonly tasksByRequest = new Map<string, Task[]>();
  private readonly counts = { submissions: 0, submissionErrors: 0, submissionHangs: 0, found: 0, absent: 0, reads: 0, readErrors: 0, readHangs: 0, readRetries: 0, doneServed: 0, readsAfterDone: 0 };
  private nextId = 1;

  constructor(private readonly options: MockVendorOptions) {
    this.random = seeded(options.seed);
    this.server = createServer((request, response) => this.route(request, response));
    // Keep-alive sockets of the worker stay open between polls, as they would to a real vendor.
    this.server.keepAliveTimeout = 60_000;
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  stats(): MockVendorStats {
    let duplicateSubmissions = 0;
    for (const tasks of this.tasksByRequest.values()) if (tasks.length > 1) duplicateSubmissions += 1;
    const { submissions, submissionErrors, submissionHangs, found, absent, reads, readErrors, readHangs, readRetries, doneServed, readsAfterDone } = this.counts;
    return {
      tasks: this.tasks.size,
      requestsWithTasks: this.tasksByRequest.size,
      duplicateSubmissions,
      submissions,
      submissionErrors,
      submissionHangs,
      lookups: { found, absent },
      reads,
      readErrors,
      readHangs,
      readRetries,
      doneServed,
      readsAfterDone,
      inFlight: this.tasks.size - doneServed,
    };
  }

  private route(request: IncomingMessage, response: ServerResponse): void {
    if (this.options.latencyMs > 0) {
      const arrivedAtMs = Date.now();
      setTimeout(() => this.routeAt(request, response, arrivedAtMs), this.options.latencyMs);
    } else {
      this.routeAt(request, response, Date.now());
    }
  }

  private routeAt(request: IncomingMessage, response: ServerResponse, arrivedAtMs: number): void {
    const url = new URL(request.url ?? '/', 'http://mock');
    if (request.method === 'POST' && url.pathname === '/v1/tasks') return void this.submit(request, response);
    if (request.method === 'GET' && url.pathname === '/v1/tasks') return this.lookup(url.searchParams.get('request_id') ?? '', response);
    const match = /^\/v1\/tasks\/([^/]+)$/.exec(url.pathname);
    if (request.method === 'GET' && match) return this.read(decodeURIComponent(match[1]), arrivedAtMs, response);
    answer(response, 404, { error: { message: `no route ${request.method} ${url.pathname}` } });
  }

  private fault(): 'error' | 'hang' | undefined {
    const draw = this.random();
    if (draw < this.options.errorRate) return 'error';
    if (draw < this.options.errorRate + this.options.hangRate) return 'hang';
    return undefined;
  }

  private async submit(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = JSON.parse(await readBody(request)) as { request_id?: string };
    const requestId = body.request_id ?? '';
    this.counts.submissions += 1;
    const fault = this.fault();
    if (fault === 'error') {
      this.counts.submissionErrors += 1;
      return answer(response, 500, { error: { message: 'injected server error; the task was not created' } });
    }
    const now = Date.now();
    const spread = 1 + (this.random() * 2 - 1) * this.options.pendingSpread;
    const task: Task = { id: `mock_${this.nextId++}`, requestId, createdAtMs: now, doneAtMs: now + Math.round(this.options.pendingMs * spread), readsAfterDone: 0, lastReadFaulted: false };
    this.tasks.set(task.id, task);
    this.tasksByRequest.set(requestId, [...(this.tasksByRequest.get(requestId) ?? []), task]);
    if (fault === 'hang') {
      this.counts.submissionHangs += 1;
      return this.hang(response);
    }
    answer(response, 201, { id: task.id, status: 'pending' });
  }

  private lookup(requestId: string, response: ServerResponse): void {
    const fault = this.fault();
    if (fault === 'error') return answer(response, 500, { error: { message: 'injected server error' } });
    if (fault === 'hang') return this.hang(response);
    const task = this.tasksByRequest.get(requestId)?.[0];
    if (!task) {
      this.counts.absent += 1;
      return answer(response, 404, { error: { message: `no task for request ${requestId}` } });
    }
    this.counts.found += 1;
    answer(response, 200, { id: task.id, status: 'pending' });
  }

  private read(id: string, arrivedAtMs: number, response: ServerResponse): void {
    const task = this.tasks.get(id);
    if (!task) return answer(response, 404, { error: { message: `no task ${id}` } });
    this.counts.reads += 1;
    if (task.lastReadFaulted) this.counts.readRetries += 1;
    else this.options.schedule?.arrived(task.requestId, arrivedAtMs);
    const fault = this.fault();
    task.lastReadFaulted = fault !== undefined;
    if (fault === 'error') {
      this.counts.readErrors += 1;
      return answer(response, 500, { error: { message: 'injected server error' } });
    }
    if (fault === 'hang') {
      this.counts.readHangs += 1;
      return this.hang(response);
    }
    if (arrivedAtMs < task.doneAtMs) return answer(response, 200, { id, status: 'pending' });
    if (task.doneServedAtMs === undefined) {
      task.doneServedAtMs = arrivedAtMs;
      this.counts.doneServed += 1;
    } else {
      task.readsAfterDone += 1;
      this.counts.readsAfterDone += 1;
    }
    answer(response, 200, { id, status: 'done', result: `result of ${id}` });
  }

  /** Never answers: the client's timeout fires; the socket is dropped later so it does not linger. */
  private hang(response: ServerResponse): void {
    const timer = setTimeout(() => response.socket?.destroy(), this.options.hangMs);
    response.on('close', () => clearTimeout(timer));
  }
}

function answer(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8') || '{}';
}
