/** The `mediagate` command: key management, credits, migrations, and the development key of the first start. */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { freePort } from '../support/free-port.js';

const root = new URL('../..', import.meta.url).pathname;
const cli = join(root, 'bin/mediagate.js');

describe('mediagate CLI', function () {
  this.timeout(60_000);
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'mediagate-cli-'));
    env = { ...process.env, MEDIAGATE_DATA_DIR: dataDir, MEDIAGATE_LOG_LEVEL: 'warn', PORT: String(await freePort()) };
  });
  afterEach(async () => rm(dataDir, { recursive: true, force: true }));

  const run = async (...args: string[]) => (await promisify(execFile)(process.execPath, [cli, ...args], { env })).stdout;

  it('creates, lists and revokes keys, grants credits, and migrates', async () => {
    expect(await run('migrate')).to.match(/applied: 0001_initial|schema is up to date/);
    const created = JSON.parse(await run('keys', 'create', '--name', 'ci', '--scopes', 'requests:read', '--credits', '25', '--email', 'ci@example.com', '--plan', 'pro', '--json'));
    expect(created.key).to.match(/^mg_[0-9A-Za-z]{32}$/);
    expect(created.scopes).to.deep.equal(['requests:read']);
    const listed = JSON.parse(await run('keys', 'list', '--json'));
    expect(listed).to.have.length(1);
    expect(listed[0]).to.include({ id: created.id, name: 'ci', revokedAtMs: null });
    expect(JSON.stringify(listed)).to.not.contain(created.key);
    const granted = JSON.parse(await run('credits', 'grant', '--key', created.id, '--amount', '75', '--json'));
    expect(granted.creditsRemaining).to.equal(100);
    expect(await run('keys', 'revoke', created.id)).to.contain('revoked 1');
    expect(JSON.parse(await run('keys', 'list', '--json'))[0].revokedAtMs).to.be.a('number');
    expect(await run('migrate')).to.contain('schema is up to date');
  });

  it('refuses unknown scopes with a clear message', async () => {
    try {
      await run('keys', 'create', '--name', 'x', '--scopes', 'requests:delete');
      expect.fail('accepted');
    } catch (error) {
      expect((error as { stderr: string }).stderr).to.contain('unknown scope requests:delete');
    }
  });

  it('stops at start with the file and pointer of a broken setting', async () => {
    try {
      await promisify(execFile)(process.execPath, [cli, 'start', 'all'], { env: { ...env, MEDIAGATE_WORKER_CONCURRENCY: 'many' } });
      expect.fail('started');
    } catch (error) {
      expect((error as { code: number }).code).to.equal(78);
      expect((error as { stderr: string }).stderr).to.contain('MEDIAGATE_WORKER_CONCURRENCY=many must be an integer');
    }
  });

  it('the first start creates a development key, prints it once and saves it with mode 0600', async () => {
    const start = async () => {
      const child = spawn(process.execPath, [cli, 'start', 'all'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      const url = `http://127.0.0.1:${env.PORT}`;
      for (let ready = false; !ready; ) {
        ready = await fetch(`${url}/healthz`).then((response) => response.ok, () => false);
        if (!ready) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return { child, url, output: () => stdout };
    };
    const first = await start();
    const key = (await readFile(join(dataDir, 'dev-api-key'), 'utf8')).trim();
    expect((await stat(join(dataDir, 'dev-api-key'))).mode & 0o777).to.equal(0o600);
    expect(first.output()).to.contain(key);
    const status = await (await fetch(`${first.url}/api/v1/status`, { headers: { 'x-api-key': key } })).json();
    expect(status.apiKey).to.deep.equal({ name: 'development', scopes: ['requests:read', 'requests:write'] });
    first.child.kill('SIGTERM');
    await new Promise((resolve) => first.child.once('exit', resolve));

    const second = await start();
    expect(second.output()).to.not.contain(key);
    expect((await readFile(join(dataDir, 'dev-api-key'), 'utf8')).trim()).to.equal(key);
    second.child.kill('SIGTERM');
    await new Promise((resolve) => second.child.once('exit', resolve));
  });
});
