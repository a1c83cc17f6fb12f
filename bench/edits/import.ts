/**
 * Importing 1,000 CSV rows into a table of the local server with its rate limit on (5 requests/s per base):
 * the file read, mapped and typed as the Import dialog does, then sent by the services' import job.
 * - Seconds until every row is answered, and the share of the ceiling it reached: 100 requests of 10 rows
 *   at 5 requests/s take 20 s at best (1.0 = as fast as the service allows; the goal is 0.95 or more).
 * - The requests it used (100 is the least possible) and the 429s the server answered (should be 0).
 * - The preview's estimate against the time measured (1.0 = exact; above 1 = the estimate was long).
 */
import Papa from 'papaparse';
import type { Column } from '../../core/contract';
import { importEstimateMs } from '../../core/contract/imports';
import type { ImportState } from '../../core/contract/imports';
import { autoMap, planImport, readCsv } from '../../renderer/src/rows/import/plan';
import { journalDir } from '../../services/edits';
import { Imports } from '../../services/imports/imports';
import { importsDir } from '../../services/imports/job-file';
import type { BenchResult } from '../result';
import { startEditBench } from './setup';

const ROWS = 1_000;
const CEILING_SECONDS = ROWS / 10 / 5;
const TABLE = 'Imported';

export default async function importBench(): Promise<BenchResult[]> {
  const { seen, dir, baseId, client, services: edits, close } = await startEditBench('import', 10);
  let ended: (s: ImportState) => void = () => undefined;
  const done = new Promise<ImportState>((resolve) => (ended = resolve));
  const imports = new Imports({
    dir: importsDir(journalDir(dir)),
    tableFor: async (t) => client.table(t.baseId, t.table),
    edits: edits.ready,
    emit: (event, payload) => {
      if (event === 'import.progress' && (payload as ImportState).state !== 'running')
        ended(payload as ImportState);
    },
  });
  try {
    const schema = await client.meta.createTable(baseId, {
      name: TABLE,
      fields: [
        { name: 'Name', type: 'singleLineText' },
        { name: 'Points', type: 'number', options: { precision: 1 } },
        { name: 'Status', type: 'singleSelect', options: { choices: [{ name: 'Todo' }, { name: 'Done' }] } },
        { name: 'Due', type: 'date' },
      ],
    });
    const fields: Column[] = schema.fields.map((f) => ({
      ...f,
      primary: f.id === schema.primaryFieldId,
      inferred: false,
    }));
    const text = Papa.unparse([
      ['Name', 'Points', 'Status', 'Due'],
      ...Array.from({ length: ROWS }, (_, i) => [
        `Row ${i}, "imported"`,
        `${i}.5`,
        i % 2 ? 'Todo' : 'Done',
        '2026-01-15',
      ]),
    ]);
    const read = readCsv(new TextEncoder().encode(text));
    if (!read.ok) throw new Error(read.error);
    const plan = planImport(read.file, autoMap(read.file.header, fields), fields);
    if (plan.failing.length > 0) throw new Error(`${plan.failing.length} rows would fail`);
    const estimateSeconds = importEstimateMs(plan.rows.length) / 1000;
    // Let the set-up's requests leave the server's rate window.
    await new Promise((r) => setTimeout(r, 1200));
    const mark = seen.length;

    const t0 = performance.now();
    const { handlers } = imports;
    const { importId } = await handlers['import.stage']({
      target: { connectionId: 'bench', baseId, table: TABLE },
      mode: 'create',
      fields: plan.fields,
      mergeOn: [],
      total: plan.rows.length,
    });
    await handlers['import.rows']({ importId, rows: plan.rows });
    await handlers['import.run']({ importId });
    const end = await done;
    const seconds = (performance.now() - t0) / 1000;
    const sent = seen.slice(mark).filter((s) => s.url.includes(TABLE));
    const held = await client.table(baseId, TABLE).all({ fields: ['Name'] });
    if (end.state !== 'done' || end.created !== ROWS || held.length !== ROWS)
      throw new Error(`import ended ${end.state} with ${end.created} created, ${held.length} held`);
    const posts = sent.filter((s) => s.method === 'POST').length;

    return [
      {
        name: `import ${ROWS} CSV rows: seconds until all answered (share of the 5 requests/s ceiling)`,
        value: seconds,
        unit: 's',
        ratio: CEILING_SECONDS / seconds,
      },
      {
        name: `import ${ROWS} CSV rows: POST requests (least possible ${ROWS / 10})`,
        value: posts,
        unit: 'requests',
        ratio: posts / (ROWS / 10),
      },
      {
        name: `import ${ROWS} CSV rows: 429 answers`,
        value: seen.slice(mark).filter((s) => s.status === 429).length,
        unit: 'responses',
      },
      {
        name: `import ${ROWS} CSV rows: the preview's estimate (ratio to the time measured)`,
        value: estimateSeconds,
        unit: 's',
        ratio: estimateSeconds / seconds,
      },
    ];
  } finally {
    await imports.close();
    await close();
  }
}
