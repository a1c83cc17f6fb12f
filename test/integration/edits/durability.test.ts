import { spawn } from 'node:child_process';
import { appendFile, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RecordTableClient } from '../../../core/api';
import type { Response } from '../../../core/contract';
import { startServer } from '../../../server/index';
import type { RunningServer } from '../../../server/index';
import { journalDir } from '../../../services/edits';

const child = join(import.meta.dirname, 'fixtures', 'edit-services-child.ts');

/** Runs the child until it prints a line starting with `until`; returns that line and the process. */
function runChild(args: object, until: string) {
  // tsx as a loader in this node process (not the tsx CLI, which would run a grandchild SIGKILL cannot reach).
  const proc = spawn(process.execPath, ['--import', 'tsx', child, JSON.stringify(args)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const line = new Promise<string>((resolve, reject) => {
    proc.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const found = out.split('\n').find((l) => l.startsWith(until));
      if (found !== undefined) resolve(found);
    });
    proc.on('exit', (code) => reject(new Error(`child exited (${code}) before "${until}": ${err}`)));
  });
  return { proc, line };
}

/** Accepts connections and never answers: requests sent there never reach the service. */
async function blackhole(): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

describe('journal durability across a killed services process', () => {
  it(
    'applies each journaled edit exactly once after SIGKILL and restart, and lists an interrupted create as unknown',
    { timeout: 60_000 },
    async () => {
      const patches: string[] = [];
      let seenPosts = 0;
      const server: RunningServer = await startServer({
        memory: true,
        demo: { largeTableRecords: 100 },
        rateLimit: 'off',
        onRequest: (e) => {
          if (e.method === 'PATCH') patches.push(e.url);
          if (e.method === 'POST') seenPosts++;
        },
      });
      cleanup.push(() => server.close());
      const hole = await blackhole();
      cleanup.push(hole.close);
      const userDataDir = await mkdtemp(join(tmpdir(), 'tabledesk-durable-'));
      cleanup.push(() => rm(userDataDir, { recursive: true, force: true }));
      const baseId = server.bases[0]!.id;
      const reader = new RecordTableClient({
        baseUrl: server.url,
        apiKey: server.apiKey,
        requestsPerSecond: 1000,
      });
      const tasks = (await reader.table(baseId, 'Tasks').listPage({ pageSize: 35 })).records;
      const edits = tasks.map((t, i) => ({ recordId: t.id, fields: { Name: `durable ${i}`, Points: i } }));
      const common = { userDataDir, apiKey: server.apiKey, baseId };

      const creates = [{ Name: 'typed before the crash' }, { Name: 'and this one' }];
      const first = runChild({ ...common, mode: 'journal', baseUrl: hole.url, edits, creates }, 'JOURNALED');
      await first.line;
      const journalFile = join(journalDir(userDataDir), 'journal.jsonl');
      // The create is written down before it is sent; wait for that line, then kill while it is out.
      while (!(await readFile(journalFile, 'utf8')).includes('"t":"create"')) await sleep(20);
      first.proc.kill('SIGKILL');
      await new Promise((resolve) => first.proc.once('exit', resolve));
      expect(patches).toEqual([]);
      // A process killed in the middle of an append leaves a torn line; it must not cost the others.
      await appendFile(journalFile, '{"t":"edit","id":"torn","fie');

      const second = runChild({ ...common, mode: 'replay', baseUrl: server.url }, 'IDLE');
      const status = JSON.parse((await second.line).slice('IDLE '.length)) as Response<'edits.status'>;
      expect(status).toMatchObject({ pending: 0, rejected: 0 });
      expect(patches).toHaveLength(4);
      const stored = new Map((await reader.table(baseId, 'Tasks').all()).map((r) => [r.id, r]));
      for (const e of edits) expect(stored.get(e.recordId)?.fields).toMatchObject(e.fields);
      // The interrupted create is not sent again: it is listed, with its values, as of unknown outcome.
      expect(status.uncertainCreates).toEqual([
        expect.objectContaining({
          records: creates,
          error: expect.objectContaining({ kind: 'outcome-unknown' }),
        }),
      ]);
      expect(seenPosts).toBe(0);
      // Only the uncertain create is left in the journal.
      const kinds = (await readFile(journalFile, 'utf8'))
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { t: string }).t);
      expect(kinds).toEqual(['create', 'create-unknown']);
      expect((await stat(journalFile)).mode & 0o777).toBe(0o600);

      // A third start owes nothing: no edit is sent twice, and the create is still listed.
      const third = runChild({ ...common, mode: 'replay', baseUrl: server.url }, 'IDLE');
      const again = JSON.parse((await third.line).slice('IDLE '.length)) as Response<'edits.status'>;
      expect(again.uncertainCreates).toHaveLength(1);
      expect(patches).toHaveLength(4);
      expect(seenPosts).toBe(0);
    },
  );
});
