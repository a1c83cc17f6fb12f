import { describe, expect, it } from 'vitest';
import type { Column } from '../../../core/contract';
import type { RecordData } from '../../../core/records/types';
import { parseInput } from '../../../renderer/src/editing/parse';
import { formatCell } from '../../../renderer/src/grid/format';
import { planPaste } from '../../../renderer/src/rows/paste';
import { Placements, placedRows } from '../../../renderer/src/rows/placements';
import { parseTsv, toTsv } from '../../../renderer/src/rows/tsv';
import { placeColumns } from '../../../renderer/src/table/column-order';

const field = (name: string, type: string, options?: Record<string, unknown>): Column =>
  ({ name, type, ...(options ? { options } : {}) }) as Column;
const rec = (id: string, fields: Record<string, unknown> = {}): RecordData => ({
  id,
  createdTime: '',
  fields,
});

describe('what the grid copies, it pastes back', () => {
  const cases: [Column, unknown][] = [
    [field('Priority', 'rating', { max: 5 }), 3],
    [field('Progress', 'percent', { precision: 0 }), 0.42],
    [field('Budget', 'currency', { symbol: '$', precision: 2 }), -1234.5],
    [field('Estimate', 'duration', { durationFormat: 'h:mm' }), 5400],
    [field('Done', 'checkbox'), true],
    [field('Done', 'checkbox'), false],
    [field('Due', 'date'), '2022-09-05'],
    [field('Started at', 'dateTime'), '2025-03-04T13:45:00.000Z'],
    [field('Status', 'singleSelect', { choices: [{ name: 'Todo' }] }), 'Todo'],
    [field('Tags', 'multipleSelects', { choices: [{ name: 'Bug' }, { name: 'Docs' }] }), ['Bug', 'Docs']],
    [field('Notes', 'multilineText'), 'two\tcells\nand "quotes"'],
    [field('Points', 'number', { precision: 1 }), 12.5],
  ];
  it.each(cases)('%o holding %o', (f, value) => {
    const text = parseTsv(toTsv([[formatCell(value, f)]]))[0]?.[0] ?? '';
    expect(parseInput(f, text)).toMatchObject({ ok: true, value });
  });

  it('pastes links by their record ids, and says which cells it skipped and why, one line each', () => {
    const columns = [field('Assignee', 'multipleRecordLinks'), field('Photo', 'multipleAttachments')];
    const more = [...columns, field('Task #', 'autoNumber'), field('Value', 'formula')];
    const plan = planPaste(parseTsv('recAAAA, recBBBB\tphoto.png\t7\t8\textra\nrecCCCC\t\t9\t10'), {
      columns: more,
      startRow: 0,
      rowAt: (i) => rec(`rec${i}`),
      shown: () => undefined,
    });
    expect(plan.changes.map((c) => c.fields)).toEqual([
      { Assignee: ['recAAAA', 'recBBBB'] },
      { Assignee: ['recCCCC'] },
    ]);
    expect(plan.problems).toEqual([
      'Photo: attachments cannot be pasted (2 cells skipped)',
      'Task #: read-only field (2 cells skipped)',
      'Value: read-only field (2 cells skipped)',
      '1 cell fell past the last column',
    ]);
    expect(parseInput(field('Priority', 'rating'), '★★☆☆☆')).toMatchObject({ value: 2 });
  });
});

describe('placedRows', () => {
  // The service's order: a..j, then the two records an undo re-created at its end.
  const server = [...'abcdefghij'].map((id) => rec(id)).concat([rec('x'), rec('y')]);
  const fetch = async (start: number, end: number) => ({
    records: server.slice(start, end),
    ...(end >= server.length ? { rowCount: server.length } : {}),
  });
  const placements = new Placements();
  placements.add([
    { index: 1, record: rec('x', { kept: true }) },
    { index: 6, record: rec('y') },
  ]);
  const ids = async (start: number, end: number) =>
    (await placedRows(placements, start, end, fetch)).records.map((r) => r.id).join('');

  it('shows restored records at their old indices, block by block', async () => {
    expect(await ids(0, 12)).toBe('axbcdeyfghij');
    expect((await ids(0, 4)) + (await ids(4, 8)) + (await ids(8, 12))).toBe('axbcdeyfghij');
    expect(await ids(10, 20)).toBe('ij');
  });

  it("takes the service's copy of a restored record once read", async () => {
    await ids(8, 12);
    expect(placements.list[0]?.record.fields).toEqual({});
  });
});

describe('placeColumns', () => {
  const table = ['Name', 'A', 'B', 'C', 'D'].map((n) => field(n, 'singleLineText'));
  it('puts re-shown fields back after their table neighbour, keeping a dragged order', () => {
    const sel = 'ag-Grid-SelectionColumn';
    // C was dragged before A: D follows C, B follows A.
    expect(placeColumns(['Name', sel, 'C', 'A', 'B', 'D'], new Set(['B', 'D']), table)).toEqual([
      'Name',
      sel,
      'C',
      'D',
      'A',
      'B',
    ]);
    expect(placeColumns([sel, 'C', 'A', 'Name', 'B'], new Set(['Name', 'B']), table)).toEqual([
      sel,
      'Name',
      'C',
      'A',
      'B',
    ]);
  });
});
