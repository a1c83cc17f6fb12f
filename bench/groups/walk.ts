/**
 * A full walk of 10,000 records (100 pages of 100) at 250 ms of added latency, with the local server's rate
 * limit on: one offset chain, the same walk as the app walks it (core/api/partitioned-walk.ts: as many chains
 * at once through the base's one throttle as its measured round trip needs, `chainsFor`, 4 until measured), and
 * the official `airtable` client's `all()`. One chain is bound by its round trips; the partitioned walk should
 * reach the 5 requests/s ceiling.
 */
import Airtable from 'airtable';
import { RecordTableClient } from '../../core/api/index';
import { walkPartitioned } from '../../core/api/partitioned-walk';
import type { BenchResult } from '../result';
import { rows, startRatedServer } from '../rates';

const RECORDS = 10_000;
const LATENCY = 250;
const TABLE = 'Tasks';

export default async function walkBench(): Promise<BenchResult[]> {
  const { server, proxy, baseId, timed, close } = await startRatedServer(RECORDS);
  const table = new RecordTableClient({ baseUrl: proxy.url, apiKey: server.apiKey }).table(baseId, TABLE);
  const base = new Airtable({ apiKey: server.apiKey, endpointUrl: proxy.url }).base(baseId);
  const expectAll = (n: number) => {
    if (n !== RECORDS) throw new Error(`walked ${n} records, expected ${RECORDS}`);
  };

  try {
    proxy.latencyMs = LATENCY;
    const chain = await timed(async () => expectAll((await table.all({ fields: ['Name'] })).length));
    const partitioned = await timed(async () => {
      let n = 0;
      // No fixed number of partitions: the chains follow the measured round trip, as in the app.
      for await (const page of walkPartitioned(table, { fields: ['Name'] })) n += page.length;
      expectAll(n);
    });
    const theirs = await timed(async () =>
      expectAll(
        (
          await base(TABLE)
            .select({ pageSize: 100, fields: ['Name'] })
            .all()
        ).length,
      ),
    );
    const label = (who: string) => `${who}: walk ${RECORDS} records, ${LATENCY} ms latency`;
    return [
      ...rows(label('chains by latency'), partitioned),
      ...rows(label('one chain'), chain, partitioned),
      ...rows(label('airtable.js all()'), theirs, partitioned),
    ];
  } finally {
    await close();
  }
}
