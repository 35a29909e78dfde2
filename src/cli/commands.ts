/**
 * Every `mediagate` command as data: its words, its positional argument, its options with their help. The parser
 * (command-line.ts) checks an invocation against this table and the help text is rendered from it, so a command's
 * `--help`, its usage line in the error for a wrong option, and what it accepts can never disagree.
 */

export interface OptionSpec {
  type: 'string' | 'boolean';
  /** Placeholder shown in the usage line, e.g. `N` in `--credits N`. */
  value?: string;
  required?: boolean;
  help: string;
}

export interface CommandSpec {
  /** The words after `mediagate`, e.g. `['keys', 'create']`. */
  words: string[];
  /** The positional argument, if the command takes one. */
  argument?: { name: string; required: boolean; help: string };
  summary: string;
  options: Record<string, OptionSpec>;
}

const json: OptionSpec = { type: 'boolean', help: 'print one JSON object (or array) instead of text' };
const email: OptionSpec = { type: 'string', value: 'E', required: true, help: 'the user\'s e-mail' };
const account: OptionSpec = { type: 'string', value: '<account id or key prefix>', required: true, help: 'the account: its id, or the id or prefix of one of its API keys' };

export const commands: readonly CommandSpec[] = [
  {
    words: ['start'],
    argument: { name: 'all|api|worker', required: false, help: 'all (default): API, worker and sweeper in one process; api: HTTP only; worker: jobs only (api and worker need MEDIAGATE_AMQP_URL)' },
    summary: 'Run the service.',
    options: {},
  },
  { words: ['migrate'], summary: 'Create or upgrade the database schema.', options: {} },
  {
    words: ['keys', 'create'],
    summary: 'Create an API key: for a new account, or with --account for an existing one. The key is printed once.',
    options: {
      name: { type: 'string', value: 'N', required: true, help: 'the key name' },
      scopes: { type: 'string', value: 'S', help: 'comma-separated: requests:read, requests:write (default both)' },
      account: { ...account, required: false, help: 'add the key to this existing account (its id, or the id or prefix of one of its keys) instead of creating one' },
      credits: { type: 'string', value: 'N', help: 'opening balance of the new account (default 0)' },
      email: { type: 'string', value: 'E', help: 'e-mail of the new account (default <name>@mediagate.local)' },
      plan: { type: 'string', value: 'P', help: 'plan of the new account (default standard)' },
      json,
    },
  },
  { words: ['keys', 'list'], summary: 'List every API key by account, with the account\'s credit balance.', options: { json } },
  {
    words: ['keys', 'revoke'],
    argument: { name: '<key id or prefix>', required: true, help: 'the key to revoke' },
    summary: 'Revoke an API key: no API process admits or charges a create for it once this returns.',
    options: {},
  },
  {
    words: ['credits', 'grant'],
    summary: 'Add credits to the account of a key.',
    options: {
      key: { type: 'string', value: '<key id or prefix>', required: true, help: 'a key of the account' },
      amount: { type: 'string', value: 'N', required: true, help: 'credits to add (a non-negative integer)' },
      json,
    },
  },
  {
    words: ['users', 'create'],
    summary: 'Add a console user (e-mail and password) as a member of an account.',
    options: {
      email,
      account,
      role: { type: 'string', value: 'R', help: 'owner (default), admin, developer or viewer' },
      'password-file': { type: 'string', value: 'F', help: 'read the password from the first line of F (default: a generated one, printed once)' },
      json,
    },
  },
  {
    words: ['users', 'invite'],
    summary: 'Make an e-mail a member of an account; a new user gets a one-time password, printed once.',
    options: {
      email,
      account,
      role: { type: 'string', value: 'owner|admin|developer|viewer', required: true, help: 'the member\'s role' },
      json,
    },
  },
  { words: ['oauth', 'rotate-signing-key'], summary: 'Make a new OAuth signing key (restart the API processes to sign with it).', options: {} },
];
