/**
 * `npm run mirror -- <command> --url URL --base appXXX --data DIR`: the app's mirrors (services/mirror) from a
 * terminal, for automation and tests. The key of the hosted service comes from TABLEDESK_API_KEY, never from
 * the command line (which other users can read in the process list). The data folder is the app's own (its
 * embedded server, `local-server/`, holds the copies), so `status` and `conflicts` list what the app shows.
 * Every line printed is one JSON object; failures are `{"error": "…"}` on stdout with exit code 1 (2 for a
 * command line that does not make sense, checked before anything is touched: host/mirror-cli-args.ts). A first pull that fails before anything is copied leaves nothing:
 * no mirror, and no data folder if this run made it.
 */
import { RecordTableClient } from '../core/api/index';
import { invariant } from '../core/invariant';
import { startEmbeddedServer } from '../services/embedded-server';
import { createFileVault } from '../services/keys/file-vault';
import { createMirrors } from '../services/mirror/index';
import type { MirrorResolution, Mirrors } from '../services/mirror/index';
import { privateDirSync } from '../services/storage/private-files';
import { ServiceError } from '../services/errors';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { USAGE, readCommandLine } from './mirror-cli-args';

const print = (o: object) => process.stdout.write(`${JSON.stringify(o)}\n`);

const line = readCommandLine(process.argv.slice(2), process.env.TABLEDESK_API_KEY);
if (line.kind === 'help') {
  process.stdout.write(USAGE);
  process.exit(0);
}
if (line.kind === 'misuse') {
  print({ error: line.message });
  process.stderr.write(USAGE);
  process.exit(2);
}
const opts = line.run;
const { command, dataDir } = opts;
/** A data folder this run makes is removed again if the run leaves nothing in it (a first pull refused). */
const existed = existsSync(dataDir);
if (!existed && command !== 'pull') {
  print({ error: `No TableDesk data folder at ${dataDir}` });
  process.exit(1);
}

async function run(mirrors: Mirrors): Promise<void> {
  const { baseId } = opts;
  const ofBase = async () => {
    const found = (await mirrors.list()).find((m) => baseId === undefined || m.source.baseId === baseId);
    if (!found) throw new ServiceError('not-found', `No mirror of ${baseId ?? 'any base'} in ${dataDir}`);
    return found;
  };
  switch (command) {
    case 'pull': {
      const summary = await mirrors.makeAvailableOffline(
        {
          connectionId: opts.connectionId,
          baseId: baseId!,
          ...(opts.tableIds ? { tableIds: opts.tableIds } : {}),
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
        if (baseId === undefined || m.source.baseId === baseId) print({ mirror: m });
      return;
    case 'conflicts':
      for (const c of await mirrors.conflicts((await ofBase()).id)) print({ conflict: c });
      return;
    case 'resolve': {
      const m = await ofBase();
      const ids = opts.all ? (await mirrors.conflicts(m.id)).map((c) => c.id) : opts.conflictIds;
      const resolutions: MirrorResolution[] = ids.map((conflictId) => ({
        conflictId,
        choice: opts.choice!,
        ...(opts.choice === 'edit' ? { value: opts.value } : {}),
      }));
      print(await mirrors.resolve(m.id, resolutions));
      print({ mirror: await ofBase() });
      return;
    }
    case 'remove': {
      const m = await ofBase();
      await mirrors.remove(m.id, { force: opts.force });
      print({ removed: { id: m.id, baseId: m.source.baseId, localChanges: m.localChanges } });
      return;
    }
  }
}

async function main(): Promise<void> {
  const client =
    opts.remote && new RecordTableClient({ baseUrl: opts.remote.url, apiKey: opts.remote.apiKey });
  privateDirSync(dataDir);
  const local = await startEmbeddedServer({
    userDataDir: dataDir,
    vault: createFileVault(join(dataDir, 'keys.json')),
    rateLimit: opts.localRateLimit,
    largeTableRecords: 0,
  });
  const mirrors = createMirrors({
    dataDir,
    clientFor: () => {
      invariant(client, 'a command that needs the service has a --url (the command line refused it, exit 2)');
      return client;
    },
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
