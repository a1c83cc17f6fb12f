/**
 * What the page shows when the journal's disk refuses an edit, or when the journal had damaged lines: the
 * renderer's table editing and pending-changes list against the real services (through the dispatcher, as
 * the doors call them) on a disk that fills up.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RecordTableClient } from '../../../core/api';
import { createPendingChanges } from '../../../renderer/src/pending/pending-changes';
import { countsOf, countsText } from '../../../renderer/src/pending/pending-model';
import { TableEditing } from '../../../renderer/src/rows/table-editing';
import type { EditingView } from '../../../renderer/src/rows/table-editing';
import { FuzzDisk } from '../../fuzz/queue/disk';
import { startHarness } from '../app/harness';
import type { Harness, HarnessOptions } from '../app/harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function open(options: HarnessOptions = {}) {
  h = await startHarness({ embedded: { largeTableRecords: 5 }, ...options });
  const harness = h;
  const api = harness.api;
  // The page opens after the services started (what they announced then, it reads).
  await harness.services.ready;
  const server = await harness.services.embedded!;
  const baseId = await harness.demoBaseId();
  const reader = new RecordTableClient({ baseUrl: server.url, apiKey: server.apiKey }).table(baseId, 'Tasks');
  return { api, reader, target: { connectionId: 'demo', baseId, table: 'Tasks' } };
}

const until = async (check: () => boolean | Promise<boolean>) => {
  const end = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('an edit the journal cannot save', () => {
  it('puts the cell back unmarked, says why, and is listed as not saved until retried', async () => {
    const disk = new FuzzDisk();
    const { api, reader, target } = await open({ journalFiles: disk.files() });
    const [row] = (await reader.listPage({ pageSize: 1 })).records;
    const old = row!.fields.Name;
    const pending = createPendingChanges(api);
    const editing = new TableEditing(api, target, (changes, e) => pending.refused(target, changes, e));
    let view: EditingView | undefined;
    editing.subscribe((v) => (view = v));

    disk.room = 0;
    await editing.edit([
      { recordId: row!.id, fields: { Name: 'not saved' }, previous: { Name: old }, typecast: false },
    ]);
    expect(editing.store.value(row, 'Name')).toBe(old);
    expect(editing.store.mark(row!.id, 'Name')).toBeUndefined();
    expect(view?.message).toMatchObject({
      tone: 'error',
      text: expect.stringContaining('because the disk is full'),
    });
    const [item] = pending.model.items();
    expect(item).toMatchObject({
      kind: 'unsaved edit',
      state: 'refused',
      title: `${row!.id}: Name → "not saved" (not saved)`,
      error: expect.stringContaining('because the disk is full'),
      actions: ['retry', 'forget'],
    });
    // The status bar does not say "All changes saved".
    expect(countsText(pending.model.counts())).toBe('1 refused');

    disk.room = Infinity;
    await pending.model.act('retry', item!);
    expect(pending.model.items().filter((i) => i.kind === 'unsaved edit')).toEqual([]);
    await until(async () => (await reader.get(row!.id)).fields.Name === 'not saved');
    editing.dispose();
  });
});

describe('damaged journal lines', () => {
  it('are listed until the user has read the report', async () => {
    const { api } = await open({
      prepare: async (dir) => {
        await mkdir(join(dir, 'edits'), { recursive: true });
        await writeFile(join(dir, 'edits', 'journal.jsonl'), '{"t":"ack"}\n{"t":"edit","id":"zz"}\n');
      },
    });
    const pending = createPendingChanges(api);
    await until(() => pending.model.items().length > 0);
    const [item] = pending.model.items();
    expect(item).toMatchObject({
      kind: 'journal',
      state: 'uncertain',
      title: expect.stringContaining('2 unreadable lines of the edit journal, set aside in'),
      error: expect.stringContaining('An edit or create written on such a line is not sent or listed'),
      actions: ['dismiss'],
    });
    expect(countsText(countsOf(pending.model.items()))).toBe('1 uncertain');
    await pending.model.act('dismiss', item!);
    await until(() => pending.model.items().length === 0);
  });
});
