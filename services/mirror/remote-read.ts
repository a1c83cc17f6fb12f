/** The service's current records of a list of ids (a push's merge, a retry of files), read by id. */
import type { TableClient } from '../../core/api/index';
import type { RecordData } from '../../core/records/types';
import type { Run } from './run';
import { chunks, tick } from './run';

/** Ids per read of changed records: `OR(RECORD_ID()='…', …)` goes as a POST when the URL would be long. */
const READ_IDS = 100;
const RECORD_ID = /^rec[A-Za-z0-9]{14}$/;

/** The service's records of `ids`, 100 a request, the requests in flight together through the throttle. */
export async function readRemote(
  run: Run,
  remote: TableClient,
  ids: string[],
): Promise<Map<string, RecordData>> {
  const out = new Map<string, RecordData>();
  await Promise.all(
    chunks(ids, READ_IDS).map(async (chunk) => {
      // Ids enter the formula only in the record-id shape, so none can end its quotes.
      for (const id of chunk)
        if (!RECORD_ID.test(id)) throw new Error(`Not a record id: ${JSON.stringify(id)}`);
      const formula = `OR(${chunk.map((id) => `RECORD_ID()='${id}'`).join(',')})`;
      for await (const page of remote.pages({ formula, returnFieldsByFieldId: true, signal: run.signal })) {
        tick(run);
        for (const r of page) out.set(r.id, r);
      }
    }),
  );
  return out;
}
