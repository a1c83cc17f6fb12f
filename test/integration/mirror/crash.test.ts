/**
 * The CLI in a child process, killed with SIGKILL during a pull and during a push, then run again: the copy
 * ends equal to the service, with no record created twice and no edit lost.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../../server/index';
import { RecordTableClient } from '../../../core/api/index';
import { allRecords, startMirrorHarness, withoutUrls } from './harness';
import type { MirrorHarness } from './harness';

let h: MirrorHarness;
const ROOT = join(import.meta.dirname, '../../..');

beforeAll(async () => {
  h = await startMirrorHarness({ records: 900 });
}, 120_000);
afterAll(() => h.close());

interface Cli {
  child: ChildProcess;
  lines: Record<string, unknown>[];
  done: Promise<number | null>;
}

function cli(...args: string[]): Cli {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'host/mirror-cli.ts', ...args, '--url', h.proxy.url, '--data', h.dataDir],
    {
      cwd: ROOT,
      env: { ...process.env, TABLEDESK_API_KEY: h.hosted.apiKey },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const lines: Record<string, unknown>[] = [];
  createInterface({ input: child.stdout! }).on('line', (l) =>
    lines.push(JSON.parse(l) as Record<string, unknown>),
  );
  const done = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, lines, done };
}

async function until(check: () => boolean, what: string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The copy, read by a server of the test's own on the CLI's data folder (the CLI is not running). */
async function withCopy<T>(fn: (client: RecordTableClient) => Promise<T>): Promise<T> {
  const server = await startServer({ dataDir: join(h.dataDir, 'local-server'), rateLimit: 'off' });
  try {
    return await fn(new RecordTableClient({ baseUrl: server.url, apiKey: server.apiKey }));
  } finally {
    await server.close();
  }
}

const copyRecords = (table: string) => withCopy((c) => allRecords(c, h.baseId, table));

describe('SIGKILL', () => {
  it('during the first pull: run again, the copy equals the service', async () => {
    h.proxy.latencyMs = 150;
    const first = cli('pull', '--base', h.baseId);
    await until(
      () => first.lines.some((l) => ((l.progress as { records?: number } | undefined)?.records ?? 0) >= 200),
      'records pulled',
    );
    first.child.kill('SIGKILL');
    await first.done;
    const partial = await copyRecords('People');
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(900);

    h.proxy.latencyMs = 0;
    const second = cli('pull', '--base', h.baseId);
    expect(await second.done).toBe(0);
    expect(second.lines.at(-1)).toMatchObject({ mirror: { state: 'ready', localChanges: 0 } });
    for (const table of ['People', 'Companies'])
      expect(withoutUrls(await copyRecords(table))).toEqual(
        withoutUrls(await allRecords(h.hostedClient, h.baseId, table)),
      );
  }, 180_000);

  it('during a push: run again, every edit is there once and every create once', async () => {
    const ids = (await copyRecords('People')).map((r) => r.id);
    await withCopy(async (c) => {
      const t = c.table(h.baseId, 'People');
      await t.updateMany(ids.slice(0, 200).map((id, i) => ({ id, fields: { Notes: `killed ${i}` } })));
      await t.createMany(Array.from({ length: 30 }, (_, i) => ({ Name: `Crash new ${i}` })));
    });
    // The service gets the first create and makes its records; its answer is held until the CLI is dead.
    h.proxy.inject(
      { type: 'delay', ms: 20_000, after: 'response' },
      { match: (r) => r.method === 'POST' && r.body.includes('Crash new') },
    );
    const first = cli('push', '--base', h.baseId);
    await until(
      () => h.proxy.log.some((r) => r.method === 'POST' && r.body.includes('Crash new') && r.forwarded),
      'a create sent',
    );
    await new Promise((r) => setTimeout(r, 300));
    first.child.kill('SIGKILL');
    await first.done;
    h.proxy.reset();

    const second = cli('push', '--base', h.baseId);
    expect(await second.done).toBe(0);
    const byName = await h.hostedClient.table(h.baseId, 'People').all();
    const names = byName.map((r) => String(r.fields.Name)).filter((n) => n.startsWith('Crash new'));
    expect(names.sort()).toEqual(Array.from({ length: 30 }, (_, i) => `Crash new ${i}`).sort());
    const notes = new Map(byName.map((r) => [r.id, r.fields.Notes]));
    ids.slice(0, 200).forEach((id, i) => expect(notes.get(id)).toBe(`killed ${i}`));
    const remote = await allRecords(h.hostedClient, h.baseId, 'People');
    expect(withoutUrls(await copyRecords('People'))).toEqual(withoutUrls(remote));
    expect(second.lines.at(-1)).toMatchObject({ mirror: { localChanges: 0, conflicts: 0 } });
  }, 180_000);
});
