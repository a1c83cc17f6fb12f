import { describe, expect, it } from 'vitest';
import { inferColumns, inferFieldType } from '../../../core/records/infer-columns';
import type { InferredColumn } from '../../../core/records/infer-columns';

const rec = (fields: Record<string, unknown>) => ({ id: 'rec00000000000001', createdTime: '', fields });

describe('column inference from cell values', () => {
  it('recognises the shapes of the service JSON cell format', () => {
    expect(inferFieldType(true)).toBe('checkbox');
    expect(inferFieldType(3.5)).toBe('number');
    expect(inferFieldType('2026-11-21')).toBe('date');
    expect(inferFieldType('2026-11-21T06:48:14.000Z')).toBe('dateTime');
    expect(inferFieldType('one\ntwo')).toBe('multilineText');
    expect(inferFieldType('plain')).toBe('singleLineText');
    expect(inferFieldType(['recAAAAAAAAAAAAAA', 'recBBBBBBBBBBBBBB'])).toBe('multipleRecordLinks');
    expect(inferFieldType([{ id: 'att1', url: 'https://x/y.png', filename: 'y.png' }])).toBe(
      'multipleAttachments',
    );
    expect(inferFieldType(['Bug', 'Docs'])).toBe('multipleSelects');
    expect(inferFieldType({ id: 'usr1', email: 'a@b.c' })).toBe('unknown');
  });

  it('grows columns in first-seen order and settles disagreements on a type that shows any value', () => {
    const known: InferredColumn[] = [];
    expect(inferColumns(known, [rec({ Name: 'a', Due: '2026-01-01' }), rec({ Points: 3 })])).toBe(true);
    expect(known.map((c) => c.name)).toEqual(['Name', 'Due', 'Points']);
    expect(inferColumns(known, [rec({ Name: 'b', Points: 4 })])).toBe(false);
    expect(inferColumns(known, [rec({ Due: '2026-01-01T10:00:00.000Z', Points: 'n/a' })])).toBe(true);
    expect(Object.fromEntries(known.map((c) => [c.name, c.type]))).toEqual({
      Name: 'singleLineText',
      Due: 'dateTime',
      Points: 'singleLineText',
    });
  });
});
