import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordTableClient, TableClient } from '../../../core/api/index';
import { isExpiredOffset } from '../../../core/api/index';
import { freshTable, startHarness } from './setup';
import type { Harness } from './setup';

// Offsets that expire quickly, so a slow reader sees LIST_RECORDS_ITERATOR_NOT_AVAILABLE.
const TTL_MS = 400;

let h: Harness;
let client: RecordTableClient;
let t: TableClient;

beforeAll(async () => {
  h = await startHarness({ offsetTtlMs: TTL_MS });
  client = h.client();
  t = await freshTable(h, client, 'Paging');
  await t.createMany(Array.from({ length: 25 }, (_, i) => ({ Name: `p${String(i).padStart(2, '0')}` })));
});
afterAll(() => h.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('expired offsets', () => {
  it('surfaces an expired offset from listPage as the service error', async () => {
    const first = await t.listPage({ pageSize: 10 });
    await sleep(TTL_MS + 200);
    const err = await t.listPage({ pageSize: 10, offset: first.offset }).catch((e: unknown) => e);
    expect(isExpiredOffset(err)).toBe(true);
    expect(err).toMatchObject({ kind: 'http', status: 422, type: 'LIST_RECORDS_ITERATOR_NOT_AVAILABLE' });
  });

  it('restarts a full iteration from the beginning without handing a record out twice', async () => {
    const seen: string[] = [];
    const mark = h.proxy.log.length;
    let slowOnce = true;
    for await (const page of t.pages({ pageSize: 10, sort: ['Name'] })) {
      seen.push(...page.map((r) => r.fields.Name as string));
      if (slowOnce) {
        slowOnce = false;
        await sleep(TTL_MS + 200);
      }
    }
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => `p${String(i).padStart(2, '0')}`));
    const statuses = h.proxy.log.slice(mark).map((e) => e.status);
    expect(statuses).toEqual([200, 422, 200, 200, 200]);
  });

  it('honours maxRecords across a restart', async () => {
    const seen: string[] = [];
    let slowOnce = true;
    for await (const page of t.pages({ pageSize: 10, maxRecords: 15, sort: ['Name'] })) {
      seen.push(...page.map((r) => r.id));
      if (slowOnce) {
        slowOnce = false;
        await sleep(TTL_MS + 200);
      }
    }
    expect(seen).toHaveLength(15);
    expect(new Set(seen).size).toBe(15);
  });
});
