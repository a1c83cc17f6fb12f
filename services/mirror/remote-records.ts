/**
 * Records the service sent, checked before they are staged: a record the copy cannot hold (an id not of a
 * record's shape, a creation time that is no time, cells named by something other than field ids: the copy
 * would hold the record without its cells, and say it was ready) would be refused by the local server after it was staged,
 * and every later run would meet it again. The copy's rules are the local server's mirror route's.
 */
import { RecordTableError } from '../../core/api/index';
import type { RecordData } from '../../core/records/types';

const RECORD_ID = /^rec[A-Za-z0-9]{14}$/;
/** The mirror reads every record by field id: a key of another shape is no field (seed 28 of the fuzzer). */
const FIELD_ID = /^fld[A-Za-z0-9]{14}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Throws a clear error at the first record the copy could not hold. */
export function checkRemoteRecords(tableName: string, records: readonly RecordData[]): void {
  for (const r of records) {
    const why = !RECORD_ID.test(r.id)
      ? 'its id is not a record id'
      : typeof r.createdTime !== 'string' ||
          !ISO_TIME.test(r.createdTime) ||
          Number.isNaN(Date.parse(r.createdTime))
        ? 'its createdTime is not a time'
        : Object.keys(r.fields).some((k) => !FIELD_ID.test(k))
          ? 'its cells are not named by field ids'
          : undefined;
    if (why)
      throw new RecordTableError({
        kind: 'http',
        message: `The service sent a record of ${JSON.stringify(tableName.slice(0, 100))} that cannot be copied (${why}: ${JSON.stringify(r.id).slice(0, 60)}); the pull stopped`,
      });
  }
}
