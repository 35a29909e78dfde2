/** The `mediagate` command: key management, credits, migrations, and the development key of the first start. */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { commands } from '../../src/cli/commands.js';
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
  /** Runs a command that must fail; its exit code and both streams. */
  const refused = async (...args: string[]) => {
    const outcome = await promisify(execFile)(process.execPath, [cli, ...args], { env }).then(
      () => undefined,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    if (!outcome) throw new Error(`mediagate ${args.join(' ')} succeeded`);
    return { code: outcome.code, stdout: outcome.stdout, stderr: outcome.stderr };
  };
  const stackLine = /^\s+at /m;

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

  it('refuses an unknown scope with the scopes there are and the likely one, creating nothing', async () => {
    const typo = await refused('keys', 'create', '--name', 'x', '--scopes', 'requests:read,requests:wirte');
    expect(typo.code).to.equal(2);
    expect(typo.stdout).to.equal('');
    expect(typo.stderr.split('\n')).to.deep.equal([
      'mediagate: keys create: unknown scope requests:wirte (did you mean requests:write?); the scopes are requests:read, requests:write',
      'usage:',
      '  mediagate keys create --name N [--scopes S] [--account <account id or key prefix>] [--credits N] [--email E] [--plan P] [--json]',
      'Run "mediagate keys create --help" for details.',
      '',
    ]);
    const unrelated = await refused('keys', 'create', '--name', 'x', '--scopes', 'admin');
    expect(unrelated.stderr).to.contain('mediagate: keys create: unknown scope admin; the scopes are requests:read, requests:write\n');
    expect((await refused('keys', 'create', '--name', 'x', '--scopes', ',')).stderr).to.contain('--scopes names no scope');
    expect(JSON.parse(await run('keys', 'list', '--json'))).to.deep.equal([]);
  });

  it('answers --version and --help, for every command, without touching the database', async () => {
    const version = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')).version as string;
    const ran = await promisify(execFile)(process.execPath, [cli, '--version'], { env });
    expect(ran).to.deep.include({ stdout: `mediagate ${version}\n`, stderr: '' });
    const help = await promisify(execFile)(process.execPath, [cli, '--help'], { env });
    expect(help.stderr).to.equal('');
    for (const command of commands) expect(help.stdout).to.contain(`  mediagate ${command.words.join(' ')}`);
    for (const command of commands) {
      const words = command.words;
      const shown = await promisify(execFile)(process.execPath, [cli, ...words, '--help'], { env });
      expect(shown.stderr, words.join(' ')).to.equal('');
      expect(shown.stdout, words.join(' ')).to.match(new RegExp(`^usage: mediagate ${words.join(' ')}\\b`));
      expect(shown.stdout).to.contain(command.summary);
      for (const option of Object.keys(command.options)) expect(shown.stdout, `${words.join(' ')} --${option}`).to.contain(`--${option}`);
      expect(await run('help', ...words)).to.equal(shown.stdout);
    }
    const group = await run('keys', '--help');
    expect(group).to.contain('mediagate keys create').and.contain('mediagate keys list').and.contain('mediagate keys revoke');
    // Nothing was migrated or opened: help needs no database.
    expect(await stat(join(dataDir, 'mediagate.sqlite')).then(() => true, () => false)).to.equal(false);
  });

  it('refuses wrong invocations with what is wrong and the usage, never a stack trace', async () => {
    const cases: [string[], string][] = [
      [['keys', 'create', '--nme', 'x'], 'mediagate: keys create: unknown option --nme (did you mean --name?); the options are --name, --scopes, --account, --credits, --email, --plan, --json'],
      [['keys', 'create', '--scopes', 'requests:read'], 'mediagate: keys create: needs --name N'],
      [['keys', 'create', '--name', 'x', '--credits', 'many'], 'mediagate: keys create: --credits must be a non-negative integer, not many'],
      [['keys', 'revoke'], 'mediagate: keys revoke: needs <key id or prefix>'],
      [['keys', 'revoke', 'key_nope'], 'mediagate: keys revoke: no active key key_nope'],
      [['keys', 'list', '--amount', '3'], 'mediagate: keys list: unknown option --amount; the options are --json'],
      [['keys', 'frob'], 'mediagate: unknown command keys frob; the keys commands are create, list, revoke'],
      [['keys'], 'mediagate: keys needs a command; the keys commands are create, list, revoke'],
      [['kyes', 'list'], 'mediagate: unknown command kyes (did you mean keys?)'],
      [['migrate', 'now'], 'mediagate: migrate: unexpected argument now'],
      [['start', 'everything'], 'mediagate: start: the role must be all, api or worker, not everything'],
      [['credits', 'grant', '--key', 'key_nope', '--amount', '5'], 'mediagate: credits grant: no key key_nope'],
      [['users', 'invite', '--email', 'a@example.com', '--account', 'acct_nope', '--role', 'boss'], 'mediagate: users invite: unknown role boss; roles: owner, admin, developer, viewer'],
      [[], 'mediagate: no command given'],
    ];
    for (const [args, message] of cases) {
      const outcome = await refused(...args);
      expect(outcome.code, args.join(' ')).to.equal(2);
      expect(outcome.stderr.split('\n')[0], args.join(' ')).to.equal(message);
      expect(outcome.stderr, args.join(' ')).to.match(/Run "mediagate [a-z -]*--help" for details\.\n$/);
      expect(outcome.stderr, args.join(' ')).to.not.match(stackLine);
    }
  });

  it('keys create --account adds a key to an existing account; keys list shows each account with its balance', async () => {
    const first = JSON.parse(await run('keys', 'create', '--name', 'ci', '--credits', '40', '--email', 'team@example.com', '--json'));
    const other = JSON.parse(await run('keys', 'create', '--name', 'solo', '--credits', '7', '--json'));
    const byAccount = JSON.parse(await run('keys', 'create', '--name', 'deploy', '--account', first.accountId, '--scopes', 'requests:read', '--json'));
    expect(byAccount).to.include({ accountId: first.accountId, credits: 40 });
    expect(byAccount.scopes).to.deep.equal(['requests:read']);
    const prefix = byAccount.key.slice(0, 11);
    const byKeyPrefix = JSON.parse(await run('keys', 'create', '--name', 'laptop', '--account', prefix, '--json'));
    expect(byKeyPrefix.accountId).to.equal(first.accountId);

    const creditsWithAccount = await refused('keys', 'create', '--name', 'x', '--account', first.accountId, '--credits', '5');
    expect(creditsWithAccount.stderr.split('\n')[0]).to.equal('mediagate: keys create: --credits describe a new account and cannot be used with --account (add credits with "mediagate credits grant")');
    expect((await refused('keys', 'create', '--name', 'x', '--account', 'acct_nope')).stderr.split('\n')[0]).to.equal('mediagate: keys create: no account or API key acct_nope');

    const listed = JSON.parse(await run('keys', 'list', '--json')) as { id: string; accountId: string; name: string; account: unknown }[];
    expect(listed.map(({ name, accountId, account }) => ({ name, accountId, account }))).to.deep.equal([
      { name: 'ci', accountId: first.accountId, account: { email: 'team@example.com', plan: 'standard', creditsBalance: 40 } },
      { name: 'solo', accountId: other.accountId, account: { email: 'solo@mediagate.local', plan: 'standard', creditsBalance: 7 } },
      { name: 'deploy', accountId: first.accountId, account: { email: 'team@example.com', plan: 'standard', creditsBalance: 40 } },
      { name: 'laptop', accountId: first.accountId, account: { email: 'team@example.com', plan: 'standard', creditsBalance: 40 } },
    ]);
    const text = (await run('keys', 'list')).split('\n');
    expect(text[0]).to.equal(`${first.accountId}  team@example.com  plan standard  balance 40 credits`);
    expect(text.slice(1, 4).map((line) => line.split('  ').slice(1, 4).join(' | '))).to.deep.equal([
      `${first.id} | ${first.key.slice(0, 11)}… | ci`,
      `${byAccount.id} | ${prefix}… | deploy`,
      `${byKeyPrefix.id} | ${byKeyPrefix.key.slice(0, 11)}… | laptop`,
    ]);
    expect(text[4]).to.equal(`${other.accountId}  solo@mediagate.local  plan standard  balance 7 credits`);
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
