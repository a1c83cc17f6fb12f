/**
 * A journal is read back as a stream, a line at a time: a line over the bound is damage (reported, set aside
 * by its first bytes, skipped), never read whole and never in the way of the lines around it; and a long
 * journal of settled lines opens compacted to what is still owed.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAMAGED_FILE, Journal, MAX_LINE_BYTES } from '../../../services/edits/journal';
import { journalEdit } from './journal-edit';

const edit = journalEdit;
const text = (line: unknown) => JSON.stringify(line) + '\n';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'td-journal-size-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** Writes `parts` to the journal file as they come (a part may be a generator of many). */
async function writeJournal(parts: Iterable<string>): Promise<void> {
  const out = createWriteStream(join(dir, 'journal.jsonl'));
  for (const part of parts) if (!out.write(part)) await once(out, 'drain');
  out.end();
  await once(out, 'close');
}

describe('a journal read back', () => {
  it('reports and skips a line over the bound, and keeps the edits on both sides of it', async () => {
    const huge = text(edit('huge', 'rec9', { Notes: 'x'.repeat(MAX_LINE_BYTES) }));
    await writeJournal([
      text(edit('before', 'rec1', { Name: 'before' })),
      huge,
      text(edit('after', 'rec2', { Name: 'after' })),
    ]);
    const journal = await Journal.open(dir);
    try {
      expect(journal.liveEdits().map((e) => e.line.id)).toEqual(['before', 'after']);
      expect((await journal.damage())?.lines).toBe(1);
      const aside = (await readFile(join(dir, DAMAGED_FILE), 'utf8')).trim().split('\n');
      expect(aside).toHaveLength(1);
      const piece = (JSON.parse(aside[0]!) as { text: string }).text;
      expect(piece.startsWith('{"t":"edit","id":"huge"')).toBe(true);
      expect(piece).toContain(`a line of ${Buffer.byteLength(huge)} bytes`);
      // Compacted on open: the file holds the two owed edits, not the huge line.
      expect((await stat(join(dir, 'journal.jsonl'))).size).toBeLessThan(1024);
    } finally {
      await journal.close();
    }
  });

  it('reads a line over the bound cut short at the end of the file as damage too', async () => {
    await writeJournal([
      text(edit('kept', 'rec1', { Name: 'kept' })),
      `{"t":"edit","id":"torn","x":"${'y'.repeat(MAX_LINE_BYTES)}`,
    ]);
    const journal = await Journal.open(dir);
    try {
      expect(journal.liveEdits().map((e) => e.line.id)).toEqual(['kept']);
      expect((await journal.damage())?.lines).toBe(1);
      // The next line appended starts a line of its own and is read back.
      await journal.append(edit('next', 'rec3', { Name: 'next' }));
    } finally {
      await journal.close();
    }
    const again = await Journal.open(dir);
    try {
      expect(again.liveEdits().map((e) => e.line.id)).toEqual(['kept', 'next']);
    } finally {
      await again.close();
    }
  });

  it('opens a long journal of settled edits compacted to the ones still owed', async () => {
    function* settled() {
      for (let i = 0; i < 20_000; i++) {
        yield text(edit(`e${i}`, `rec${i}`, { Name: `value ${i}` }));
        if (i % 100 !== 7) yield text({ t: 'ack', refs: [[`e${i}`, 'Name']] });
      }
    }
    await writeJournal(settled());
    const journal = await Journal.open(dir);
    try {
      const owed = journal.liveEdits().map((e) => e.line.id);
      expect(owed).toHaveLength(200);
      expect(owed.slice(0, 2)).toEqual(['e7', 'e107']);
      expect(await journal.damage()).toBeUndefined();
    } finally {
      await journal.close();
    }
    const compacted = (await readFile(join(dir, 'journal.jsonl'), 'utf8')).trim().split('\n');
    expect(compacted).toHaveLength(200);
  });

  it('refuses to append a line the next start would not read back whole', async () => {
    await writeFile(join(dir, 'journal.jsonl'), '');
    const journal = await Journal.open(dir);
    try {
      await expect(
        journal.append(edit('big', 'rec1', { Notes: 'z'.repeat(MAX_LINE_BYTES) })),
      ).rejects.toThrow(/too large for the edit journal/);
      expect(journal.liveEdits()).toEqual([]);
    } finally {
      await journal.close();
    }
  });
});
