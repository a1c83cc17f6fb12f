/**
 * The mirror CLI's command line (host/mirror-cli.ts), checked whole before anything touches the disk or the
 * network: a misuse (an unknown option or command, an argument missing or malformed) then leaves nothing
 * behind, whichever command it is.
 */
import { parseArgs } from 'node:util';

export const COMMANDS = ['pull', 'push', 'status', 'conflicts', 'resolve', 'remove'] as const;
export type Command = (typeof COMMANDS)[number];

export const USAGE = `Usage: TABLEDESK_API_KEY=… npm run mirror -- <command> [options]

Commands:
  pull       make the base available offline (the first pull, resumed where it stopped), or refresh it
  push       sync: pull what changed remotely, then push what changed here
  status     the mirrors of the base (or all with no --base)
  conflicts  the conflicts of the base's mirror
  resolve    --conflict ID (repeatable) or --all, --choice mine|theirs|edit [--value JSON]
  remove     the base's offline copy and all the mirror keeps of it (--force when local changes or
             conflicts are not synced: they are lost)

Options:
  --url URL        the hosted service (pull, push, resolve)
  --base appXXX    the hosted base
  --data DIR       the app's data folder (required; do not use it while the app runs on it)
  --tables IDS     pull: only these tables, comma-separated
  -h, --help       this text

The key of the service is read from TABLEDESK_API_KEY, never from the command line. Each line printed is
one JSON object: progress, mirror, result, conflict, removed, or error (exit code 1; 2 for a command line
that does not make sense, with this text on stderr).
`;

export type Choice = 'mine' | 'theirs' | 'edit';

/** A command line that makes sense: what the CLI runs. */
export interface MirrorCliRun {
  command: Command;
  dataDir: string;
  connectionId: string;
  /** The service and its key: for pull, push and resolve. */
  remote?: { url: string; apiKey: string };
  baseId?: string;
  tableIds?: string[];
  /** resolve: the conflicts (none with `all`), the choice, and the value of an edit. */
  conflictIds: string[];
  all: boolean;
  choice?: Choice;
  value?: unknown;
  force: boolean;
  localRateLimit: number | 'off';
}

export type CommandLine =
  { kind: 'help' } | { kind: 'misuse'; message: string } | { kind: 'run'; run: MirrorCliRun };

const OPTIONS = {
  url: { type: 'string' },
  base: { type: 'string' },
  data: { type: 'string' },
  connection: { type: 'string' },
  tables: { type: 'string' },
  conflict: { type: 'string', multiple: true },
  all: { type: 'boolean', default: false },
  choice: { type: 'string' },
  value: { type: 'string' },
  force: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  'local-rate-limit': { type: 'string', default: '5' },
} as const;

/** The local server's own limit is a few requests a second; more than this is a typing error. */
const MAX_LOCAL_RATE = 1000;

class Misuse extends Error {}

const misuse = (message: string): never => {
  throw new Misuse(message);
};

/** `argv` without the node and script paths; `apiKey` from the environment. */
export function readCommandLine(argv: readonly string[], apiKey: string | undefined): CommandLine {
  // Asked for help anywhere before a `--`, help is what the user gets, whatever else is wrong.
  const options = argv.slice(0, argv.includes('--') ? argv.indexOf('--') : argv.length);
  if (options.includes('--help') || options.includes('-h')) return { kind: 'help' };
  try {
    let parsed: Parsed;
    try {
      parsed = parse(argv);
    } catch (error) {
      return misuse(error instanceof Error ? error.message : String(error));
    }
    const { values, positionals } = parsed;
    if (positionals[0] === 'help') return { kind: 'help' };
    return { kind: 'run', run: checked(values, positionals, apiKey) };
  } catch (error) {
    if (error instanceof Misuse) return { kind: 'misuse', message: error.message };
    throw error;
  }
}

const parse = (argv: readonly string[]) =>
  parseArgs({ args: [...argv], allowPositionals: true, options: OPTIONS });
type Parsed = ReturnType<typeof parse>;
type Values = Parsed['values'];

function checked(values: Values, positionals: string[], apiKey: string | undefined): MirrorCliRun {
  const [name, ...extra] = positionals;
  if (name === undefined) misuse(`Give one of: ${COMMANDS.join(', ')} (--help says what each does)`);
  const command =
    COMMANDS.find((c) => c === name) ?? misuse(`No command "${name}": give one of ${COMMANDS.join(', ')}`);
  if (extra.length > 0) misuse(`Unexpected argument "${extra[0]}" after ${command}`);
  const dataDir = values.data || misuse('--data DIR (the app data folder) is required');
  const needsRemote = command === 'pull' || command === 'push' || command === 'resolve';
  const remote = needsRemote
    ? {
        url: serviceUrl(values.url ?? misuse('--url of the hosted service is required')),
        apiKey: apiKey || misuse('Set TABLEDESK_API_KEY to the key of the hosted service'),
      }
    : undefined;
  if ((command === 'pull' || command === 'remove') && !values.base) misuse('--base appXXX is required');
  let tableIds: string[] | undefined;
  if (values.tables !== undefined) {
    tableIds = values.tables
      .split(',')
      .map((t) => t.trim())
      .filter((t) => t.length > 0);
    if (tableIds.length === 0) misuse('--tables needs table ids, comma-separated');
  }
  const run: MirrorCliRun = {
    command,
    dataDir,
    connectionId: values.connection || 'cli',
    ...(remote ? { remote } : {}),
    ...(values.base ? { baseId: values.base } : {}),
    ...(tableIds ? { tableIds } : {}),
    conflictIds: values.conflict ?? [],
    all: values.all,
    force: values.force,
    localRateLimit: localRate(values['local-rate-limit']),
  };
  if (command === 'resolve') resolution(run, values);
  return run;
}

function serviceUrl(text: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (url?.protocol !== 'https:' && url?.protocol !== 'http:')
    misuse(`--url must be the service's http(s) address, not "${text.slice(0, 200)}"`);
  return text;
}

function localRate(text: string): number | 'off' {
  if (text === 'off') return 'off';
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > MAX_LOCAL_RATE)
    misuse(`--local-rate-limit must be off or requests a second, 1 to ${MAX_LOCAL_RATE}`);
  return n;
}

/** resolve's choice, its value, and which conflicts (all, or those named). */
function resolution(run: MirrorCliRun, values: Values): void {
  const choice = values.choice;
  if (choice !== 'mine' && choice !== 'theirs' && choice !== 'edit')
    return misuse('--choice mine, theirs or edit is required');
  run.choice = choice;
  if (choice === 'edit') {
    const text = values.value ?? misuse('--choice edit needs --value JSON');
    try {
      run.value = JSON.parse(text) as unknown;
    } catch {
      misuse('--value must be JSON (a string in quotes: \'"text"\')');
    }
  }
  const named = run.conflictIds.length > 0;
  if (run.all === named) misuse('Give --conflict ID (repeatable) or --all, one of the two');
}
