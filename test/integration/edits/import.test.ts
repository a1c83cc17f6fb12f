/**
 * CSV import jobs against the real local server: creates with refused rows reported by the service's reason,
 * upserts that update and create, one undo step, and an import cut short (a lost answer through the fault
 * proxy, then the services closed and made again on the same data folder) resumed without a duplicate.
 */
import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { RecordTableClient } from '../../../core/api';
import { importChannels, importEvents } from '../../../core/contract/imports';
import type { ImportRow, ImportState } from '../../../core/contract/imports';
import { journalDir } from '../../../services/edits';
import { Imports } from '../../../services/imports/imports';
import { JobFile, importsDir } from '../../../services/imports/job-file';
import { startHarness } from './harness';
import type { Harness } from './harness';

let h: Harness | undefined;
let restarted: Harness | undefined;
const open: Imports[] = [];
afterEach(async () => {
  for (const i of open.splice(0)) await i.close();
  await restarted?.close();
  await h?.close();
  h = restarted = undefined;
});

const FIELDS = ['Name', 'Age', 'Kind'];

async function peopleTable(harness: Harness): Promise<void> {
  const client = new RecordTableClient({ baseUrl: harness.server.url, apiKey: harness.server.apiKey });
  await client.meta.createTable(harness.baseId, {
    name: 'Guests',
    fields: [
      { name: 'Name', type: 'singleLineText' },
      { name: 'Age', type: 'number', options: { precision: 0 } },
      { name: 'Kind', type: 'singleSelect', options: { choices: [{ name: 'a' }, { name: 'b' }] } },
    ],
  });
}

/** Import services over a harness, through its proxy when it has one; every event checked by the contract. */
function importsOf(harness: Harness, window?: number) {
  const client = new RecordTableClient({
    baseUrl: harness.proxy?.url ?? harness.server.url,
    apiKey: harness.server.apiKey,
    requestsPerSecond: 20,
    backoffBaseMs: 20,
    backoffMaxMs: 200,
  });
  const states: ImportState[] = [];
  const imports = new Imports({
    dir: importsDir(journalDir(harness.userDataDir)),
    tableFor: async (t) => client.table(t.baseId, t.table),
    edits: harness.services.ready,
    emit: (event, payload) => {
      if (event === 'import.progress') states.push(importEvents['import.progress'].parse(payload));
    },
    ...(window === undefined ? {} : { window }),
  });
  open.push(imports);
  const call = async <C extends keyof typeof importChannels>(
    channel: C,
    request: unknown,
  ): Promise<z.output<(typeof importChannels)[C]['response']>> => {
    const parsed = importChannels[channel].request.parse(request);
    const handler = imports.handlers[channel] as (r: unknown) => Promise<unknown>;
    return importChannels[channel].response.parse(await handler(parsed)) as never;
  };
  const ended = async (importId: string): Promise<ImportState> => {
    for (let i = 0; i < 600; i++) {
      const last = states.filter((s) => s.importId === importId).at(-1);
      if (last !== undefined && last.state !== 'running') return last;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the import did not end');
  };
  return { imports, states, call, ended };
}

const row = (line: number, values: unknown[]): ImportRow => ({ line, values, typecast: false });

async function run(
  i: ReturnType<typeof importsOf>,
  harness: Harness,
  rows: ImportRow[],
  mode: 'create' | 'upsert' = 'create',
): Promise<string> {
  const { importId } = await i.call('import.stage', {
    target: harness.target('Guests'),
    mode,
    fields: FIELDS,
    mergeOn: mode === 'upsert' ? ['Name'] : [],
    total: rows.length,
  });
  // In two parts, as the renderer sends a large file.
  const half = Math.ceil(rows.length / 2);
  await i.call('import.rows', { importId, rows: rows.slice(0, half) });
  if (rows.length > half) await i.call('import.rows', { importId, rows: rows.slice(half) });
  await i.call('import.run', { importId });
  return importId;
}

const posts = (harness: Harness) =>
  harness.seen.filter((r) => r.method === 'POST' && r.url.includes('/Guests'));
const namesOn = async (harness: Harness) =>
  (await harness.reader('Guests').all()).map((r) => String(r.fields.Name)).sort();

describe('CSV import against the local server', () => {
  it('creates all rows 10 a request, reports a refused row with the service reason, and undoes as one step', async () => {
    h = await startHarness();
    await peopleTable(h);
    const i = importsOf(h);
    const rows = Array.from({ length: 25 }, (_, k) => row(k + 2, [`p${k}`, k, k % 2 ? 'a' : 'b']));
    // A value the service refuses (text in a number field, sent without typecast): its batch is refused whole.
    rows[13] = row(15, ['p13', 'thirteen', 'a']);
    const importId = await run(i, h, rows);
    const end = await i.ended(importId);

    expect(end).toMatchObject({
      state: 'done',
      total: 25,
      done: 25,
      created: 24,
      updated: 0,
      refusedCount: 1,
    });
    expect(end.refused).toEqual([{ line: 15, error: expect.objectContaining({ status: 422 }) }]);
    expect(end.refused[0]!.error.message).toMatch(/Age/);
    // 3 batches, then the refused one again row by row (10), so the report can name the row.
    expect(posts(h)).toHaveLength(13);
    expect(await namesOn(h)).toEqual(
      rows
        .filter((_, k) => k !== 13)
        .map((r) => String(r.values[0]))
        .sort(),
    );
    // Nothing left to resume: the job's journal is gone.
    expect((await i.call('import.list', {})).imports).toEqual([]);

    const target = h.target('Guests');
    await new Promise((r) => setTimeout(r, 50));
    expect((await h.call('history.state', { target })).undoLabel).toBe('Undo adding 24 records');
    const undone = await h.call('history.undo', { target });
    expect(undone.done).toBe(true);
    expect(await namesOn(h)).toEqual([]);
  });

  it('upserts by Name: existing records are updated, new ones created, nothing twice', async () => {
    h = await startHarness();
    await peopleTable(h);
    const people = h.reader('Guests');
    const [ann, bob] = await people.createMany([
      { Name: 'Ann', Age: 1, Kind: 'a' },
      { Name: 'Bob', Age: 2 },
    ]);
    const i = importsOf(h);
    const rows = [
      row(2, ['Ann', 30, null]),
      row(3, ['Cid', 5, 'b']),
      row(4, ['Bob', null, 'b']),
      ...Array.from({ length: 12 }, (_, k) => row(k + 5, [`n${k}`, k, null])),
    ];
    const end = await i.ended(await run(i, h, rows, 'upsert'));
    expect(end).toMatchObject({ state: 'done', done: 15, created: 13, updated: 2, refusedCount: 0 });
    const byName = new Map((await people.all()).map((r) => [r.fields.Name, r]));
    expect(byName.size).toBe(15);
    // An empty cell keeps the record's value; the rest is updated in place.
    expect(byName.get('Ann')).toMatchObject({ id: ann!.id, fields: { Name: 'Ann', Age: 30, Kind: 'a' } });
    expect(byName.get('Bob')).toMatchObject({ id: bob!.id, fields: { Name: 'Bob', Age: 2, Kind: 'b' } });
    expect(h.seen.filter((r) => r.method === 'PATCH')).toHaveLength(2);
    // Importing the same file again changes nothing and creates nothing.
    const again = await i.ended(await run(i, h, rows, 'upsert'));
    expect(again).toMatchObject({ created: 0, updated: 15 });
    expect((await people.all()).length).toBe(15);
  });

  it('stops handing out batches on Cancel, and Resume sends only the rows left', async () => {
    h = await startHarness({ proxy: true });
    await peopleTable(h);
    const i = importsOf(h, 2);
    const rows = Array.from({ length: 100 }, (_, k) => row(k + 2, [`c${k}`, k, null]));
    h.proxy!.latencyMs = 100;
    const importId = await run(i, h, rows);
    for (let k = 0; k < 200 && (i.states.at(-1)?.done ?? 0) < 20; k++)
      await new Promise((r) => setTimeout(r, 25));
    expect(await i.call('import.cancel', { importId })).toEqual({ cancelled: true });
    const cancelled = await i.ended(importId);
    expect(cancelled.state).toBe('cancelled');
    // The batches already out finish (at most 2 here); nothing more is sent.
    expect(cancelled.done).toBeLessThanOrEqual(50);
    expect(posts(h)).toHaveLength(cancelled.done / 10);
    expect((await i.call('import.list', {})).imports.map((s) => s.state)).toEqual(['cancelled']);
    h.proxy!.latencyMs = 0;
    await i.call('import.resume', { importId });
    const end = await i.ended(importId);
    expect(end).toMatchObject({ state: 'done', done: 100, created: 100 });
    expect(posts(h)).toHaveLength(10);
    expect(await namesOn(h)).toEqual(rows.map((r) => String(r.values[0])).sort());
  });

  it('resumes an import cut short without creating a record twice; a batch whose answer was lost is listed, not resent', async () => {
    h = await startHarness({ proxy: true });
    await peopleTable(h);
    const i = importsOf(h, 2);
    const rows = Array.from({ length: 80 }, (_, k) => row(k + 2, [`r${k}`, k, null]));
    // Every answer is slow, so the services can be closed midway; the second batch's answer is lost.
    h.proxy!.latencyMs = 120;
    let seenPosts = 0;
    h.proxy!.inject(
      { type: 'drop-after' },
      { match: (r) => r.method === 'POST' && r.path.includes('Guests') && ++seenPosts === 2 },
    );
    const importId = await run(i, h, rows);
    for (let k = 0; k < 200 && (i.states.at(-1)?.done ?? 0) < 30; k++)
      await new Promise((r) => setTimeout(r, 25));
    // TableDesk closes midway: the batches out finish, the rest stay in the job's journal.
    await i.imports.close();
    await h.services.close();
    const cut = i.states.at(-1)!;
    expect(cut.state).toBe('interrupted');
    expect(cut.done).toBeLessThan(80);
    const sentBefore = posts(h).length;

    restarted = await startHarness({ proxy: true, restartOf: h });
    const again = importsOf(restarted);
    const listed = (await again.call('import.list', {})).imports as ImportState[];
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ importId, state: 'interrupted', done: cut.done });
    expect(listed[0]!.uncertain).toEqual([
      {
        lines: rows.slice(10, 20).map((r) => r.line),
        error: expect.objectContaining({ kind: 'outcome-unknown' }),
      },
    ]);
    await again.call('import.resume', { importId });
    const end = await again.ended(importId);
    expect(end).toMatchObject({ state: 'done', done: 70, created: 70 });
    expect(end.uncertain).toHaveLength(1);
    // Only the batches never sent went after the restart.
    expect(posts(restarted).length - sentBefore).toBe((80 - 10 - cut.done) / 10);
    // The lost batch did reach the server: every row is there exactly once.
    expect(await namesOn(restarted)).toEqual(rows.map((r) => String(r.values[0])).sort());
    expect(await again.call('import.dismiss', { importId })).toEqual({ dismissed: true });
    expect((await again.call('import.list', {})).imports).toEqual([]);
  });

  it('after a kill while a batch was out, lists that batch as uncertain (create) or sends it again (upsert)', async () => {
    h = await startHarness();
    await peopleTable(h);
    const dir = importsDir(journalDir(h.userDataDir));
    const rows = Array.from({ length: 20 }, (_, k) => row(k + 2, [`k${k}`, k, null]));
    const target = h.target('Guests');
    // A job file as a killed process leaves it: the first batch written down as sent, with no outcome.
    for (const mode of ['create', 'upsert'] as const) {
      const id = `killed-${mode}`;
      const file = await JobFile.create(dir, {
        t: 'job',
        id,
        at: Date.now(),
        target,
        mode,
        mergeOn: mode === 'upsert' ? ['Name'] : [],
        fields: FIELDS,
        rows,
      });
      await file.append({ t: 'sent', unit: '0' });
      await file.close();
    }
    // A torn last line (killed mid-append) is dropped.
    await appendFile(join(dir, 'killed-create.jsonl'), '{"t":"ack","unit":"1","ids":["rec');
    await h.services.close();
    restarted = await startHarness({ restartOf: h });
    const i = importsOf(restarted);
    const listed = (await i.call('import.list', {})).imports as ImportState[];
    expect(listed.map((s) => [s.importId, s.state, s.uncertain.length])).toEqual([
      ['killed-create', 'interrupted', 1],
      ['killed-upsert', 'interrupted', 0],
    ]);
    await i.call('import.resume', { importId: 'killed-create' });
    expect(await i.ended('killed-create')).toMatchObject({ state: 'done', created: 10 });
    await i.call('import.resume', { importId: 'killed-upsert' });
    expect(await i.ended('killed-upsert')).toMatchObject({ state: 'done', created: 10, updated: 10 });
    // The create job's first batch was never resent; the upsert's was, and could not duplicate anything.
    expect(await namesOn(restarted)).toEqual(rows.map((r) => String(r.values[0])).sort());
  });

  it('sets damaged job lines aside and reports them, never fatal, and reads a whole line glued after a torn one', async () => {
    h = await startHarness();
    await peopleTable(h);
    const dir = importsDir(journalDir(h.userDataDir));
    const rows = Array.from({ length: 20 }, (_, k) => row(k + 2, [`d${k}`, k, null]));
    const file = await JobFile.create(dir, {
      t: 'job',
      id: 'damaged',
      at: Date.now(),
      target: h.target('Guests'),
      mode: 'create',
      mergeOn: [],
      fields: FIELDS,
      rows,
    });
    await file.append({ t: 'sent', unit: '0' });
    await file.close();
    // The first batch reached the service, and its answer was written down after a torn piece.
    const client = new RecordTableClient({ baseUrl: h.server.url, apiKey: h.server.apiKey });
    const made = await client
      .table(h.baseId, 'Guests')
      .createMany(rows.slice(0, 10).map((r) => ({ Name: r.values[0], Age: r.values[1] })));
    const ack = { t: 'ack', unit: '0', ids: made.map((r) => r.id), created: made.map((r) => r.id) };
    const path = join(dir, 'damaged.jsonl');
    // Wrong shapes (an answer without its ids, a line of no known kind), and a torn piece glued to the answer.
    await appendFile(
      path,
      ['{"t":"ack","unit":"0"}', '{"t":"nope"}', '{"t":"sent","un' + JSON.stringify(ack)].join('\n') + '\n',
    );
    await h.services.close();
    restarted = await startHarness({ restartOf: h });
    const i = importsOf(restarted);
    const listed = (await i.call('import.list', {})).imports as ImportState[];
    expect(listed.map((s) => [s.importId, s.state, s.uncertain.length])).toEqual([
      ['damaged', 'interrupted', 0],
    ]);
    expect((await restarted.call('edits.status', {})).journalDamage).toMatchObject({ lines: 3 });
    // The file holds its whole lines only, so the next line appended starts a line of its own.
    const kinds = (await readFile(path, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { t: string }).t);
    expect(kinds).toEqual(['job', 'sent', 'ack']);
    await i.call('import.resume', { importId: 'damaged' });
    expect(await i.ended('damaged')).toMatchObject({ state: 'done' });
    expect(await namesOn(restarted)).toEqual(rows.map((r) => String(r.values[0])).sort());
  });
});

describe('staging', () => {
  it('refuses rows past what an import takes in bytes, however few they are', async () => {
    const harness = await startHarness();
    try {
      await peopleTable(harness);
      const i = importsOf(harness);
      const { importId } = await i.call('import.stage', {
        target: harness.target('Guests'),
        mode: 'create',
        fields: FIELDS,
        mergeOn: [],
        total: 10,
      });
      // Rows of 3 MB each: the first three fit (9 MB), the fourth would pass the bound.
      const big = (line: number) => row(line, ['x'.repeat(3_000_000), 1, 'a']);
      expect(await i.call('import.rows', { importId, rows: [big(2), big(3), big(4)] })).toEqual({
        received: 3,
      });
      await expect(i.call('import.rows', { importId, rows: [big(5)] })).rejects.toThrow(
        /larger than an import takes/,
      );
      expect(await i.call('import.rows', { importId, rows: [row(5, ['small', 1, 'a'])] })).toEqual({
        received: 4,
      });
    } finally {
      await harness.close();
    }
  });
});
