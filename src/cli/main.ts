/**
 * The `mediagate` command line: start the service, migrate the schema, manage keys and credits.
 *   mediagate start all|api|worker
 *   mediagate migrate
 *   mediagate keys create --name N --scopes requests:read,requests:write --credits 1000 [--email E] [--plan P] [--json]
 *   mediagate keys list [--json]
 *   mediagate keys revoke <key id or prefix>
 *   mediagate credits grant --key <key id or prefix> --amount N
 *   mediagate users create --email E --account <account id or key prefix> [--role owner] [--password-file F] [--json]
 *   mediagate users invite --email E --account <account id or key prefix> --role owner|admin|developer|viewer [--json]
 *   mediagate oauth rotate-signing-key
 */
import { parseArgs } from 'node:util';
import { loadSettings, SettingsError } from '../kernel/config/index.js';
import { ManifestError } from '../kernel/manifests/index.js';
import { runAdminCommand } from './admin-commands.js';
import { startService } from './serve.js';

const usage = `usage:
  mediagate start all|api|worker
  mediagate migrate
  mediagate keys create --name N [--scopes requests:read,requests:write] [--credits N] [--email E] [--plan P] [--json]
  mediagate keys list [--json]
  mediagate keys revoke <key id or prefix>
  mediagate credits grant --key <key id or prefix> --amount N
  mediagate users create --email E --account <account id or key prefix> [--role owner] [--password-file F] [--json]
  mediagate users invite --email E --account <account id or key prefix> --role owner|admin|developer|viewer [--json]
  mediagate oauth rotate-signing-key`;

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      scopes: { type: 'string' },
      credits: { type: 'string' },
      email: { type: 'string' },
      plan: { type: 'string' },
      key: { type: 'string' },
      amount: { type: 'string' },
      account: { type: 'string' },
      role: { type: 'string' },
      'password-file': { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help || positionals.length === 0) {
    process.stdout.write(`${usage}\n`);
    return values.help ? 0 : 2;
  }
  const settings = loadSettings();
  const [command, sub] = positionals;
  if (command === 'start') {
    const role = sub ?? 'all';
    if (role !== 'all' && role !== 'api' && role !== 'worker') {
      process.stderr.write(`mediagate start ${role}: the role must be all, api or worker\n`);
      return 2;
    }
    if (role !== 'all' && !settings.queue.url) {
      // With the in-process queue an API process's jobs could never reach a separate worker.
      process.stderr.write(`mediagate start ${role}: separate api and worker processes need a shared queue; set MEDIAGATE_AMQP_URL (or use "start all")\n`);
      return 2;
    }
    const service = await startService(settings, { role, defaultMetrics: true });
    const { log } = service.gateway;
    if (service.devKey?.created) {
      // Printed once, on the first start only; the same key is in the file for later.
      process.stdout.write(`\nDevelopment API key (shown once; also saved to ${service.devKey.keyFile}):\n  ${service.devKey.plaintext}\n\n`);
    }
    const owner = service.devKey?.owner;
    // Only where the password is: it stays out of terminals' scrollback and of any captured output.
    if (owner) process.stdout.write(`Console sign-in at ${settings.server.public_url}/console: ${owner.email}, password in ${owner.passwordFile}\n\n`);
    log.info({ role, url: service.url, publicUrl: settings.server.public_url, operations: service.gateway.registry.names().length }, role === 'worker' ? 'mediagate worker is running' : 'mediagate is serving');
    const shutdown = (signal: string) => {
      log.info({ signal }, 'shutting down');
      service.stop().then(
        () => process.exit(0),
        (error) => {
          log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    };
    process.once('SIGINT', () => shutdown('SIGINT'));
    process.once('SIGTERM', () => shutdown('SIGTERM'));
    return -1;
  }
  return runAdminCommand(settings, positionals, values);
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error) => {
    if (error instanceof SettingsError || error instanceof ManifestError) {
      process.stderr.write(`mediagate: ${error.message}\n`);
      process.exit(78);
    }
    process.stderr.write(`mediagate: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
