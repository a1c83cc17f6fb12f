/**
 * `Table.seek` against the real server through the fault proxy: the offset it gets starts `listPage` at the
 * position with the same options; a formula too long for a URL goes as a POST; a bad position never leaves
 * the client, and an answer of the wrong shape is a clear error.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RecordTableError, SEEK_EXTENSION } from '../../../core/api/index';
import type { ListOptions } from '../../../core/api/index';
import { startHarness } from './setup';
import type { Harness } from './setup';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ rateLimit: 'off' });
});
afterEach(() => h.proxy.reset());
afterAll(() => h.close());

const isSeek = (path: string) => /^\/_tabledesk\/v1\/[^/]+\/Tasks\/seek/.test(path);

describe('Table.seek', () => {
  it('is named by the server, and starts listPage at the position with the same options', async () => {
    const client = h.client({ requestsPerSecond: 200 });
    expect((await client.extensions()).has(SEEK_EXTENSION)).toBe(true);
    const tasks = client.table(h.baseId, 'Tasks');
    const opts: ListOptions = {
      sort: ['Status', '-Due'],
      formula: "NOT({Status} = 'Done')",
      fields: ['Name'],
    };
    const all = (await tasks.all(opts)).map((r) => r.id);
    for (const position of [0, 250, all.length - 5]) {
      const found = await tasks.seek(position, opts);
      expect(found).toEqual({
        offset: position === 0 ? null : expect.any(String),
        position,
        total: all.length,
      });
      const page = await tasks.listPage({ ...opts, offset: found.offset ?? undefined, pageSize: 10 });
      expect(page.records.map((r) => r.id)).toEqual(all.slice(position, position + 10));
    }
    expect(await tasks.seek(all.length + 1000, opts)).toMatchObject({
      position: all.length,
      total: all.length,
    });
  });

  it('sends a formula too long for a URL as a POST', async () => {
    const tasks = h.client({ requestsPerSecond: 200 }).table(h.baseId, 'Tasks');
    const formula = `OR(${Array.from({ length: 600 }, (_, i) => `{Name} = 'none ${i}'`).join(', ')}, {Budget} > 100)`;
    const found = await tasks.seek(20, { formula, sort: ['Name'] });
    expect(found.total).toBe(await tasks.count({ formula }));
    const seeks = h.proxy.log.filter((r) => isSeek(r.path));
    expect(seeks.map((r) => r.method)).toEqual(['POST']);
    expect(JSON.parse(seeks[0]!.body)).toMatchObject({ position: 20, filterByFormula: formula });
  });

  it('refuses a position that is not a whole number from 0 before sending anything', async () => {
    const tasks = h.client().table(h.baseId, 'Tasks');
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])
      await expect(tasks.seek(bad)).rejects.toThrow(/position must be a whole number from 0/);
    expect(h.proxy.log).toHaveLength(0);
  });

  it('turns an answer of the wrong shape into a clear error', async () => {
    const tasks = h.client({ maxRetries: 0 }).table(h.baseId, 'Tasks');
    for (const body of [
      '{"offset":"itr1/rec1","position":9,"total":5}',
      '{"offset":"","position":1,"total":5}',
      '[]',
    ]) {
      h.proxy.inject({ type: 'replace-body', status: 200, body }, { match: (r) => isSeek(r.path) });
      await expect(tasks.seek(1)).rejects.toBeInstanceOf(RecordTableError);
    }
  });
});
