import { describe, expect, it } from 'vitest';
import { splitCall, utf8Length } from '../../../core/contract/split-calls';

const frameOf = (channel: string) => (request: unknown) =>
  JSON.stringify({ t: 'call', id: Number.MAX_SAFE_INTEGER, channel, request });

describe('splitting a call over the frame limit', () => {
  it('cuts the list into parts that each fit, in order, and keeps the rest of the request', () => {
    const records = Array.from({ length: 500 }, (_, i) => ({
      fields: { Name: `é${i} ${'x'.repeat(i % 90)}` },
    }));
    const request = { target: { connectionId: 'c', baseId: 'b', table: 't' }, records, typecast: true };
    const split = splitCall('records.create', request, frameOf('records.create'), 4096)!;
    expect(split.requests.length).toBeGreaterThan(5);
    for (const part of split.requests) {
      expect(utf8Length(frameOf('records.create')(part))).toBeLessThanOrEqual(4096);
      expect(part).toMatchObject({ target: request.target, typecast: true });
    }
    expect(split.requests.flatMap((p) => p.records as unknown[])).toEqual(records);
  });

  it('merges the answers as one: failed indexes count from the start of the whole request', () => {
    const records = Array.from({ length: 30 }, (_, i) => ({ fields: { Name: `${i}`.padEnd(100, '.') } }));
    const split = splitCall('records.create', { records }, frameOf('records.create'), 1200)!;
    const sizes = split.requests.map((p) => (p.records as unknown[]).length);
    expect(sizes.length).toBeGreaterThan(2);
    const answers = sizes.map((n, part) => ({
      created: [{ id: `rec${part}` }],
      failed: [{ index: n - 1, outcome: 'rejected' }],
    }));
    const merged = split.merge(answers) as { created: unknown[]; failed: { index: number }[] };
    expect(merged.created).toHaveLength(sizes.length);
    let offset = 0;
    merged.failed.forEach((f, part) => {
      expect(f.index).toBe(offset + sizes[part]! - 1);
      offset += sizes[part]!;
    });
  });

  it('concatenates edit ids and delete outcomes', () => {
    const changes = Array.from({ length: 40 }, (_, i) => ({
      recordId: `rec${i}`,
      fields: { a: 'y'.repeat(50) },
    }));
    const edit = splitCall('edits.edit', { changes }, frameOf('edits.edit'), 800)!;
    const ids = edit.requests.map((p, i) => ({
      editIds: (p.changes as unknown[]).map((_, j) => `${i}.${j}`),
    }));
    expect((edit.merge(ids) as { editIds: string[] }).editIds).toHaveLength(40);
    const del = splitCall(
      'records.delete',
      { records: changes.map((c) => ({ id: c.recordId })) },
      frameOf('records.delete'),
      300,
    )!;
    const merged = del.merge(del.requests.map((_, i) => ({ deleted: [`d${i}`], remaining: [] }))) as {
      deleted: string[];
    };
    expect(merged.deleted).toHaveLength(del.requests.length);
  });

  it('cannot split a channel without a list, nor an item that alone is too large', () => {
    expect(splitCall('app.info', {}, frameOf('app.info'), 100)).toBeUndefined();
    expect(splitCall('view.open', { table: 'x'.repeat(500) }, frameOf('view.open'), 100)).toBeUndefined();
    const big = { records: [{ fields: { Name: 'x'.repeat(500) } }] };
    expect(splitCall('records.create', big, frameOf('records.create'), 300)).toBeUndefined();
  });
});
