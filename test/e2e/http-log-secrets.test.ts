/**
 * What the service writes to its log when the database refuses a write: the error code and the statement's
 * name, never the values in it. The store is made to fail with SQLite triggers whose messages quote the row
 * (as mysql2's "Duplicate entry '<value>'" and its inlined `sql` do): a failing webhook secret rotation and a
 * failing request insert. The log of the whole run, start included, is then searched for every secret the
 * service holds: the API key, the webhook secrets, a configured vendor key, the metrics token, the prompt.
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, type RunningService } from '../../src/cli/serve.js';
import { loadSettings } from '../../src/kernel/config/index.js';
import { newId } from '../../src/kernel/store/index.js';
import { CapturedLog } from '../support/captured-log.js';
import { withFixtures } from '../support/fixtures.js';
import { freePort } from '../support/free-port.js';

describe('HTTP: secrets never reach the log', () => {
  const vendorKey = 'sk-vendor-key-that-must-stay-secret-0123456789';
  const metricsToken = 'metrics-token-that-must-stay-secret';
  const prompt = 'prompt-value-that-must-not-be-logged';
  const log = new CapturedLog();
  let service: RunningService;
  let dataDir: string;
  let key: string;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'mediagate-log-'));
    const settings = loadSettings({
      env: { MEDIAGATE_PROVIDER_OPENAI_API_KEY: vendorKey, MEDIAGATE_METRICS_TOKEN: metricsToken },
      // The worker in this thread: its lines go to the captured destination too (a worker thread logs to stdout).
      overrides: { ...withFixtures, server: { host: '127.0.0.1', port: await freePort(), public_url: '' }, data_dir: dataDir, log: { level: 'trace' }, worker: { thread: false } },
    });
    service = await startService(settings, { logDestination: log });
    const { accounts, apiKeys, clock } = service.gateway;
    const accountId = newId('acct', clock.now());
    await accounts.createAccount({ id: accountId, email: 'log@example.com', plan: 'test', creditsBalance: 100, createdAtMs: clock.now() });
    key = (await apiKeys.create(accountId, 'log key', ['requests:read', 'requests:write'])).plaintext;
  });
  after(async () => {
    await service.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const call = (method: string, path: string, body?: unknown) =>
    fetch(service.url + path, { method, headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

  const internalError = (path: string) => ({
    type: 'https://mediagate.dev/docs/errors#mg-internal',
    title: 'Internal error',
    status: 500,
    detail: 'Internal error',
    code: 'MG_INTERNAL',
    instance: path,
  });

  it('a failing webhook secret rotation and a failing insert log code and statement, and no secret', async () => {
    const current = (await (await call('GET', '/api/v1/webhooks/secret')).json()) as { key: string };
    expect(current.key).to.match(/^whsec_/);
    const { knex } = service.gateway.database;
    await knex.raw(`CREATE TRIGGER refuse_rotation BEFORE UPDATE ON webhook_secrets BEGIN SELECT RAISE(ABORT, 'refused ' || NEW.secret || ' after ' || OLD.secret); END`);
    await knex.raw(`CREATE TRIGGER refuse_request BEFORE INSERT ON requests BEGIN SELECT RAISE(ABORT, 'refused ' || NEW.input); END`);

    const rotation = await call('POST', '/api/v1/webhooks/secret/rotate');
    expect(rotation.status).to.equal(500);
    expect(await rotation.json()).to.deep.equal(internalError('/api/v1/webhooks/secret/rotate'));
    const create = await call('POST', '/api/v1/requests', { operation: 'test.echo', input: { message: prompt } });
    expect(create.status).to.equal(500);
    expect(await create.json()).to.deep.equal(internalError('/api/v1/requests'));

    const text = log.text();
    for (const secret of [key, current.key, 'whsec_', vendorKey, metricsToken, prompt, 'refused', 'INSERT INTO', 'UPDATE webhook_secrets SET']) {
      expect(text, `the log contains ${secret}`).to.not.include(secret);
    }
    // The operator still learns what failed and where.
    const failures = log.entries('unhandled error').map((entry) => entry.err as Record<string, unknown>);
    expect(failures.map(({ type, code, statement }) => ({ type, code, statement }))).to.deep.equal([
      { type: 'DatabaseError', code: 'SQLITE_CONSTRAINT_TRIGGER', statement: 'UPDATE webhook_secrets' },
      { type: 'DatabaseError', code: 'SQLITE_CONSTRAINT_TRIGGER', statement: 'INSERT requests' },
    ]);
  });

  it('the configured vendor key and metrics token are not in the log of a start, even when settings are logged', async () => {
    service.gateway.log.info({ settings: service.gateway.settings, headers: { authorization: `Bearer ${metricsToken}`, 'x-api-key': key } }, 'settings dump');
    const [dump] = log.entries('settings dump');
    expect((dump.settings as { providers: { openai: { api_key: string } } }).providers.openai.api_key).to.equal('[redacted]');
    expect(dump.headers).to.deep.equal({ authorization: '[redacted]', 'x-api-key': '[redacted]' });
    for (const secret of [vendorKey, metricsToken, key]) expect(log.text()).to.not.include(secret);
  });
});
