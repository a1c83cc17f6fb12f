/**
 * The journal on a disk that fills up, cuts writes short or holds damaged lines: a write is complete on disk
 * or refused (in words, the cell back as it was), a damaged line is set aside and reported, never fatal, and
 * never costs the line after it.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { journalDir } from '../../../services/edits';
import { writeAll } from '../../../services/edits/journal-lines';
import { toChannelError } from '../../../services/errors';
import { FuzzDisk } from '../../fuzz/queue/disk';
import { harnessPerTest } from './harness';
import type { Harness } from './harness';

const start = harnessPerTest();

/** The first record of Tasks, and a target for it. */
async function oneTask(h: Harness) {
  const [rec] = (await h.reader('Tasks').listPage({ pageSize: 1 })).records;
  return { rec: rec!, target: h.target('Tasks') };
}

const journalText = (h: Harness) => readFile(join(journalDir(h.userDataDir), 'journal.jsonl'), 'utf8');

/** Every line of the file parses: nothing torn, nothing glued to its neighbour. */
function wholeLines(text: string): { t: string }[] {
  expect(text === '' || text.endsWith('\n')).toBe(true);
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { t: string });
}

describe('a journal write is complete on disk, or refused', () => {
  it('goes on after a short write, and saves every byte of the line', async () => {
    const disk = new FuzzDisk();
    disk.shortWrites = 7;
    const h = await start({ journalFiles: disk.files() });
    const { rec, target } = await oneTask(h);
    await h.call('edits.edit', { target, changes: [{ recordId: rec.id, fields: { Name: 'in pieces' } }] });
    expect(disk.short).toBeGreaterThan(10);
    const lines = wholeLines(await journalText(h));
    expect(lines.find((l) => l.t === 'edit')).toMatchObject({ fields: { Name: 'in pieces' } });
  });

  it('refuses an edit the disk has no room for, in words, and cuts its piece back off the file', async () => {
    const disk = new FuzzDisk();
    const h = await start({ journalFiles: disk.files(), queue: { settleMs: 10_000, maxHoldMs: 10_000 } });
    const { rec, target } = await oneTask(h);
    await h.call('edits.edit', { target, changes: [{ recordId: rec.id, fields: { Points: 1 } }] });
    const before = await journalText(h);
    // Room for half a line: the write takes it, and the next one finds the disk full.
    disk.room = 60;
    await expect(
      h.call('edits.edit', { target, changes: [{ recordId: rec.id, fields: { Name: 'no room' } }] }),
    ).rejects.toMatchObject({
      kind: 'storage',
      message: expect.stringContaining('because the disk is full'),
    });
    expect(disk.refused).toBe(1);
    expect(await journalText(h)).toBe(before);
    // Nothing of it is owed: the record's state still holds only the first edit.
    expect(h.parts.queue.status().records).toEqual([
      expect.objectContaining({ recordId: rec.id, pending: ['Points'], values: { Points: 1 } }),
    ]);
    // With room again, the next line starts a line of its own.
    disk.room = Infinity;
    await h.call('edits.edit', { target, changes: [{ recordId: rec.id, fields: { Name: 'room again' } }] });
    expect(wholeLines(await journalText(h)).filter((l) => l.t === 'edit')).toHaveLength(2);
    h.parts.queue.sendNow();
    await h.parts.queue.whenIdle();
    expect((await h.snapshot('Tasks')).get(rec.id)?.fields).toMatchObject({ Name: 'room again', Points: 1 });
  });

  it('cuts a refused piece back to the last whole line, counting bytes, not characters', async () => {
    const disk = new FuzzDisk();
    const h = await start({ journalFiles: disk.files(), queue: { settleMs: 10_000, maxHoldMs: 10_000 } });
    const { rec, target } = await oneTask(h);
    // Two to four bytes a character: a length in characters would cut into this line.
    const name = 'Zoë Ångström · 東京 · 🚀'.repeat(4);
    await h.call('edits.edit', { target, changes: [{ recordId: rec.id, fields: { Name: name } }] });
    const before = await journalText(h);
    disk.room = 60;
    await expect(
      h.call('edits.edit', { target, changes: [{ recordId: rec.id, fields: { Points: 2 } }] }),
    ).rejects.toMatchObject({ kind: 'storage' });
    expect(await journalText(h)).toBe(before);
    disk.room = Infinity;
    h.parts.queue.sendNow();
    await h.parts.queue.whenIdle();
    expect((await h.snapshot('Tasks')).get(rec.id)?.fields.Name).toBe(name);
  });

  it('starts the next line on a line of its own when a torn piece could not be cut back', async () => {
    const disk = new FuzzDisk();
    const files = disk.files();
    // A disk that, once full, also refuses to shorten the file: the torn piece stays.
    const stuck = {
      ...files,
      open: async (path: string, flags: 'a' | 'w' | 'r', mode?: number) => {
        const handle = await files.open(path, flags, mode);
        return {
          ...handle,
          truncate: async (length: number) => {
            if (disk.room !== Infinity) throw Object.assign(new Error('EIO'), { code: 'EIO' });
            await handle.truncate(length);
          },
        };
      },
    };
    const h = await start({ journalFiles: stuck, queue: { settleMs: 10_000, maxHoldMs: 10_000 } });
    const { rec, target } = await oneTask(h);
    disk.room = 40;
    await expect(
      h.call('edits.edit', { target, changes: [{ recordId: rec.id, fields: { Name: 'torn' } }] }),
    ).rejects.toMatchObject({ kind: 'storage' });
    expect(await journalText(h)).not.toMatch(/\n$/);
    disk.room = Infinity;
    await h.call('edits.edit', { target, changes: [{ recordId: rec.id, fields: { Name: 'whole' } }] });
    // The refused edit is written off first (its piece may be whole after all), then the new line.
    const [piece, cancel, whole, end] = (await journalText(h)).split('\n');
    expect(JSON.parse(cancel!)).toMatchObject({ t: 'discard', refs: [[expect.any(String), 'Name']] });
    expect(JSON.parse(whole!)).toMatchObject({ t: 'edit', fields: { Name: 'whole' } });
    expect(piece!.length).toBe(40);
    expect(end).toBe('');
    // Killed (its lock goes with it): the next start reads the whole line and sets the torn piece aside.
    await h.kill();
    const again = await start({ restartOf: h });
    await again.parts.queue.whenIdle();
    expect((await again.snapshot('Tasks')).get(rec.id)?.fields.Name).toBe('whole');
    expect((await again.call('edits.status', {})).journalDamage).toMatchObject({ lines: 1 });
  });
});

describe('a disk that fails to sync or rename', () => {
  const slow = { settleMs: 10_000, maxHoldMs: 10_000 };

  it('refuses an edit whose sync fails, and no later start sends it, though its line could not be cut back', async () => {
    const disk = new FuzzDisk();
    const h = await start({ journalFiles: disk.files(), queue: slow });
    const { rec, target } = await oneTask(h);
    // The disk takes the line, then fails to sync it and to take it back: it stays whole in the file.
    disk.faults.set('datasync', 'EIO');
    disk.faults.set('truncate', 'EIO');
    await expect(
      h.call('edits.edit', { target, changes: [{ recordId: rec.id, fields: { Name: 'never saved' } }] }),
    ).rejects.toMatchObject({
      kind: 'storage',
      message: expect.stringMatching(/^Not saved: .*because the disk reported an error/),
    });
    expect(h.parts.queue.status().records).toEqual([]);
    expect(await journalText(h)).toContain('never saved');
    disk.faults.clear();
    await h.call('edits.edit', { target, changes: [{ recordId: rec.id, fields: { Points: 5 } }] });
    // Killed: the next start owes the edit that was saved, and not the one the user was told was not.
    await h.kill();
    const again = await start({ restartOf: h });
    await again.parts.queue.whenIdle();
    const fields = (await again.snapshot('Tasks')).get(rec.id)?.fields;
    expect(fields).toMatchObject({ Points: 5, Name: rec.fields.Name });
    expect((await again.call('edits.status', {})).journalDamage).toBeUndefined();
  });

  it('saves nothing until the folder of a journal just compacted is synced, and cuts a refused line back to it', async () => {
    const h = await start({ queue: slow });
    const { rec, target } = await oneTask(h);
    await h.call('edits.edit', { target, changes: [{ recordId: rec.id, fields: { Name: 'acknowledged' } }] });
    h.parts.queue.sendNow();
    await h.parts.queue.whenIdle();
    await h.kill();
    expect(wholeLines(await journalText(h)).map((l) => l.t)).toEqual(['edit', 'ack']);
    // The start compacts the journal (renamed over the old one), and the folder will not sync: the rename
    // may not survive a power cut, and with it what is appended to the new file.
    const disk = new FuzzDisk();
    disk.faults.set('dirSync', 'EIO');
    const again = await start({ restartOf: h, journalFiles: disk.files(), queue: slow });
    await expect(
      again.call('edits.edit', { target, changes: [{ recordId: rec.id, fields: { Points: 7 } }] }),
    ).rejects.toMatchObject({
      kind: 'storage',
      message: expect.stringContaining('the disk reported an error'),
    });
    // Cut back to the compacted file's length, not the old one's (a longer length pads it with zero bytes).
    expect(await journalText(again)).toBe('');
    disk.faults.clear();
    await again.call('edits.edit', { target, changes: [{ recordId: rec.id, fields: { Points: 8 } }] });
    expect(wholeLines(await journalText(again))).toEqual([
      expect.objectContaining({ t: 'edit', fields: { Points: 8 } }),
    ]);
  });

  it('starts on a journal it cannot rename over, as it is, and leaves no copy behind', async () => {
    const h = await start({ queue: slow });
    const { rec, target } = await oneTask(h);
    await h.call('edits.edit', { target, changes: [{ recordId: rec.id, fields: { Name: 'owed' } }] });
    await h.kill();
    const before = await journalText(h);
    const disk = new FuzzDisk();
    disk.faults.set('rename', 'ENOSPC');
    const again = await start({ restartOf: h, journalFiles: disk.files(), queue: slow });
    // As it was (the start sends the owed edit at once: its acknowledgement may be appended already).
    expect((await journalText(again)).startsWith(before)).toBe(true);
    expect(await readdir(journalDir(h.userDataDir))).not.toContain('journal.jsonl.tmp');
    again.parts.queue.sendNow();
    await again.parts.queue.whenIdle();
    expect((await again.snapshot('Tasks')).get(rec.id)?.fields.Name).toBe('owed');
  });
});

describe('a data folder that becomes read-only while the app runs', () => {
  it.each([
    ['EROFS', 'because the disk is read-only. Make that disk writable, then make the change again.'],
    ['EACCES', 'because your user may not write in it. Give your user the right to write in that folder'],
  ])(
    'refuses an edit (%s) in words naming the folder, and takes it again once it can',
    async (code, words) => {
      const disk = new FuzzDisk();
      const h = await start({ journalFiles: disk.files(), queue: { settleMs: 10_000, maxHoldMs: 10_000 } });
      const { rec, target } = await oneTask(h);
      disk.faults.set('write', code);
      const refused = await h
        .call('edits.edit', { target, changes: [{ recordId: rec.id, fields: { Name: 'read-only' } }] })
        .then(
          () => undefined,
          (e: unknown) => e as { kind: string; message: string },
        );
      expect(refused).toMatchObject({
        kind: 'storage',
        message: expect.stringContaining(
          `Not saved: TableDesk could not write it to its journal in ${journalDir(h.userDataDir)}, ${words}`,
        ),
      });
      expect(refused?.message).not.toMatch(/E[A-Z]{3,}|permission denied/);
      expect(h.parts.queue.status().records).toEqual([]);
      disk.faults.clear();
      await h.call('edits.edit', { target, changes: [{ recordId: rec.id, fields: { Name: 'read-only' } }] });
      h.parts.queue.sendNow();
      await h.parts.queue.whenIdle();
      expect((await h.snapshot('Tasks')).get(rec.id)?.fields.Name).toBe('read-only');
    },
  );
});

describe('odd lines', () => {
  it('owes nothing for a create of no records (no upload): nothing listed, sent or reported', async () => {
    const h = await start();
    const target = h.target('Tasks');
    await h.services.close();
    const path = join(journalDir(h.userDataDir), 'journal.jsonl');
    await writeFile(
      path,
      JSON.stringify({ t: 'create', id: 'empty', at: Date.now(), target, records: [] }) + '\n',
    );
    const count = (await h.snapshot('Tasks')).size;
    const again = await start({ restartOf: h });
    const status = await again.call('edits.status', {});
    expect(status.uncertainCreates).toEqual([]);
    expect(status.journalDamage).toBeUndefined();
    await again.parts.records.recover();
    expect(again.eventsOf('records.created')).toEqual([]);
    expect((await again.snapshot('Tasks')).size).toBe(count);
    await again.services.close();
    expect(await readFile(path, 'utf8')).toBe('');
  });

  it('owes nothing for a delete of no records, interrupted or failed: nothing listed or resumed', async () => {
    const h = await start();
    const target = h.target('Tasks');
    await h.services.close();
    const path = join(journalDir(h.userDataDir), 'journal.jsonl');
    const error = { kind: 'network', message: 'The service did not answer.' };
    const lines = [
      { t: 'delete', id: 'none', at: Date.now(), target, ids: [] },
      { t: 'delete', id: 'none-failed', at: Date.now(), target, ids: [] },
      { t: 'delete-failed', id: 'none-failed', error },
    ];
    await writeFile(path, lines.map((l) => JSON.stringify(l) + '\n').join(''));
    const again = await start({ restartOf: h });
    expect(await again.call('records.pendingDeletes', {})).toEqual({ deletes: [] });
    expect((await again.call('edits.status', {})).journalDamage).toBeUndefined();
    await again.services.close();
    expect(await readFile(path, 'utf8')).toBe('');
  });
});

describe('deletes in the journal', () => {
  it('refuses a delete the disk has no room to write down: nothing is sent, every row stays', async () => {
    const disk = new FuzzDisk();
    const h = await start({ journalFiles: disk.files() });
    const target = h.target('Tasks');
    const rows = (await h.reader('Tasks').listPage({ pageSize: 3 })).records;
    disk.room = 0;
    await expect(
      h.call('records.delete', {
        target,
        records: rows.map((r) => ({ id: r.id, fields: r.fields })),
        readOnlyFields: [],
      }),
    ).rejects.toMatchObject({ kind: 'storage' });
    expect(h.seen.filter((r) => r.method === 'DELETE')).toEqual([]);
    const held = await h.snapshot('Tasks');
    for (const r of rows) expect(held.has(r.id)).toBe(true);
  });

  it('writes down each batch gone, so a restart resumes nothing of a delete that finished', async () => {
    const h = await start();
    const target = h.target('Tasks');
    const rows = (await h.reader('Tasks').listPage({ pageSize: 12 })).records;
    const done = await h.call('records.delete', {
      target,
      records: rows.map((r) => ({ id: r.id, fields: r.fields })),
      readOnlyFields: [],
    });
    expect(done.deleted).toHaveLength(12);
    await h.parts.journal.flushed();
    await h.services.close();
    const deletes = h.seen.filter((r) => r.method === 'DELETE').length;
    const again = await start({ restartOf: h });
    expect(await again.call('records.pendingDeletes', {})).toEqual({ deletes: [] });
    await again.parts.records.recover();
    expect(again.seen.filter((r) => r.method === 'DELETE')).toHaveLength(deletes);
  });
});

describe('damaged lines', () => {
  it('are set aside and reported, never fatal, and do not swallow the line after them', async () => {
    const h = await start({ queue: { settleMs: 10_000, maxHoldMs: 10_000 } });
    const { rec, target } = await oneTask(h);
    await h.call('edits.edit', { target, changes: [{ recordId: rec.id, fields: { Name: 'kept' } }] });
    await h.services.close();
    const dir = journalDir(h.userDataDir);
    const path = join(dir, 'journal.jsonl');
    const good = wholeLines(await readFile(path, 'utf8'))[0]!;
    const torn = '{"t":"edit","id":"torn","fie';
    // Wrong shapes (a bad id, an ack without refs), a torn piece glued to a whole line, and bytes.
    await writeFile(
      path,
      ['{"t":"edit","id":"zz"}', '{"t":"ack"}', torn + JSON.stringify(good), '\u0000\u0001'].join('\n') +
        '\n',
    );
    const again = await start({ restartOf: h });
    await again.parts.queue.whenIdle();
    expect((await again.snapshot('Tasks')).get(rec.id)?.fields.Name).toBe('kept');
    const status = await again.call('edits.status', {});
    expect(status.journalDamage).toEqual({
      file: join(dir, 'journal.damaged.jsonl'),
      lines: 4,
      message: expect.stringContaining('4 unreadable lines of the edit journal (damaged, or cut short'),
    });
    expect(again.eventsOf('edits.journalDamage')).toEqual([{ damage: status.journalDamage }]);
    const aside = (await readFile(join(dir, 'journal.damaged.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { text: string }).text);
    expect(aside).toEqual(['{"t":"edit","id":"zz"}', '{"t":"ack"}', torn, '\u0000\u0001']);
    // The journal itself holds whole lines only again.
    expect(wholeLines(await readFile(path, 'utf8')).map((l) => l.t)).toEqual(['edit', 'ack']);

    expect(await again.call('edits.dismissJournalDamage', {})).toEqual({ dismissed: true });
    expect((await again.call('edits.status', {})).journalDamage).toBeUndefined();
  });

  it('are reported, and stay in the journal, when the disk will not let them be set aside', async () => {
    const h = await start();
    await h.services.close();
    const path = join(journalDir(h.userDataDir), 'journal.jsonl');
    await writeFile(path, '{"t":"ack"}\n');
    const disk = new FuzzDisk();
    disk.room = 0;
    const again = await start({ restartOf: h, journalFiles: disk.files() });
    expect((await again.call('edits.status', {})).journalDamage).toMatchObject({
      lines: 1,
      message: expect.stringContaining('could not be set aside (the disk refused)'),
    });
    await again.services.close();
    expect(await readFile(path, 'utf8')).toBe('{"t":"ack"}\n');
  });
});

describe('a write the disk takes nothing of', () => {
  it('is the disk refusing (the state of this computer), not a bug', async () => {
    const handle = {
      write: async () => ({ bytesWritten: 0 }),
      datasync: async () => undefined,
      sync: async () => undefined,
      truncate: async () => undefined,
      close: async () => undefined,
    };
    const refused: unknown = await writeAll(handle, 'a line\n').catch((e: unknown) => e);
    expect(toChannelError(refused)).toEqual({ kind: 'storage', message: 'No space left on the device' });
  });
});
