/**
 * The edit queue against the local server with its rate limit on (5 requests/s per base):
 * - 1,000 single-cell edits of 1,000 records, made in a burst (as a paste would), each journaled and
 *   fsynced, then sent as PATCH batches through the client's throttle. The ceiling is 100 batches of 10 at
 *   5 requests/s = 20 s; the ratio is the time taken over that ceiling (1.0 = as fast as the service allows).
 * - The requests it used (100 is the least possible) and the 429s the server answered (should be 0).
 * - What "saved locally" costs: one edit journaled and fsynced after another, ms per edit.
 */
import { join } from 'node:path';
import { Journal } from '../../services/edits/journal';
import type { BenchResult } from '../result';
import { startEditBench } from '../edits/setup';
import importBench from '../edits/import';
import { replaceBench } from '../edits/replace';

const EDITS = 1_000;
const CEILING_SECONDS = EDITS / 10 / 5;
const JOURNAL_EDITS = 300;
const TABLE = 'Tasks';

export default async function editsBench(): Promise<BenchResult[]> {
  const { seen, dir, baseId, client, services, close } = await startEditBench('edits', EDITS);
  try {
    const { queue } = await services.ready;
    const records = await client.table(baseId, TABLE).all({ fields: ['Name'] });
    const target = { connectionId: 'bench', baseId, table: TABLE };
    // Let the listing's second pass so that it does not share a rate window with the edits.
    await new Promise((r) => setTimeout(r, 1200));
    const mark = seen.length;

    const t0 = performance.now();
    await Promise.all(
      records.slice(0, EDITS).map((r, i) => queue.edit(target, [{ recordId: r.id, fields: { Points: i } }])),
    );
    const journaled = performance.now() - t0;
    await queue.whenIdle();
    const seconds = (performance.now() - t0) / 1000;
    const sent = seen.slice(mark);

    const check = await client.table(baseId, TABLE).all({ fields: ['Points'] });
    const wrong = check.filter((r) => r.fields.Points !== records.findIndex((x) => x.id === r.id)).length;
    if (wrong > 0) throw new Error(`${wrong} records do not hold their edited value`);

    return [
      {
        name: `${EDITS} cell edits: seconds until all acknowledged`,
        value: seconds,
        unit: 's',
        ratio: seconds / CEILING_SECONDS,
      },
      {
        name: `${EDITS} cell edits: PATCH requests (least possible ${EDITS / 10})`,
        value: sent.filter((s) => s.method === 'PATCH').length,
        unit: 'requests',
        ratio: sent.filter((s) => s.method === 'PATCH').length / (EDITS / 10),
      },
      {
        name: `${EDITS} cell edits: 429 answers`,
        value: sent.filter((s) => s.status === 429).length,
        unit: 'responses',
      },
      { name: `${EDITS} cell edits in a burst: all journaled (fsynced)`, value: journaled, unit: 'ms' },
      {
        name: 'one edit after another: journaled and fsynced',
        value: await sequentialJournalMs(dir),
        unit: 'ms/edit',
      },
      ...(await importBench()),
      ...(await replaceBench()),
    ];
  } finally {
    await close();
  }
}

/** Appends edits one at a time, each waiting for its fsync, in a journal of its own. */
async function sequentialJournalMs(dir: string): Promise<number> {
  const journal = await Journal.open(join(dir, 'sequential'));
  const target = { connectionId: 'bench', baseId: 'app', table: TABLE };
  const t0 = performance.now();
  for (let i = 0; i < JOURNAL_EDITS; i++) {
    await journal.append({
      t: 'edit',
      id: `e${i}`,
      at: Date.now(),
      target,
      recordId: `rec${i}`,
      fields: { Points: i },
      typecast: false,
    });
  }
  const ms = (performance.now() - t0) / JOURNAL_EDITS;
  await journal.close();
  return ms;
}
