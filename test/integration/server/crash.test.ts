/**
 * Crash safety: the server runs as a child process on a data folder, takes a stream of batch writes, is
 * killed with SIGKILL in the middle of it, and is started again on the same folder.
 */
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const KEY = 'patCrashTestKey';
const dataDir = mkdtempSync(join(tmpdir(), 'tabledesk-crash-'));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** Starts server/main.ts in one node process (no tsx wrapper process, so SIGKILL hits the server itself). */
async function startChild(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'server/main.ts', '--port', '0', '--data', dataDir, '--rate-limit', 'off'],
    {
      cwd: process.cwd(),
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TABLEDESK_API_KEY: KEY },
    },
  );
  children.push(child);
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (http:\/\/\S+)\/v0/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
  return { child, url };
}

interface Answer {
  id: string;
  records: { id: string; fields: { Batch: number } }[];
  offset?: string;
}

async function call(url: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Answer };
}

describe('crash safety', () => {
  it('keeps every acknowledged batch and the database intact after SIGKILL', async () => {
    const first = await startChild();
    const bases = await call(first.url, 'POST', '/v0/meta/bases', {
      name: 'Crash',
      tables: [
        {
          name: 'Writes',
          fields: [
            { name: 'Name', type: 'singleLineText' },
            { name: 'Batch', type: 'number', options: { precision: 0 } },
          ],
        },
      ],
    });
    expect(bases.status).toBe(200);
    const path = `/v0/${bases.body.id}/Writes`;

    const acknowledged = new Set<string>();
    let batch = 0;
    let stop = false;
    const writer = async () => {
      while (!stop) {
        const n = batch++;
        const records = Array.from({ length: 10 }, (_, i) => ({ fields: { Name: `b${n}-${i}`, Batch: n } }));
        try {
          const r = await call(first.url, 'POST', path, { records });
          if (r.status === 200) for (const rec of r.body.records) acknowledged.add(rec.id);
        } catch {
          return; // the server died under this request: it was never acknowledged
        }
      }
    };
    const writers = [writer(), writer(), writer()];
    while (acknowledged.size < 600) await new Promise((resolve) => setTimeout(resolve, 5));
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    stop = true;
    await Promise.all(writers);

    const db = new Database(join(dataDir, 'tabledesk.sqlite'));
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();

    const second = await startChild();
    const found: Answer['records'] = [];
    let offset = '';
    do {
      const r = await call(second.url, 'GET', `${path}?offset=${encodeURIComponent(offset)}`);
      expect(r.status).toBe(200);
      found.push(...r.body.records);
      offset = r.body.offset ?? '';
    } while (offset);
    const ids = new Set(found.map((r) => r.id));
    expect([...acknowledged].filter((id) => !ids.has(id))).toEqual([]);
    // Every batch is all-or-nothing, even the ones cut off by the kill.
    const perBatch = new Map<number, number>();
    for (const r of found) perBatch.set(r.fields.Batch, (perBatch.get(r.fields.Batch) ?? 0) + 1);
    expect([...perBatch.values()].every((n) => n === 10)).toBe(true);

    second.child.kill('SIGTERM');
    const code = await new Promise((resolve) => second.child.once('exit', (c) => resolve(c)));
    expect(code).toBe(0);
  });
});
