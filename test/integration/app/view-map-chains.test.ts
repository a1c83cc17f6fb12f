/**
 * The map of a table's own order (no named view, no sort), where the service only walks (the real local server
 * behind the fault proxy, its extensions off): chains over ranges of creation time walk at once, and the map is
 * still the view's order, id by id; where the table is not listed in creation order the map finds out and walks
 * it as one chain, and a named view (whose order the service's UI may set) is one chain from the start. The
 * tables are written through the server's private mirror routes, which set each record's creation time: two
 * records to a second in Items, so ranges split between instants, never inside one.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RecordTableClient } from '../../../core/api/index';
import type { ListOptions } from '../../../core/api/index';
import { ViewMap } from '../../../services/table-view/view-map';
import { asHostedService, startFaultProxy } from '../../support/fault-proxy';
import type { FaultProxy, ProxiedRequest } from '../../support/fault-proxy';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';

const BASE = 'appMAPCHAINS00001';
/** More than the first chain maps alone (2,000) before others join it. */
const RECORDS = 4000;
const MIRROR = `/_tabledesk/mirror/bases/${BASE}`;
const START = Date.parse('2025-03-01T00:00:00.000Z');

/**
 * The test's tables, each listed (its records made) in the order of i, with the creation times given (in
 * seconds from START): Items in creation order, two to a second; Pairs with each two neighbours made the other
 * way round (the order breaks on the first page); Late in creation order but for its last 100 records, made the
 * other way round (the order breaks only where the latest chain walks).
 */
const TABLES = {
  Items: (i: number) => Math.floor(i / 2),
  Pairs: (i: number) => i ^ 1,
  Late: (i: number) => (i < RECORDS - 100 ? i : 2 * RECORDS - 101 - i),
};
type TableName = keyof typeof TABLES;
const tableId = (k: number) => `tblMAPCHAINS0000${k}`;
const nameId = (k: number) => `fldMAPCHAINS0000${k}`;

let server: LocalServer;
let proxy: FaultProxy;
let hostedClient: RecordTableClient;
let straightClient: RecordTableClient;

const recordId = (k: number, i: number) => `recMapItm${k}${String(i).padStart(7, '0')}`;

beforeAll(async () => {
  server = await startLocalServer({ demo: false });
  const names = Object.keys(TABLES) as TableName[];
  const schema = await server.request('PUT', MIRROR, {
    name: 'Map chains',
    tables: names.map((name, k) => ({
      id: tableId(k),
      name,
      primaryFieldId: nameId(k),
      fields: [{ id: nameId(k), name: 'Name', type: 'singleLineText' }],
      views: [
        { id: `viwMAPCHAINS0000${k}`, name: 'Grid view', type: 'grid' },
        {
          id: `viwMAPCHAINS0001${k}`,
          name: 'Backwards',
          type: 'grid',
          sort: [{ fieldId: nameId(k), direction: 'desc' }],
        },
      ],
    })),
  });
  expect(schema.status).toBe(200);
  for (const [k, name] of names.entries()) {
    for (let from = 0; from < RECORDS; from += 1000) {
      const records = Array.from({ length: Math.min(1000, RECORDS - from) }, (_, j) => {
        const i = from + j;
        return {
          id: recordId(k, i),
          createdTime: new Date(START + TABLES[name](i) * 1000).toISOString(),
          fields: { [nameId(k)]: `Item ${String(i).padStart(5, '0')}` },
        };
      });
      const put = await server.request('POST', `${MIRROR}/tables/${tableId(k)}/records`, { records });
      expect(put.status).toBe(200);
    }
  }
  proxy = await startFaultProxy(server.url);
  hostedClient = new RecordTableClient({ baseUrl: proxy.url, apiKey: server.apiKey, requestsPerSecond: 50 });
  straightClient = new RecordTableClient({
    baseUrl: server.url,
    apiKey: server.apiKey,
    requestsPerSecond: 50,
  });
});
afterEach(() => {
  proxy.reset();
  proxy.latencyMs = 0;
});
afterAll(async () => {
  await proxy?.close();
  await server?.close();
});

type Query = Pick<ListOptions, 'view' | 'formula' | 'sort'>;

/** The whole view's map, walked as the count's walk does once agreed to. */
async function mapped(query: Query, table: TableName = 'Items'): Promise<string[]> {
  asHostedService(proxy);
  const map = new ViewMap({
    table: hostedClient.table(BASE, table),
    query,
    primaryFieldId: 'Name',
    onProgress: () => undefined,
  });
  try {
    map.allow(Infinity);
    await map.walk();
    expect(map.done).toBe(true);
    return map.idsAt(0, map.size)!;
  } finally {
    map.close();
  }
}

async function listed(query: Query, table: TableName = 'Items'): Promise<string[]> {
  return (await straightClient.table(BASE, table).all({ ...query, fields: ['Name'] })).map((r) => r.id);
}

const isList = (r: ProxiedRequest) => r.path.startsWith(`/v0/${BASE}/`);
const byRange = (r: ProxiedRequest) => isList(r) && decodeURIComponent(r.path).includes('CREATED_TIME()');

/** Counts the list requests the proxy holds at once (arrived, not answered yet), by their order alone. */
function countInFlight(): { most: number } {
  const seen = { most: 0 };
  let open = 0;
  proxy.inject(
    {
      type: 'rewrite',
      rewrite: (answer) => {
        open--;
        return answer;
      },
    },
    {
      match: (r) => {
        if (!isList(r)) return false;
        seen.most = Math.max(seen.most, ++open);
        return true;
      },
      times: Infinity,
    },
  );
  return seen;
}

describe('the map of a view in creation order, as chains over ranges of creation time', () => {
  it('is the view, id by id, as one chain maps it; the later ranges are read by their own chains', async () => {
    const expected = await listed({});
    expect(expected).toHaveLength(RECORDS);
    expect(await mapped({})).toEqual(expected);
    const ranges = proxy.log.filter(byRange);
    expect(ranges.length).toBeGreaterThan(0);
    // Each record was read once but for the chains' ends: the ranges split the view, they do not repeat it.
    expect(proxy.log.filter(isList).length).toBeLessThan(RECORDS / 100 + 2 * ranges.length + 2);

    // One chain (a sort of the app's own: creation order says nothing of it) maps the same view the same.
    proxy.reset();
    const sorted = await mapped({ sort: [{ field: 'Name', direction: 'asc' }] });
    expect(proxy.log.filter(byRange)).toHaveLength(0);
    expect(sorted).toEqual(expected);
  });

  it("keeps the query's formula in every chain; a named view is walked as one chain", async () => {
    const query = { formula: 'NOT(RIGHT({Name}, 1) = "7")' };
    const expected = await listed(query);
    expect(expected.length).toBeLessThan(RECORDS);
    expect(await mapped(query)).toEqual(expected);
    expect(proxy.log.filter(byRange).length).toBeGreaterThan(0);

    // Its order may be set in the service (a sort, rows dragged by hand) where the app cannot see it.
    proxy.reset();
    const backwards = await listed({ view: 'Backwards' });
    expect(await mapped({ view: 'Backwards' })).toEqual(backwards);
    expect(proxy.log.filter(byRange)).toHaveLength(0);
  });

  it('runs its chains at once, where one chain alone never has two pages out', async () => {
    proxy.latencyMs = 20;
    const parallel = countInFlight();
    await mapped({});
    expect(parallel.most).toBeGreaterThanOrEqual(2);

    proxy.reset();
    const alone = countInFlight();
    await mapped({ sort: [{ field: 'Name', direction: 'asc' }] });
    expect(alone.most).toBe(1);
  });
});

describe('a table not listed in creation order', () => {
  it('breaking on the first page: mapped as one chain, exact', async () => {
    const expected = await listed({}, 'Pairs');
    expect(await mapped({}, 'Pairs')).toEqual(expected);
  });

  it('breaking late, where a later chain walks: the chains are dropped and the map is exact', async () => {
    const expected = await listed({}, 'Late');
    expect(await mapped({}, 'Late')).toEqual(expected);
    // The chains had run: it is their walk that found the break.
    expect(proxy.log.filter(byRange).length).toBeGreaterThan(0);
  });

  it("where the service's time filter disagrees with the times it lists: the chains are dropped, exact", async () => {
    // Each range's first page comes without its first record, as from a filter that starts a record late.
    proxy.inject(
      {
        type: 'rewrite',
        rewrite: (answer) => {
          const body = JSON.parse(answer.body.toString('utf8')) as { records: unknown[] };
          body.records.shift();
          return { ...answer, body: Buffer.from(JSON.stringify(body)) };
        },
      },
      { match: (r) => byRange(r) && !r.path.includes('offset='), times: Infinity },
    );
    const expected = await listed({});
    expect(await mapped({})).toEqual(expected);
    expect(proxy.log.filter(byRange).length).toBeGreaterThan(0);
  });
});
