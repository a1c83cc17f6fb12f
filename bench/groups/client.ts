/**
 * The Record Table client against the local server with its rate limit on (5 requests/s per base), through
 * a proxy that adds latency, side by side with the official `airtable` client doing the same jobs:
 * - listing 10,000 records (100 pages of 100) with 0 ms and 250 ms of added latency per request;
 * - updating 1,000 records (100 batches of 10) with 250 ms of added latency.
 * Ratios: achieved requests/s over the 5/s ceiling; at 250 ms, listing is a chain (each page needs the
 * previous page's offset), so its bound is one request after another: pages x (latency + service time).
 */
import Airtable from 'airtable';
import { RecordTableClient } from '../../core/api/index';
import type { ClientEvent } from '../../core/api/index';
import type { BenchResult } from '../result';
import { CEILING, rows, startRatedServer } from '../rates';
import { median } from '../stats';

const RECORDS = 10_000;
const PAGES = RECORDS / 100;
const UPDATES = 1_000;
const BATCHES = UPDATES / 10;
const LATENCY = 250;
const TABLE = 'Tasks';

export default async function clientBench(): Promise<BenchResult[]> {
  const { server, proxy, baseId, timed, close } = await startRatedServer(RECORDS);
  const events: ClientEvent[] = [];
  const client = new RecordTableClient({
    baseUrl: proxy.url,
    apiKey: server.apiKey,
    onEvent: (e) => events.push(e),
  });
  const table = client.table(baseId, TABLE);
  const base = new Airtable({ apiKey: server.apiKey, endpointUrl: proxy.url }).base(baseId);

  try {
    // Listing with no added latency: the throttle is the only limit.
    proxy.latencyMs = 0;
    const eventMark = events.length;
    let ids: string[] = [];
    const list0 = await timed(async () => {
      ids = (await table.all({ pageSize: 100, fields: ['Name'] })).map((r) => r.id);
    });
    if (ids.length !== RECORDS) throw new Error(`listed ${ids.length} records, expected ${RECORDS}`);
    const finished = events.slice(eventMark).filter((e) => e.type === 'finished');
    const serviceMs = median(finished.map((e) => e.durationMs ?? 0));

    // Listing with 250 ms per request: bounded by the chain of offsets.
    proxy.latencyMs = LATENCY;
    const list250 = await timed(() => table.all({ pageSize: 100, fields: ['Name'] }));
    const chainBound = (PAGES * Math.max(LATENCY + serviceMs, 1000 / CEILING)) / 1000;

    // Updating 1,000 records in 100 batches at 250 ms: requests must overlap to reach the ceiling.
    const updates = ids.slice(0, UPDATES).map((id, i) => ({ id, fields: { Points: i } }));
    const update250 = await timed(() => table.updateMany(updates));

    // The official client, same jobs at 250 ms: pages one after another, updates awaited one batch at a
    // time as its documentation shows (it has no throttle; it retries 429s with backoff).
    const theirList250 = await timed(() =>
      base(TABLE)
        .select({ pageSize: 100, fields: ['Name'] })
        .all(),
    );
    const theirUpdate250 = await timed(async () => {
      for (let i = 0; i < updates.length; i += 10) {
        await base(TABLE).update(
          updates.slice(i, i + 10).map((u) => ({ id: u.id, fields: { Points: u.fields.Points + 1 } })),
        );
      }
    });

    // With no latency it asks for pages as fast as they come back, runs into the limit and its 30 s
    // penalty; a tenth of the listing keeps the run short.
    proxy.latencyMs = 0;
    const short = RECORDS / 10;
    const theirList0 = await timed(() =>
      base(TABLE)
        .select({ pageSize: 100, maxRecords: short, fields: ['Name'] })
        .all(),
    );

    return [
      ...rows(`client: list ${RECORDS} records (${PAGES} pages), 0 ms latency`, list0),
      { name: 'client: median request time at 0 ms latency (service time)', value: serviceMs, unit: 'ms' },
      ...rows(`client: list ${RECORDS} records, ${LATENCY} ms latency`, list250),
      {
        name: `client: list at ${LATENCY} ms: chain bound, pages x (latency + service) (ratio: bound / time)`,
        value: chainBound,
        unit: 's',
        ratio: chainBound / list250.seconds,
      },
      ...rows(`client: update ${UPDATES} records (${BATCHES} batches), ${LATENCY} ms latency`, update250),
      ...rows(`airtable.js: list ${RECORDS} records, ${LATENCY} ms latency`, theirList250, list250),
      ...rows(`airtable.js: update ${UPDATES} records, ${LATENCY} ms latency`, theirUpdate250, update250),
      ...rows(`airtable.js: list ${short} records (${short / 100} pages), 0 ms latency`, theirList0),
    ];
  } finally {
    await close();
  }
}
