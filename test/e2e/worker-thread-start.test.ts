/**
 * The embedded worker thread's start (worker-thread.ts `launch`): the main thread starts it before composing its own
 * kernel, so both load their manifests and plugins at once on two cores, and the thread opens the store only once
 * the main thread has migrated it. A main-thread start that fails meanwhile stops the waiting thread at once.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { pino } from 'pino';
import { loadSettings, type Settings } from '../../src/kernel/config/index.js';
import { migrateToLatest, openDatabase } from '../../src/kernel/store/index.js';
import { EmbeddedWorkerThread } from '../../src/kernel/worker-thread/index.js';
import { withFixtures } from '../support/fixtures.js';

describe('the embedded worker thread, started before the store is ready', function () {
  this.timeout(60_000);
  let dataDir: string;
  let settings: Settings;
  let thread: EmbeddedWorkerThread | undefined;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'mediagate-thread-start-'));
    // A long shutdown timeout: a thread that did not stop by itself would be waited on that long, then terminated.
    settings = loadSettings({ env: {}, overrides: { ...withFixtures, data_dir: dataDir, log: { level: 'silent' }, worker: { thread: false, shutdown_timeout_ms: 60_000 } } });
  });
  afterEach(async () => {
    await thread?.stop();
    thread = undefined;
    await rm(dataDir, { recursive: true, force: true });
  });

  const storeFile = () => settings.database.url.replace(/^sqlite:/, '');

  it('loads meanwhile, opens the store only once told it is migrated, then consumes', async () => {
    thread = new EmbeddedWorkerThread({ settings, log: pino({ level: 'silent' }) });
    thread.launch();
    // Long enough for the thread to load its kernel (about 2 s here) and reach the store.
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    expect(existsSync(storeFile()), 'the thread opened (and so created) the store before it was migrated').to.equal(false);
    expect(thread.running()).to.equal(false);
    const database = openDatabase(settings.database.url);
    await migrateToLatest(database);
    await database.close();
    thread.storeReady();
    await thread.start();
    expect(thread.running()).to.equal(true);
  });

  it('stops at once when the main thread gives up before the store is ready', async () => {
    thread = new EmbeddedWorkerThread({ settings, log: pino({ level: 'silent' }) });
    thread.launch();
    const started = thread.start();
    const began = performance.now();
    await thread.stop();
    // Not the 60 s shutdown timeout: the thread had nothing open, so it ended on the message.
    expect(performance.now() - began).to.be.below(20_000);
    let reason: unknown;
    await started.catch((error: unknown) => (reason = error));
    expect(String(reason)).to.match(/exited .* before it was ready/);
    expect(existsSync(storeFile())).to.equal(false);
  });
});
