/**
 * Reads `mediagate ...` arguments against the command table: `--version`, `--help` (of everything, of a command
 * group such as `keys`, of one command), or a command with its checked options. Anything wrong is a
 * `CommandLineError` carrying the usage to print; nothing here touches settings, the database or the network,
 * so help and version answer on a machine with no configuration at all.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { commands, type CommandSpec, type OptionSpec } from './commands.js';

export type OptionValues = Record<string, string | boolean | undefined>;

export type Invocation =
  | { kind: 'version'; text: string }
  | { kind: 'help'; text: string }
  | { kind: 'run'; command: CommandSpec; argument?: string; values: OptionValues };

/** A wrong invocation: printed as its message and the usage that applies, never as a stack trace. */
export class CommandLineError extends Error {
  constructor(
    message: string,
    /** Usage lines of the command (or group, or all commands) the user was trying to run. */
    readonly usage: string,
    /** What to run for the details, e.g. `mediagate keys create --help`. */
    readonly helpCommand: string,
  ) {
    super(message);
    this.name = 'CommandLineError';
  }
}

export function parseCommandLine(argv: readonly string[]): Invocation {
  const [first, ...rest] = argv;
  if (first === '--version' || first === '-v') return { kind: 'version', text: `mediagate ${packageVersion()}` };
  if (first === 'help') return { kind: 'help', text: helpFor(rest) };
  const words = leadingWords(argv);
  const asksHelp = argv.includes('--help') || argv.includes('-h');
  if (words.length === 0) {
    if (asksHelp) return { kind: 'help', text: overallHelp() };
    throw new CommandLineError(argv.length === 0 ? 'no command given' : `unknown option ${argv[0]}`, allUsage(), 'mediagate --help');
  }
  const command = findCommand(words);
  if (!command) {
    const group = commands.filter((spec) => spec.words[0] === words[0]);
    if (group.length > 0 && words.length === 1 && asksHelp) return { kind: 'help', text: groupHelp(words[0]) };
    if (group.length > 0) {
      const known = group.map((spec) => spec.words.slice(1).join(' ')).join(', ');
      const what = words.length === 1 ? `${words[0]} needs a command` : `unknown command ${words.slice(0, 2).join(' ')}`;
      throw new CommandLineError(`${what}; the ${words[0]} commands are ${known}`, group.map(usageLine).join('\n'), `mediagate ${words[0]} --help`);
    }
    throw new CommandLineError(`unknown command ${words[0]}${didYouMean(words[0], [...new Set(commands.map((spec) => spec.words[0]))])}`, allUsage(), 'mediagate --help');
  }
  if (asksHelp) return { kind: 'help', text: commandHelp(command) };
  return checkedInvocation(command, argv.slice(command.words.length));
}

/** The suggestion for a mistyped word, e.g. ` (did you mean requests:write?)`; empty when nothing is close. */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const scored = candidates.map((candidate) => ({ candidate, distance: editDistance(word, candidate) }));
  const best = scored.sort((a, b) => a.distance - b.distance)[0];
  return best && best.distance > 0 && best.distance <= Math.max(2, Math.floor(word.length / 4)) ? ` (did you mean ${best.candidate}?)` : '';
}

export function usageLine(spec: CommandSpec): string {
  const parts = ['mediagate', ...spec.words];
  if (spec.argument) parts.push(spec.argument.required ? spec.argument.name : `[${spec.argument.name}]`);
  for (const [name, option] of Object.entries(spec.options)) {
    const shown = option.type === 'boolean' ? `--${name}` : `--${name} ${option.value ?? 'V'}`;
    parts.push(option.required ? shown : `[${shown}]`);
  }
  return parts.join(' ');
}

export function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return manifest.version;
}

function checkedInvocation(command: CommandSpec, args: string[]): Invocation {
  const name = `mediagate ${command.words.join(' ')}`;
  const fail = (message: string) => new CommandLineError(`${command.words.join(' ')}: ${message}`, usageLine(command), `${name} --help`);
  let parsed: { values: OptionValues; positionals: string[] };
  try {
    parsed = parseArgs({ args, options: parseArgsOptions(command.options), allowPositionals: true, strict: true }) as { values: OptionValues; positionals: string[] };
  } catch (error) {
    throw fail(describeParseError(error, command));
  }
  const { values, positionals } = parsed;
  if (positionals.length > (command.argument ? 1 : 0)) throw fail(`unexpected argument ${positionals[command.argument ? 1 : 0]}`);
  if (command.argument?.required && positionals.length === 0) throw fail(`needs ${command.argument.name}`);
  for (const [option, spec] of Object.entries(command.options)) {
    if (spec.required && values[option] === undefined) throw fail(`needs --${option} ${spec.value ?? ''}`.trimEnd());
  }
  return { kind: 'run', command, argument: positionals[0], values };
}

function parseArgsOptions(options: Record<string, OptionSpec>) {
  return Object.fromEntries(Object.entries(options).map(([name, option]) => [name, { type: option.type }]));
}

/** node:util's messages explain its own API (`place it at the end of the command after '--'`); ours name the fix. */
function describeParseError(error: unknown, command: CommandSpec): string {
  const { code, message } = error as { code?: string; message: string };
  const quoted = /'(-[^' ]+)/.exec(message)?.[1] ?? '';
  const known = Object.keys(command.options).map((name) => `--${name}`);
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    return known.length === 0 ? `takes no options; ${quoted} is not one` : `unknown option ${quoted}${didYouMean(quoted, known)}; the options are ${known.join(', ')}`;
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const option = command.options[quoted.replace(/^--/, '')];
    if (option?.type === 'boolean') return `${quoted} takes no value`;
    // A value that starts with `-` reads as another option unless it is attached.
    return `${quoted} needs a value${option?.value ? ` (${option.value})` : ''}; write ${quoted}=<value> for a value that starts with -`;
  }
  if (error instanceof Error) return message.split('\n')[0] ?? message;
  return String(error);
}

function leadingWords(argv: readonly string[]): string[] {
  const words: string[] = [];
  for (const token of argv) {
    if (token.startsWith('-')) break;
    words.push(token);
  }
  return words;
}

function findCommand(words: readonly string[]): CommandSpec | undefined {
  return commands.find((spec) => spec.words.every((word, index) => words[index] === word));
}

function helpFor(words: readonly string[]): string {
  if (words.length === 0) return overallHelp();
  const command = findCommand(words);
  if (command) return commandHelp(command);
  if (commands.some((spec) => spec.words[0] === words[0])) return groupHelp(words[0]!);
  throw new CommandLineError(`no help for ${words.join(' ')}: there is no such command`, allUsage(), 'mediagate --help');
}

function allUsage(): string {
  return commands.map(usageLine).join('\n');
}

function overallHelp(): string {
  return [
    `mediagate ${packageVersion()}: the media-generation gateway's command line`,
    '',
    'usage:',
    ...commands.map((spec) => `  ${usageLine(spec)}`),
    '',
    '  mediagate <command> --help    what a command does and its options',
    '  mediagate --version           the version',
    '',
    'Settings come from config/default.yaml, config/<MEDIAGATE_ENV>.yaml and MEDIAGATE_* variables (README, "Configuration").',
  ].join('\n');
}

function groupHelp(group: string): string {
  const members = commands.filter((spec) => spec.words[0] === group);
  return [`mediagate ${group} commands:`, ...members.flatMap((spec) => ['', `  ${usageLine(spec)}`, `      ${spec.summary}`]), '', `mediagate ${group} <command> --help shows a command's options.`].join('\n');
}

function commandHelp(spec: CommandSpec): string {
  const rows: [string, string][] = [];
  if (spec.argument) rows.push([spec.argument.name, spec.argument.help]);
  for (const [name, option] of Object.entries(spec.options)) {
    const label = option.type === 'boolean' ? `--${name}` : `--${name} ${option.value ?? 'V'}`;
    rows.push([label, `${option.help}${option.required ? ' (required)' : ''}`]);
  }
  rows.push(['-h, --help', 'show this help']);
  const width = Math.max(...rows.map(([label]) => label.length));
  return [`usage: ${usageLine(spec)}`, '', spec.summary, '', ...rows.map(([label, text]) => `  ${label.padEnd(width)}  ${text}`)].join('\n');
}

/** Levenshtein distance, with an adjacent swap counted once (`wirte` is one slip from `write`). */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}
