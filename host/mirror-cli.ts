/**
 * `npm run mirror -- <command> --url URL --base appXXX --data DIR`: the app's mirrors (services/mirror) from a
 * terminal, for automation and tests. The key of the hosted service comes from TABLEDESK_API_KEY, never from
 * the command line (which other users can read in the process list). The data folder is the app's own (its
 * embedded server, `local-server/`, holds the copies), so `status` and `conflicts` list what the app shows.
 * Every line printed is one JSON object; failures are `{"error": "…"}` on stdout with exit code 1 (2 for a
 * command line that does not make sense). A first pull that fails before anything is copied leaves nothing:
 * no mirror, and no data folder if this run made it.
 */
import { parseArgs } from 'node:util';
import { RecordTableClient } from '../core/api/index';
import { startEmbeddedServer } from '../services/embedded-server';
import { createFileVault } from '../services/keys/file-vault';
import { createMirrors } from '../services/mirror/index';
import type { MirrorResolution, Mirrors } from '../services/mirror/index';
import { privateDirSync } from '../services/storage/private-files';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const COMMANDS = ['pull', 'push', 'status', 'conflicts', 'resolve', 'remove'] as const;
type Command = (typeof COMMANDS)[number];

const USAGE = `Usage: TABLEDESK_API_KEY=… npm run mirror -- <command> [options]

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
  --help           this text

The key of the service is read from TABLEDESK_API_KEY, never from the command line. Each line printed is
one JSON object: progress, mirror, result, conflict, removed, or error (exit code 1).
`;

const print = (o: object) => process.stdout.write(`${JSON.stringify(o)}\n`);

function fail(message: string, code = 2): never {
  print({ error: message });
  process.exit(code);
}

function args() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
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
      },
    });
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
}

const { values, positionals } = args();
if (values.help || positionals[0] === 'help') {
  process.stdout.write(USAGE);
  process.exit(0);
}
const command = positionals[0] as Command | undefined;
if (!command || !COMMANDS.includes(command))
  fail(`Give one of: ${COMMANDS.join(', ')} (--help says what each does)`);
if (!values.data) fail('--data DIR (the app data folder) is required');
const dataDir = values.data;
/** A data folder this run makes is removed again if the run leaves nothing in it (a first pull refused). */
const existed = existsSync(dataDir);
if (!existed && command !== 'pull') fail(`No TableDesk data folder at ${dataDir}`, 1);
const connectionId = values.connection ?? 'cli';

async function run(mirrors: Mirrors): Promise<void> {
  const ofBase = async () => {
    const found = (await mirrors.list()).find(
      (m) => values.base === undefined || m.source.baseId === values.base,
    );
    if (!found) fail(`No mirror of ${values.base ?? 'any base'} in ${dataDir}`, 1);
    return found;
  };
  switch (command) {
    case 'pull': {
      if (!values.base) fail('--base appXXX is required');
      const summary = await mirrors.makeAvailableOffline(
        {
          connectionId,
          baseId: values.base,
          ...(values.tables ? { tableIds: values.tables.split(',') } : {}),
        },
        (p) => print({ progress: p }),
      );
      print({ mirror: summary });
      return;
    }
    case 'push': {
      const m = await ofBase();
      print({ result: await mirrors.sync(m.id, (p) => print({ progress: p })) });
      print({ mirror: await ofBase() });
      return;
    }
    case 'status':
      for (const m of await mirrors.list())
        if (values.base === undefined || m.source.baseId === values.base) print({ mirror: m });
      return;
    case 'conflicts':
      for (const c of await mirrors.conflicts((await ofBase()).id)) print({ conflict: c });
      return;
    case 'resolve': {
      const choice = values.choice;
      if (choice !== 'mine' && choice !== 'theirs' && choice !== 'edit')
        fail('--choice mine, theirs or edit is required');
      let value: unknown;
      if (choice === 'edit') {
        if (values.value === undefined) fail('--choice edit needs --value JSON');
        try {
          value = JSON.parse(values.value) as unknown;
        } catch {
          fail('--value must be JSON (a string in quotes: \'"text"\')');
        }
      }
      const m = await ofBase();
      const ids = values.all ? (await mirrors.conflicts(m.id)).map((c) => c.id) : (values.conflict ?? []);
      if (ids.length === 0) fail('Give --conflict ID (repeatable) or --all');
      const resolutions: MirrorResolution[] = ids.map((conflictId) => ({
        conflictId,
        choice,
        ...(choice === 'edit' ? { value } : {}),
      }));
      print(await mirrors.resolve(m.id, resolutions));
      print({ mirror: await ofBase() });
      return;
    }
    case 'remove': {
      if (!values.base) fail('--base appXXX is required');
      const m = await ofBase();
      await mirrors.remove(m.id, { force: values.force });
      print({ removed: { id: m.id, baseId: m.source.baseId, localChanges: m.localChanges } });
      return;
    }
  }
}

async function main(): Promise<void> {
  const apiKey = process.env.TABLEDESK_API_KEY;
  const needsRemote = command === 'pull' || command === 'push' || command === 'resolve';
  if (needsRemote && !values.url) fail('--url of the hosted service is required');
  if (needsRemote && !apiKey) fail('Set TABLEDESK_API_KEY to the key of the hosted service');
  const rate = values['local-rate-limit'];
  privateDirSync(dataDir);
  const local = await startEmbeddedServer({
    userDataDir: dataDir,
    vault: createFileVault(join(dataDir, 'keys.json')),
    rateLimit: rate === 'off' ? 'off' : Number(rate),
    largeTableRecords: 0,
  });
  const client = values.url && apiKey ? new RecordTableClient({ baseUrl: values.url, apiKey }) : undefined;
  const mirrors = createMirrors({
    dataDir,
    clientFor: () => client ?? fail('--url and TABLEDESK_API_KEY are needed to reach the service'),
    local: { connectionId: 'demo', url: local.url, apiKey: local.apiKey },
  });
  let empty = false;
  try {
    await run(mirrors);
  } catch (error) {
    empty = !existed && (await mirrors.list().catch(() => [])).length === 0;
    throw error;
  } finally {
    mirrors.close();
    await local.close();
    if (empty) rmSync(dataDir, { recursive: true, force: true });
  }
}

process.on('SIGINT', () => process.exit(130));
main().catch((error: unknown) => {
  print({ error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
