/**
 * The Record Table client against the local server with its rate limit on (5 requests/s per base), through
 * a proxy that adds latency, side by side with the official `airtable` client doing the same jobs:
 * - listing 10,000 records (100 pages of 100) with 0 ms and 250 ms of added latency per request;
 * - updating 1,000 records (100 batches of 10) with 250 ms of added latency;
 * - with `--hosted-latency`, the 250 ms jobs again at the hosted service's latency (600 ms mean, 1.1 s p95,
 *   seeded: bench/hosted-latency.ts), printed after them; off by default, as they add about four minutes a run.
 * Ratios: achieved requests/s over the 5/s ceiling; with latency, listing is a chain (each page needs the
 * previous page's offset), so its bound is one request after another: pages x (latency + service time).
 */
import Airtable from 'airtable';
import { RecordTableClient } from '../../core/api/index';
import type { ClientEvent } from '../../core/api/index';
import { HOSTED_MEAN_MS, HOSTED_P95_MS, logNormalLatency } from '../hosted-latency';
import type { BenchOptions, BenchResult } from '../result';
import { CEILING, rows, startRatedServer } from '../rates';
import { median } from '../stats';

const RECORDS = 10_000;
const PAGES = RECORDS / 100;
const UPDATES = 1_000;
const BATCHES = UPDATES / 10;
const LATENCY = 250;
const TABLE = 'Tasks';
const HOSTED = `hosted latency (${HOSTED_MEAN_MS} ms mean, ${HOSTED_P95_MS / 1000} s p95)`;
const SEED = 26;

export default async function clientBench(options: BenchOptions): Promise<BenchResult[]> {
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
    const updates = ids.slice(0, UPDATES).map((id, i) => ({ id, fields: { Points: i } }));

    /**
     * The jobs at one latency (`meanMs` on average): listing, bounded by its chain of offsets; updating 1,000
     * records in 100 batches, where requests must overlap to reach the ceiling; the official client's same
     * jobs, pages one after another and updates awaited one batch at a time as its documentation shows (it has
     * no throttle; it retries 429s with backoff).
     */
    const atLatency = async (profile: string, meanMs: number): Promise<BenchResult[]> => {
      const list = await timed(() => table.all({ pageSize: 100, fields: ['Name'] }));
      const chainBound = (PAGES * Math.max(meanMs + serviceMs, 1000 / CEILING)) / 1000;
      const update = await timed(() => table.updateMany(updates));
      const theirList = await timed(() =>
        base(TABLE)
          .select({ pageSize: 100, fields: ['Name'] })
          .all(),
      );
      const theirUpdate = await timed(async () => {
        for (let i = 0; i < updates.length; i += 10) {
          await base(TABLE).update(
            updates.slice(i, i + 10).map((u) => ({ id: u.id, fields: { Points: u.fields.Points + 1 } })),
          );
        }
      });
      return [
        ...rows(`client: list ${RECORDS} records, ${profile}`, list),
        {
          name: `client: list at ${profile}: chain bound, pages x (latency + service) (ratio: bound / time)`,
          value: chainBound,
          unit: 's',
          ratio: chainBound / list.seconds,
        },
        ...rows(`client: update ${UPDATES} records (${BATCHES} batches), ${profile}`, update),
        ...rows(`airtable.js: list ${RECORDS} records, ${profile}`, theirList, list),
        ...rows(`airtable.js: update ${UPDATES} records, ${profile}`, theirUpdate, update),
      ];
    };

    proxy.latencyMs = LATENCY;
    const at250 = await atLatency(`${LATENCY} ms latency`, LATENCY);
    let atHosted: BenchResult[] = [];
    if (options.hostedLatency) {
      proxy.drawLatency = logNormalLatency(SEED);
      atHosted = await atLatency(HOSTED, HOSTED_MEAN_MS);
      proxy.drawLatency = undefined;
    }

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
      ...at250,
      ...atHosted,
      ...rows(`airtable.js: list ${short} records (${short / 100} pages), 0 ms latency`, theirList0),
    ];
  } finally {
    await close();
  }
}
