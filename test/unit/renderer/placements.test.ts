/** Records inserted above or below a row show there, among the service's rows and the records placed before. */
import { describe, expect, it } from 'vitest';
import type { RecordData } from '../../../core/records/types';
import { Placements, placedRows } from '../../../renderer/src/rows/placements';

const rec = (id: string): RecordData => ({ id, createdTime: '2024-01-01T00:00:00.000Z', fields: {} });

describe('Placements.insert', () => {
  // The service's order: a..f, then the records created at its end (x, y, z).
  const server = [...'abcdefxyz'].map(rec);
  const fetch = async (start: number, end: number) => ({
    records: server.slice(start, end),
    ...(end >= server.length ? { rowCount: server.length } : {}),
  });
  const ids = async (p: Placements, start: number, end: number) =>
    (await placedRows(p, start, end, fetch)).records.map((r) => r.id).join('');

  it('shows new records from the index asked for, in order', async () => {
    const p = new Placements();
    p.insert(2, [rec('x'), rec('y')]);
    expect(await ids(p, 0, 9)).toBe('abxycdefz');
    expect((await ids(p, 0, 3)) + (await ids(p, 3, 6)) + (await ids(p, 6, 9))).toBe('abxycdefz');
  });

  it('moves the records placed at or below the index down, and leaves those above', async () => {
    const p = new Placements();
    p.insert(1, [rec('x')]);
    p.insert(4, [rec('y')]);
    p.insert(1, [rec('z')]);
    expect(p.list.map((r) => `${r.record.id}${r.index}`)).toEqual(['z1', 'x2', 'y5']);
    expect(await ids(p, 0, 9)).toBe('azxbcydef');
  });
});
