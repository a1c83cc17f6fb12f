import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterEach, describe, expect, it } from 'vitest';
import { cellText } from '../../../services/edits/csv-export';
import { startHarness } from './harness';
import type { Harness } from './harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('creates, deletes and undo against the local server', () => {
  it('deletes 25 rows in 3 requests, announcing each batch', async () => {
    h = await startHarness();
    const rows = (await h.reader('Tasks').listPage({ pageSize: 25 })).records;
    const result = await h.call('records.delete', {
      target: h.target('Tasks'),
      records: rows.map((r) => ({ id: r.id, fields: r.fields })),
      readOnlyFields: await h.readOnlyFields('Tasks'),
      undoable: true,
    });
    expect(result.remaining).toEqual([]);
    expect(result.deleted.sort()).toEqual(rows.map((r) => r.id).sort());
    expect(h.seen.filter((r) => r.method === 'DELETE')).toHaveLength(3);
    expect(
      h
        .eventsOf('records.deleted')
        .map((e) => e.ids.length)
        .sort(),
    ).toEqual([10, 10, 5]);
    const left = await h.snapshot('Tasks');
    for (const r of rows) expect(left.has(r.id)).toBe(false);
  });

  it('uses the single-record form for a lone id, and says which rows remain after a partial failure', async () => {
    h = await startHarness();
    const rows = (await h.reader('Tasks').listPage({ pageSize: 11 })).records;
    await h.reader('Tasks').delete(rows[10]!.id);
    const result = await h.call('records.delete', {
      target: h.target('Tasks'),
      records: [...rows.slice(0, 10), rows[10]!].map((r) => ({ id: r.id, fields: {} })),
      readOnlyFields: [],
      undoable: false,
    });
    const deletes = h.seen.filter((r) => r.method === 'DELETE');
    expect(deletes.filter((r) => r.url.includes('records'))).toHaveLength(1);
    expect(deletes.some((r) => r.url.endsWith(rows[10]!.id))).toBe(true);
    // The lone id was already gone: it counts as deleted, not as a failure.
    expect(result.deleted).toHaveLength(11);
    expect(result.remaining).toEqual([]);

    const again = await h.call('records.delete', {
      target: h.target('Tasks'),
      records: [
        { id: 'recDoesNotExist01', fields: {} },
        ...rows.slice(0, 1).map((r) => ({ id: r.id, fields: {} })),
      ],
      readOnlyFields: [],
      undoable: false,
    });
    expect(again.deleted.sort()).toEqual(['recDoesNotExist01', rows[0]!.id].sort());
  });

  it('undoes a delete by re-creating the records with their values and new ids, and redoes it', async () => {
    h = await startHarness();
    const target = h.target('Tasks');
    const rows = (await h.reader('Tasks').listPage({ pageSize: 12 })).records;
    await h.call('records.delete', {
      target,
      records: rows.map((r) => ({ id: r.id, fields: r.fields })),
      readOnlyFields: await h.readOnlyFields('Tasks'),
      undoable: true,
    });
    expect((await h.call('history.state', { target })).undoLabel).toBe('Undo deleting 12 records');

    const undone = await h.call('history.undo', { target });
    expect(undone.done).toBe(true);
    expect(undone.idChanges.map((c) => c.from).sort()).toEqual(rows.map((r) => r.id).sort());
    const now = await h.snapshot('Tasks');
    const computed = await h.readOnlyFields('Tasks');
    expect(computed).toEqual(expect.arrayContaining(['Task #', 'Created', 'Last modified']));
    for (const { from, to } of undone.idChanges) {
      const original = rows.find((r) => r.id === from)!;
      const writable = Object.fromEntries(
        Object.entries(original.fields).filter(([f]) => !computed.includes(f)),
      );
      expect(now.get(to)?.fields).toMatchObject(writable);
      expect(now.has(from)).toBe(false);
    }
    expect(undone.canRedo).toBe(true);

    const redone = await h.call('history.redo', { target });
    expect(redone.done).toBe(true);
    const after = await h.snapshot('Tasks');
    for (const { to } of undone.idChanges) expect(after.has(to)).toBe(false);
  });

  it('undoes a delete of a record already gone (a stale screen) with what the screen showed', async () => {
    // Found by the queue fuzzer (seed 3727): a row deleted twice, then the second delete undone.
    h = await startHarness();
    const target = h.target('Tasks');
    const [row] = (await h.reader('Tasks').listPage({ pageSize: 1 })).records;
    const readOnlyFields = await h.readOnlyFields('Tasks');
    const del = () =>
      h!.call('records.delete', {
        target,
        records: [{ id: row!.id, fields: row!.fields }],
        readOnlyFields,
        undoable: true,
      });
    expect((await del()).deleted).toEqual([row!.id]);
    // Deleted again from a screen that still showed it: gone counts as deleted, one more undo step.
    expect(await del()).toEqual({ deleted: [row!.id], remaining: [] });
    const undone = await h.call('history.undo', { target });
    expect(undone.idChanges).toHaveLength(1);
    const back = (await h.snapshot('Tasks')).get(undone.idChanges[0]!.to);
    expect(back?.fields.Name).toBe(row!.fields.Name);
  });

  it('undoes an edit through the queue, after an undone delete moved the record to a new id', async () => {
    h = await startHarness();
    const target = h.target('Tasks');
    const [rec] = (await h.reader('Tasks').listPage({ pageSize: 1 })).records;
    await h.call('edits.edit', {
      target,
      changes: [
        {
          recordId: rec!.id,
          fields: { Name: 'renamed' },
          previous: { Name: rec!.fields.Name },
          typecast: false,
        },
      ],
      undoable: true,
    });
    await h.parts.queue.whenIdle();
    const renamed = { ...rec!, fields: { ...rec!.fields, Name: 'renamed' } };
    await h.call('records.delete', {
      target,
      records: [renamed],
      readOnlyFields: await h.readOnlyFields('Tasks'),
      undoable: true,
    });
    const { idChanges } = await h.call('history.undo', { target });
    const newId = idChanges[0]!.to;
    const undoEdit = await h.call('history.undo', { target });
    expect(undoEdit.done).toBe(true);
    await h.parts.queue.whenIdle();
    expect((await h.snapshot('Tasks')).get(newId)?.fields.Name).toBe(rec!.fields.Name);
    expect(undoEdit.canUndo).toBe(false);
  });

  it('takes an edit the service rejects back out of the undo stack', async () => {
    h = await startHarness();
    const target = h.target('Tasks');
    const [a, b] = (await h.reader('Tasks').listPage({ pageSize: 2 })).records;
    await h.call('edits.edit', {
      target,
      changes: [{ recordId: a!.id, fields: { Name: 'kept' }, previous: { Name: a!.fields.Name } }],
    });
    await h.call('edits.edit', {
      target,
      changes: [{ recordId: b!.id, fields: { Status: 'Nope' }, previous: { Status: b!.fields.Status } }],
    });
    expect((await h.call('history.state', { target })).undoLabel).toBe('Undo edit of 1 record');
    await h.parts.queue.whenIdle();
    expect(h.parts.queue.status().rejected).toBe(1);
    // Only the accepted edit is left to undo, and undoing it restores the value the server had.
    const undone = await h.call('history.undo', { target });
    expect(undone).toMatchObject({ done: true, canUndo: false, canRedo: true });
    await h.parts.queue.whenIdle();
    expect((await h.snapshot('Tasks')).get(a!.id)?.fields.Name).toBe(a!.fields.Name);
  });

  it('creates records in POST batches of 10 and undoes the creation', async () => {
    h = await startHarness();
    const target = h.target('Tasks');
    const result = await h.call('records.create', {
      target,
      records: Array.from({ length: 23 }, (_, i) => ({ fields: { Name: `new ${i}`, Points: String(i) } })),
      typecast: true,
      undoable: true,
    });
    expect(result.failed).toEqual([]);
    expect(result.created.map((r) => r.fields.Name)).toEqual(
      Array.from({ length: 23 }, (_, i) => `new ${i}`),
    );
    expect(result.created[5]!.fields.Points).toBe(5);
    expect(h.seen.filter((r) => r.method === 'POST')).toHaveLength(3);
    await h.call('history.undo', { target });
    const left = await h.snapshot('Tasks');
    for (const r of result.created) expect(left.has(r.id)).toBe(false);
  });

  it('keeps a refused create out of the undo stack and reports it as refused', async () => {
    h = await startHarness();
    const target = h.target('Tasks');
    const result = await h.call('records.create', {
      target,
      records: [{ fields: { Name: 'fine' } }, { fields: { 'Task #': 5 } }],
      typecast: false,
      undoable: true,
    });
    expect(result.created).toEqual([]);
    expect(result.failed.map((f) => f.outcome)).toEqual(['rejected', 'rejected']);
    expect(result.failed[0]!.error.status).toBe(422);
    expect((await h.call('history.state', { target })).canUndo).toBe(false);
  });

  it('writes cells as a spreadsheet shows them', () => {
    expect(cellText(undefined)).toBe('');
    expect(cellText(0)).toBe('0');
    expect(cellText(true)).toBe('checked');
    expect(cellText(false)).toBe('');
    expect(cellText(['Bug', 'Docs'])).toBe('Bug, Docs');
    expect(cellText([{ id: 'att1', url: 'https://x/a.png', filename: 'a.png' }])).toBe(
      'a.png (https://x/a.png)',
    );
    expect(cellText({ id: 'usr1', email: 'a@b.c', name: 'Ann' })).toBe('Ann');
    expect(cellText({ specialValue: 'NaN' })).toBe('NaN');
    expect(cellText({ error: '#ERROR!' })).toBe('#ERROR!');
    expect(cellText({ other: 1 })).toBe('{"other":1}');
  });

  it('exports a view (view, formula, sort, fields) to CSV equal to the server records', async () => {
    h = await startHarness({ server: { demo: { largeTableRecords: 450 } } });
    const query = {
      view: 'By due date',
      formula: "OR({Status} = 'Todo', {Status} = 'Done')",
      sort: [{ field: 'Points', direction: 'desc' as const }],
      fields: ['Name', 'Status', 'Tags', 'Points', 'Done', 'Due'],
    };
    const { exportId } = await h.call('export.start', {
      target: h.target('Tasks'),
      query,
      includeRecordId: true,
    });
    await h.parts.exports.settled(exportId);
    const progress = h.eventsOf('export.progress').filter((p) => p.exportId === exportId);
    expect(progress.at(-1)?.error).toBeUndefined();
    expect(progress.at(-1)?.state).toBe('done');
    expect(progress.filter((p) => p.state === 'running').length).toBeGreaterThan(1);
    const { csv, rows } = await h.call('export.take', { exportId });
    const expected = await h.reader('Tasks').all(query);
    expect(rows).toBe(expected.length);
    expect(rows).toBeGreaterThan(100);
    expect(rows).toBeLessThan(450);
    const parsed = Papa.parse<string[]>(csv, { skipEmptyLines: true }).data;
    expect(parsed[0]).toEqual(['Record ID', ...query.fields]);
    expect(parsed.slice(1)).toEqual(
      expected.map((r) => [r.id, ...query.fields.map((f) => cellText(r.fields[f]))]),
    );
  });

  it('writes an export to the file the user picked, every field in the order it first appears', async () => {
    h = await startHarness({ saveExportAs: 'people.csv' });
    const filePath = join(h.userDataDir, 'people.csv');
    const { exportId } = await h.call('export.start', {
      target: h.target('People'),
      query: {},
      includeRecordId: false,
    });
    await h.parts.exports.settled(exportId);
    expect(h.eventsOf('export.progress').at(-1)).toMatchObject({ state: 'done', filePath, rows: 200 });
    const parsed = Papa.parse<Record<string, string>>(await readFile(filePath, 'utf8'), { header: true });
    const expected = await h.reader('People').all();
    expect(parsed.data).toHaveLength(200);
    expect(parsed.meta.fields).toEqual(expect.arrayContaining(['Name', 'Email', 'Team', 'Photo', 'Active']));
    parsed.data.forEach((row, i) => {
      for (const f of parsed.meta.fields ?? []) expect(row[f]).toBe(cellText(expected[i]!.fields[f]));
    });
    await expect(h.call('export.take', { exportId })).rejects.toThrow(/not finished or was taken/);
  });

  it('cancels an export mid-walk: no more pages are asked for and no file is left behind', async () => {
    h = await startHarness({ client: { requestsPerSecond: 2 }, saveExportAs: 'tasks.csv' });
    const listed = () => h!.seen.filter((r) => r.method === 'GET' && r.url.includes('/Tasks')).length;
    const { exportId } = await h.call('export.start', {
      target: h.target('Tasks'),
      query: {},
      includeRecordId: false,
    });
    // Cancel only once a page has arrived, so the walk itself is what stops.
    while (!h.eventsOf('export.progress').some((p) => p.state === 'running' && p.rows > 0)) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const atCancel = listed();
    expect((await h.call('export.cancel', { exportId })).cancelled).toBe(true);
    await h.parts.exports.settled(exportId);
    await new Promise((r) => setTimeout(r, 1200));
    // At most the page already in flight reaches the server after the cancel (300 records: 3 pages).
    expect(listed()).toBeLessThanOrEqual(atCancel + 1);
    expect(listed()).toBeLessThan(3);
    expect(h.eventsOf('export.progress').at(-1)?.state).toBe('cancelled');
    expect((await readdir(h.userDataDir)).filter((f) => f.startsWith('tasks.csv'))).toEqual([]);
  });
});
