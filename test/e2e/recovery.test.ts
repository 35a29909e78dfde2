/**
 * Recovery: nothing accepted is ever lost or left `processing`. Lost jobs (crash between commit and
 * publish), dead workers (expired leases) and a real kill -9 of the whole process mid-job.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { DatabaseError } from '../../src/kernel/store/database-error.js';
import { paidRequestRow } from '../support/request-rows.js';
import { pollUntilTerminal, startTestService, type TestService } from '../support/test-service.js';
import { fixtureManifestDir, fixturePluginDir, withFixtures } from '../support/fixtures.js';
import { freePort } from '../support/free-port.js';

describe('recovery', () => {
  describe('in one process', () => {
    let service: TestService;
    before(async () => {
      service = await startTestService({ ...withFixtures, worker: { lease_ms: 600 } });
    });
    after(async () => service.stop());

    /** A request row written and paid for, as if its job had been lost. */
    function orphanRequest(accountId: string, keyId: string, fields: Record<string, unknown> = {}): Promise<string> {
      return paidRequestRow(service, { accountId, keyId }, fields, { message: 'orphan' });
    }

    it('republishes a queued request whose job was lost', async () => {
      const { key, accountId, keyId } = await service.createKey({ credits: 10 });
      const id = await orphanRequest(accountId, keyId);
      const done = await pollUntilTerminal(service, key, id, 15_000);
      expect(done.status).to.equal('succeeded');
      expect((await service.api('GET', '/api/v1/status', { key })).body.creditsRemaining).to.equal(8);
    });

    it('takes over a request whose worker died holding it (lease expired)', async () => {
      const { key, accountId, keyId } = await service.createKey({ credits: 10 });
      const id = await orphanRequest(accountId, keyId, { status: 'processing', lease_owner: 'dead-worker', lease_expires_at_ms: Date.now() - 1, attempts: 1, started_at_ms: Date.now() - 4000 });
      const done = await pollUntilTerminal(service, key, id, 15_000);
      expect(done.status).to.equal('succeeded');
      const row = await service.service.gateway.requests.get(id);
      expect(row!.attempts).to.equal(2);
    });

    it('fails and refunds a request that lost its worker too many times', async () => {
      const { key, accountId, keyId } = await service.createKey({ credits: 10 });
      const id = await orphanRequest(accountId, keyId, { status: 'processing', lease_owner: 'dead-worker', lease_expires_at_ms: Date.now() - 1, attempts: 3 });
      const done = await pollUntilTerminal(service, key, id, 15_000);
      expect(done.status).to.equal('failed');
      expect(done.errorMessage).to.equal('the request was interrupted 3 times while running and was abandoned');
      expect((await service.api('GET', '/api/v1/status', { key })).body.creditsRemaining).to.equal(10);
    });

    it('resumes polling a stored vendor task whose poll job was lost', async () => {
      const { key, accountId, keyId } = await service.createKey({ credits: 10 });
      const id = await orphanRequest(accountId, keyId, {
        status: 'processing',
        provider: 'scripted',
        task: JSON.stringify({ taskId: 'scripted_resume', state: { polls_left: 0, script: {}, message: 'resumed' } }),
        next_check_at_ms: Date.now() - 5000,
        started_at_ms: Date.now() - 5000,
        attempts: 1,
      });
      const done = await pollUntilTerminal(service, key, id, 15_000);
      expect(done.status).to.equal('succeeded');
      expect(done.output.echo).to.equal('resumed');
    });
  });

  describe('the store failing under a worker', () => {
    let service: TestService;
    before(async () => {
      service = await startTestService({ ...withFixtures, worker: { lease_ms: 600 } });
    });
    after(async () => service.stop());

    /** Makes the next `times` writes of the next poll fail as a MariaDB deadlock does. */
    function deadlockRecordTask(times: number): { calls: () => number } {
      const requests = service.service.gateway.requests;
      const original = requests.recordTask.bind(requests);
      let calls = 0;
      requests.recordTask = async (...args) => {
        calls += 1;
        if (calls <= times) throw new DatabaseError('ER_LOCK_DEADLOCK', 'UPDATE requests', 1213);
        return original(...args);
      };
      return { calls: () => calls };
    }

    it('retries a deadlock on the next poll write: the request goes on polling and succeeds, charged once', async () => {
      const { key } = await service.createKey({ credits: 10 });
      const deadlocks = deadlockRecordTask(2);
      const created = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'test.echo', input: { message: 'deadlocked', script: { pending: 2 } } } });
      const done = await pollUntilTerminal(service, key, created.body.id, 15_000);
      expect(done.status).to.equal('succeeded');
      expect(deadlocks.calls()).to.be.greaterThan(2);
      // Retried in place: the worker kept the request (no lease ran out, no takeover).
      expect((await service.service.gateway.requests.get(created.body.id))!.attempts).to.equal(1);
      expect((await service.api('GET', '/api/v1/status', { key })).body.creditsRemaining).to.equal(8);
    });

    it('never fails a request for a store failure that outlasts the retries: the lease runs out and the poll is taken over', async () => {
      const { key } = await service.createKey({ credits: 10 });
      // More than one write's retries (4 tries each), fewer than two writes' worth.
      const deadlocks = deadlockRecordTask(6);
      const created = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'test.echo', input: { message: 'deadlocked for long', script: { pending: 2 } } } });
      const done = await pollUntilTerminal(service, key, created.body.id, 20_000);
      expect(done.status, String(done.errorMessage)).to.equal('succeeded');
      expect(deadlocks.calls()).to.be.greaterThan(6);
      expect((await service.api('GET', '/api/v1/status', { key })).body.creditsRemaining).to.equal(8);
    });
  });

  describe('kill -9 of the whole service mid-job', () => {
    let dataDir: string;
    let child: ChildProcess | undefined;
    const root = new URL('../..', import.meta.url).pathname;
    let env: NodeJS.ProcessEnv;

    before(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'mediagate-crash-'));
      const port = await freePort();
      env = {
        ...process.env,
        PORT: String(port),
        MEDIAGATE_DATA_DIR: dataDir,
        MEDIAGATE_MANIFEST_DIRS: fixtureManifestDir,
        MEDIAGATE_PLUGIN_DIRS: fixturePluginDir,
        MEDIAGATE_WORKER_LEASE_MS: '1500',
        MEDIAGATE_SWEEP_INTERVAL_MS: '300',
        MEDIAGATE_LOG_LEVEL: 'warn',
      };
    });
    after(async () => {
      child?.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    });

    async function startProcess(): Promise<string> {
      child = spawn(process.execPath, [join(root, 'bin/mediagate.js'), 'start', 'all'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      const url = `http://127.0.0.1:${env.PORT}`;
      const until = Date.now() + 30_000;
      while (Date.now() < until) {
        try {
          if ((await fetch(`${url}/healthz`)).ok) return url;
        } catch {
          // not listening yet
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error('the service did not start');
    }

    it('finishes the request after a restart, charged exactly once', async () => {
      const url = await startProcess();
      const { stdout } = await promisify(execFile)(process.execPath, [join(root, 'bin/mediagate.js'), 'keys', 'create', '--name', 'crash', '--credits', '50', '--json'], { env });
      const key = JSON.parse(stdout).key as string;
      const headers = { 'x-api-key': key, 'content-type': 'application/json' };
      const created = await (await fetch(`${url}/api/v1/requests`, { method: 'POST', headers, body: JSON.stringify({ operation: 'test.echo', input: { message: 'survivor', script: { start_delay_ms: 4000 } } }) })).json();
      // Wait until a worker holds it mid-call, then kill the process without any chance to clean up.
      for (let seen = ''; seen !== 'processing'; ) {
        seen = (await (await fetch(`${url}/api/v1/requests/${created.id}`, { headers })).json()).status;
      }
      child!.kill('SIGKILL');
      await new Promise((resolve) => child!.once('exit', resolve));

      await startProcess();
      let body: any;
      const until = Date.now() + 30_000;
      do {
        await new Promise((resolve) => setTimeout(resolve, 200));
        body = await (await fetch(`${url}/api/v1/requests/${created.id}`, { headers })).json();
      } while (body.status !== 'succeeded' && body.status !== 'failed' && Date.now() < until);
      expect(body.status).to.equal('succeeded');
      expect(body.output.echo).to.equal('survivor');
      const status = await (await fetch(`${url}/api/v1/status`, { headers })).json();
      expect(status.creditsRemaining).to.equal(48);
    });
  });
});
