/**
 * The `mediagate` command line: start the service, migrate the schema, manage keys, credits and console users.
 * Every command, its argument and its options are in commands.ts (`mediagate --help`, `mediagate <command> --help`).
 * A wrong invocation or a bad value is answered with what is wrong and the usage, exit code 2; a broken setting or
 * manifest with its name, exit code 78; never with a stack trace unless MEDIAGATE_LOG_LEVEL asks for debugging.
 */
import type { Settings } from '../kernel/config/index.js';
import type { TracingHandle } from '../kernel/observability/tracing-switch.js';
import { CommandLineError, packageVersion, parseCommandLine, usageLine, type Invocation } from './command-line.js';

type RunInvocation = Extract<Invocation, { kind: 'run' }>;

const roles = ['all', 'api', 'worker'] as const;

async function main(argv: string[]): Promise<number> {
  const invocation = parseCommandLine(argv);
  if (invocation.kind !== 'run') {
    process.stdout.write(`${invocation.text}\n`);
    return 0;
  }
  const starting = invocation.command.words[0] === 'start';
  // Before anything else of the service is imported: OpenTelemetry patches modules as they load (docs/tracing.md).
  // Only `start` traces; the one-shot commands have nothing worth a trace.
  const tracing = starting ? await startTracingFor(invocation) : undefined;
  // The kernel is imported only now: help and version answer without loading it, and only `start` needs HTTP.
  const { loadSettings } = await import('../kernel/config/index.js');
  const settings = loadSettings();
  if (starting) return start(invocation, settings, tracing);
  const [{ runAdminCommand }, { UserInputError }] = await Promise.all([import('./admin-commands.js'), import('../kernel/accounts/index.js')]);
  try {
    return await runAdminCommand(settings, invocation);
  } catch (error) {
    if (!(error instanceof UserInputError)) throw error;
    const name = invocation.command.words.join(' ');
    throw new CommandLineError(`${name}: ${error.message}`, usageLine(invocation.command), `mediagate ${name} --help`);
  }
}

async function startTracingFor(invocation: RunInvocation): Promise<TracingHandle | undefined> {
  const { startTracing } = await import('../kernel/observability/tracing-switch.js');
  return startTracing({ role: invocation.argument ?? 'all', version: packageVersion() });
}

async function start(invocation: RunInvocation, settings: Settings, tracing: TracingHandle | undefined): Promise<number> {
  const role = invocation.argument ?? 'all';
  if (!(roles as readonly string[]).includes(role)) {
    throw new CommandLineError(`start: the role must be all, api or worker, not ${role}`, usageLine(invocation.command), 'mediagate start --help');
  }
  if (role !== 'all' && !settings.queue.url) {
    // With the in-process queue an API process's jobs could never reach a separate worker.
    process.stderr.write(`mediagate start ${role}: separate api and worker processes need a shared queue; set MEDIAGATE_AMQP_URL (or use "start all")\n`);
    return 2;
  }
  const { startService } = await import('./serve.js');
  const service = await startService(settings, { role: role as (typeof roles)[number], defaultMetrics: true });
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
    // The spans still buffered go out after the last job's: stopping the service lets in-flight work finish first.
    service.stop().then(() => tracing?.shutdown()).then(
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

/** What the user sees when a command fails, and its exit code (sysexits: 2 usage, 78 configuration). */
async function report(error: unknown): Promise<number> {
  if (error instanceof CommandLineError) {
    process.stderr.write(`mediagate: ${error.message}\nusage:\n${indent(error.usage)}\nRun "${error.helpCommand}" for details.\n`);
    return 2;
  }
  const [{ SettingsError }, { ManifestError }] = await Promise.all([import('../kernel/config/index.js'), import('../kernel/manifests/index.js')]);
  if (error instanceof SettingsError || error instanceof ManifestError) {
    process.stderr.write(`mediagate: ${error.message}\n`);
    return 78;
  }
  // A failure of ours or of a dependency (database unreachable, disk full): the message says which; the stack
  // helps only whoever debugs it.
  const debugging = ['debug', 'trace'].includes(process.env.MEDIAGATE_LOG_LEVEL ?? '');
  const text = error instanceof Error ? (debugging ? error.stack ?? error.message : error.message) : String(error);
  process.stderr.write(`mediagate: ${text}\n${debugging ? '' : 'Set MEDIAGATE_LOG_LEVEL=debug to see where it failed.\n'}`);
  return 1;
}

function indent(lines: string): string {
  return lines
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  async (error) => process.exit(await report(error)),
);
