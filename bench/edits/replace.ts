/**
 * Find and replace over 1,000 records against the local server with its rate limit on (5 requests/s per base):
 * the preview (one regex over the Name of every record), then apply through the edit queue until the service
 * has acknowledged every record.
 * - The PATCH rate over the 5 requests/s ceiling (1.0 = as fast as the service allows; the throttle's 10 ms
 *   margin per start makes 0.95 the best it can do), the PATCH requests (100 is the least possible) and the
 *   429s (should be 0).
 * - The preview's estimate of the time against the time measured (ratio measured / estimated).
 */
import type { BenchResult } from '../result';
import { startEditBench } from './setup';

const RECORDS = 1_000;
const CEILING_PER_SECOND = 5;
const TABLE = 'Tasks';

export async function replaceBench(): Promise<BenchResult[]> {
  const { seen, baseId, client, services, close } = await startEditBench('replace', RECORDS);
  try {
    const { replaces } = await services.ready;
    const target = { connectionId: 'bench', baseId, table: TABLE };
    const preview = await replaces.preview({
      replaceId: 'bench',
      target,
      query: {},
      fields: [{ name: 'Name', type: 'singleLineText' }],
      spec: { find: '^(.)', replacement: 'R·$1', regex: true, matchCase: false, wholeCell: false },
    });
    if (preview.recordCount !== RECORDS)
      throw new Error(`The preview planned ${preview.recordCount} records`);
    // Let the preview's reads leave the server's rate window before the writes start.
    await new Promise((r) => setTimeout(r, 1200));
    const mark = seen.length;
    const t0 = performance.now();
    const applied = await replaces.apply('bench');
    const seconds = (performance.now() - t0) / 1000;
    if (applied.state !== 'done') throw new Error(`The replace ended ${applied.state}`);
    const sent = seen.slice(mark);
    const patches = sent.filter((s) => s.method === 'PATCH').length;

    const check = await client.table(baseId, TABLE).all({ fields: ['Name'] });
    const wrong = check.filter((r) => !String(r.fields.Name).startsWith('R·')).length;
    if (wrong > 0) throw new Error(`${wrong} records were not replaced`);

    return [
      {
        name: `replace over ${RECORDS} records: PATCH rate over the 5 req/s ceiling`,
        value: patches / seconds,
        unit: 'req/s',
        ratio: patches / seconds / CEILING_PER_SECOND,
      },
      {
        name: `replace over ${RECORDS} records: PATCH requests (least possible ${RECORDS / 10})`,
        value: patches,
        unit: 'requests',
        ratio: patches / (RECORDS / 10),
      },
      {
        name: `replace over ${RECORDS} records: 429 answers`,
        value: sent.filter((s) => s.status === 429).length,
        unit: 'responses',
      },
      {
        name: `replace over ${RECORDS} records: measured seconds (ratio to the preview's estimate)`,
        value: seconds,
        unit: 's',
        ratio: seconds / preview.seconds,
      },
    ];
  } finally {
    await close();
  }
}
