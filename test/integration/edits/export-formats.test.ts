/**
 * CSV export with the user's time zone and locale: every cell as the service writes it for people
 * (cellFormat=string), which is what Airtable's own CSV export writes: durations in their format, percents,
 * currency, checkboxes, linked records by name, dates in their field's format, multiple selects joined.
 * Records come from the real local server.
 */
import Papa from 'papaparse';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness } from './harness';
import type { Harness } from './harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const FIELDS = ['Name', 'Estimate', 'Budget', 'Progress', 'Done', 'Assignee', 'Tags', 'Due', 'Points'];
const MARK = 'export-formats-test';

describe('CSV export in the formats people read', () => {
  it('writes each cell as the service shows it, negative amounts as they are and formulas quoted', async () => {
    h = await startHarness();
    const [person] = (await h.reader('People').listPage({ pageSize: 1 })).records;
    const [made] = await h.reader('Tasks').createMany([
      {
        Name: '=1+1',
        Notes: MARK,
        Estimate: 5400,
        Budget: -1200.5,
        Progress: 0.25,
        Done: true,
        Assignee: [person!.id],
        Tags: ['Bug', 'Docs'],
        Due: '2024-03-07',
        Points: -5,
      },
      { Name: `plain ${MARK}`, Notes: MARK, Estimate: 900, Budget: 3.5, Points: 12000 },
    ]);
    const { exportId } = await h.call('export.start', {
      target: h.target('Tasks'),
      query: { formula: `{Notes} = '${MARK}'`, fields: FIELDS },
      includeRecordId: true,
      timeZone: 'UTC',
      userLocale: 'en-US',
    });
    await h.parts.exports.settled(exportId);
    const { csv } = await h.call('export.take', { exportId });
    const rows = Papa.parse<string[]>(csv, { skipEmptyLines: true }).data;
    expect(rows[0]).toEqual(['Record ID', ...FIELDS]);
    const byId = new Map(rows.slice(1).map((r) => [r[0], r.slice(1)]));
    expect(byId.get(made!.id)).toEqual([
      "'=1+1",
      '1:30',
      '-$1,200.50',
      '25%',
      'checked',
      String(person!.fields.Name),
      'Bug, Docs',
      '2024-03-07',
      '-5.0',
    ]);
    // A negative amount is written bare, not behind the quote that marks text a spreadsheet would run.
    expect(csv).toContain(',"-$1,200.50",25%,');
    expect(csv).toContain(',2024-03-07,-5.0\r\n');

    // Every cell equals what the service answers with cellFormat=string.
    const shown = await h.reader('Tasks').all({
      formula: `{Notes} = '${MARK}'`,
      fields: FIELDS,
      cellFormat: 'string',
      timeZone: 'UTC',
      userLocale: 'en-US',
    });
    expect(shown).toHaveLength(2);
    for (const r of shown.filter((r) => r.id !== made!.id))
      expect(byId.get(r.id)).toEqual(FIELDS.map((f) => String(r.fields[f] ?? '')));
  });
});

describe('an export right after an edit', () => {
  it('holds the value just typed, not the service’s older one', async () => {
    h = await startHarness();
    const [made] = await h.reader('Tasks').createMany([{ Name: `before ${MARK}`, Notes: MARK }]);
    // Not awaited: the edit is being journaled, or waits for a pause in typing, when Export is clicked.
    const edit = h.call('edits.edit', {
      target: h.target('Tasks'),
      changes: [{ recordId: made!.id, fields: { Name: `after ${MARK}` } }],
    });
    const { exportId } = await h.call('export.start', {
      target: h.target('Tasks'),
      query: { formula: `{Notes} = '${MARK}'`, fields: ['Name'] },
    });
    await edit;
    await h.parts.exports.settled(exportId);
    const { csv } = await h.call('export.take', { exportId });
    expect(Papa.parse<string[]>(csv, { skipEmptyLines: true }).data).toEqual([['Name'], [`after ${MARK}`]]);
  });
});
