/** The service's current records of a list of ids (a push's merge, a retry of files, a reread), read by id. */
import type { TableClient } from '../../core/api/index';
import { MAX_IDS_PER_REQUEST } from '../../core/api/index';
import type { RecordData } from '../../core/records/types';
import type { Run } from './run';
import { tick } from './run';

/**
 * The service's records of `ids` through the client's one reader of records by id (core/api/by-ids.ts): a
 * page of ids a request at most, fewer when the service refuses as many as too much work (a sync of 305
 * changes on a table of 50,000 records), the requests in flight together through the throttle.
 */
export async function readRemote(
  run: Run,
  remote: TableClient,
  ids: string[],
): Promise<Map<string, RecordData>> {
  if (ids.length === 0) return new Map();
  const records = await remote.recordsByIds(ids, { returnFieldsByFieldId: true, signal: run.signal });
  tick(run, Math.ceil(ids.length / MAX_IDS_PER_REQUEST));
  return new Map(records.map((r) => [r.id, r]));
}
