import { describe, expect, it } from 'vitest';
import type { Column } from '../../../core/contract';
import { IMPORT_MAX_COLUMNS, IMPORT_MAX_FILE_BYTES, IMPORT_MAX_ROWS } from '../../../core/contract/imports';
import {
  autoMap,
  mergeable,
  mergeProblem,
  planImport,
  readCsv,
} from '../../../renderer/src/rows/import/plan';
import type { CsvFile } from '../../../renderer/src/rows/import/plan';
import { parts } from '../../../renderer/src/rows/import/useImportJob';

const field = (name: string, type: string, options?: Record<string, unknown>, primary = false): Column =>
  ({ name, type, primary, inferred: false, ...(options ? { options } : {}) }) as Column;

const FIELDS = [
  field('Name', 'singleLineText', undefined, true),
  field('Points', 'number'),
  field('Status', 'singleSelect', { choices: [{ name: 'Todo' }, { name: 'Done' }] }),
  field('Due', 'date'),
  field('Done', 'checkbox'),
  field('Task #', 'autoNumber'),
  field('Total', 'formula'),
  field('Photo', 'multipleAttachments'),
];

const bytes = (text: string) => new TextEncoder().encode(text);
const read = (text: string | Uint8Array): CsvFile => {
  const r = readCsv(typeof text === 'string' ? bytes(text) : text);
  if (!r.ok) throw new Error(r.error);
  return r.file;
};

describe('reading a CSV file', () => {
  it('drops a BOM, reads CRLF, quoted commas, quotes and line breaks, and numbers rows as in the file', () => {
    const file = read('\uFEFFName,Points\r\n"a, ""quoted""\r\nline",1\r\nb,2\r\n\r\n');
    expect(file.header).toEqual(['Name', 'Points']);
    expect(file.rows).toEqual([
      { line: 2, cells: ['a, "quoted"\r\nline', '1'] },
      { line: 3, cells: ['b', '2'] },
    ]);
    expect(file.broken).toEqual([]);
    expect(file.note).toBeUndefined();
  });

  it('reads UTF-16 by its BOM and bytes that are not UTF-8 as Windows-1252, saying so', () => {
    const utf16 = new Uint8Array([
      0xff,
      0xfe,
      ...new Uint8Array(new Uint16Array([...'N\nü'].map((c) => c.charCodeAt(0))).buffer),
    ]);
    expect(read(utf16).rows).toEqual([{ line: 2, cells: ['ü'] }]);
    const latin = read(new Uint8Array([...bytes('Name\nCaf'), 0xe9]));
    expect(latin.rows[0]!.cells).toEqual(['Café']);
    expect(latin.note).toMatch(/Windows-1252/);
  });

  it('refuses files too large, too long or too wide, and empty ones, with a reason', () => {
    const big = readCsv(new Uint8Array(IMPORT_MAX_FILE_BYTES + 1));
    expect(big).toEqual({ ok: false, error: expect.stringMatching(/up to 5 MiB/) });
    const long = readCsv(bytes('Name\n' + 'x\n'.repeat(IMPORT_MAX_ROWS + 1)));
    expect(long).toEqual({ ok: false, error: expect.stringMatching(/more than 10,000 rows/) });
    expect(readCsv(bytes('Name\n' + 'x\n'.repeat(IMPORT_MAX_ROWS))).ok).toBe(true);
    const wide = readCsv(bytes(Array.from({ length: IMPORT_MAX_COLUMNS + 1 }, (_, i) => `c${i}`).join(',')));
    expect(wide).toEqual({ ok: false, error: expect.stringMatching(/101 columns/) });
    expect(readCsv(bytes(''))).toEqual({ ok: false, error: expect.stringMatching(/empty/) });
    expect(readCsv(bytes('Name\n'))).toEqual({ ok: false, error: expect.stringMatching(/no rows/) });
  });

  it('lists rows with more cells than the header, never sending them', () => {
    const file = read('Name,Points\na,1\nb,2,3\n');
    expect(file.broken).toEqual([{ line: 3, reason: '3 cells, but the header names 2 columns' }]);
    expect(file.rows.map((r) => r.line)).toEqual([2]);
  });
});

describe('mapping and typing', () => {
  it('maps columns by name, case-insensitive, each field once, never to computed fields or attachments', () => {
    expect(autoMap(['name', 'POINTS', 'Task #', 'Total', 'Photo', 'Other', 'Name'], FIELDS)).toEqual([
      'Name',
      'Points',
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it('types each cell by its field and lists the rows that will fail with why', () => {
    const file = read(
      'Name,Points,Status,Due,Done,Skip me\na,"1,234.5",Todo,2025-03-04,yes,x\nb,abc,New one,,,x\nc,,Done,not a date,no,x\n',
    );
    const plan = planImport(file, ['Name', 'Points', 'Status', 'Due', 'Done', null], FIELDS);
    expect(plan.fields).toEqual(['Name', 'Points', 'Status', 'Due', 'Done']);
    expect(plan.rows).toEqual([
      { line: 2, values: ['a', 1234.5, 'Todo', '2025-03-04', true], typecast: false },
    ]);
    expect(plan.failing).toEqual([
      { line: 3, reason: 'Points: "abc" is not a number' },
      { line: 4, reason: 'Due: "not a date" is not a date' },
    ]);
    // An empty cell stays empty (an upsert keeps the record's value), even for a checkbox.
    const ok = planImport(read('Name,Status,Done\nb,New one,\n'), ['Name', 'Status', 'Done'], FIELDS);
    // A select name the field does not have yet goes with typecast: the service adds it.
    expect(ok.rows).toEqual([{ line: 2, values: ['b', 'New one', null], typecast: true }]);
  });

  it('merges only on mapped fields of the types the service allows', () => {
    expect(mergeable(FIELDS).map((f) => f.name)).toEqual(['Name', 'Points', 'Status', 'Due']);
    const plan = planImport(read('Name,Points\na,1\n'), ['Name', 'Points'], FIELDS);
    expect(mergeProblem(plan, ['Name'])).toBeUndefined();
    expect(mergeProblem(plan, [])).toMatch(/Choose/);
    expect(mergeProblem(plan, ['Due'])).toMatch(/Map a column to Due/);
  });

  it('sends the rows in parts that fit a frame of the browser door', () => {
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      line: i + 2,
      values: ['x'.repeat(400)],
      typecast: false,
    }));
    const split = parts(rows);
    expect(split.length).toBeGreaterThan(1);
    expect(split.flat()).toEqual(rows);
    for (const p of split) expect(JSON.stringify(p).length).toBeLessThan(600 * 1024);
  });
});
