/**
 * Creating and deleting records in batches of 10, with a result per batch, so the grid can add or drop rows
 * as each batch lands and say exactly which records did not make it.
 */
import { randomUUID } from 'node:crypto';
import { RecordTableError } from '../../core/api';
import { BATCH_SIZE } from '../../core/api/batches';
import { chunk } from '../../core/api/query';
import type { EditEventPayload } from '../../core/contract/edits';
import type { RecordData } from '../../core/records/types';
import { toChannelError } from '../errors';
import type { CreateLine, Journal } from './journal';
import type { Emit } from './queue';
import type { TableFor } from './ports';
import type { EditTarget, FailureInfo, FieldValues } from './types';

export interface CreateFailure {
  index: number;
  fields: FieldValues;
  /** failed: nothing was created; unknown: the reply was lost after the request may have reached the service. */
  outcome: 'rejected' | 'unknown';
  error: FailureInfo;
}

export interface CreateResult {
  /** In input order of the records that were created. */
  created: RecordData[];
  /** Position in the input of each created record. */
  createdIndexes: number[];
  failed: CreateFailure[];
}

export interface DeleteResult {
  deleted: string[];
  remaining: { id: string; error: FailureInfo }[];
}

/** Whether a failed create may still have created its records (the client never repeats those on its own). */
export function outcomeOf(e: unknown): CreateFailure['outcome'] {
  if (!(e instanceof RecordTableError)) return 'rejected';
  return e.kind === 'outcome-unknown' || e.kind === 'timeout' || e.kind === 'aborted'
    ? 'unknown'
    : 'rejected';
}

/** The service's ways of saying a record is not there (the wire format differs between eras). */
const isNotFound = (e: unknown): boolean =>
  e instanceof RecordTableError &&
  (e.status === 404 ||
    e.type === 'ROW_DOES_NOT_EXIST' ||
    e.type === 'MODEL_ID_NOT_FOUND' ||
    e.type === 'INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND');

export class RecordWriter {
  constructor(
    private readonly tableFor: TableFor,
    private readonly emit: Emit,
    private readonly journal: Journal,
  ) {}

  /** Creates whose outcome is unknown, from this run or an earlier one (not those still out). */
  uncertain(): EditEventPayload<'records.uncertain'>['creates'] {
    return this.journal.uncertainCreates().flatMap(({ line, error }) =>
      error === undefined
        ? []
        : [
            {
              id: line.id,
              target: line.target,
              at: line.at,
              records: line.records,
              error,
              ...(line.upload ? { upload: line.upload } : {}),
            },
          ],
    );
  }

  async dismissUncertain(id: string): Promise<boolean> {
    if (!this.uncertain().some((c) => c.id === id)) return false;
    await this.journal.append({ t: 'create-dismissed', id });
    this.emit('records.uncertain', { creates: this.uncertain() });
    return true;
  }

  /** POSTs the records 10 at a time (batches overlap, the throttle spaces them); each batch is sent once. */
  async create(
    target: EditTarget,
    fieldsList: readonly FieldValues[],
    typecast = false,
  ): Promise<CreateResult> {
    const table = await this.tableFor(target);
    const batches = chunk(
      fieldsList.map((fields, index) => ({ fields, index })),
      BATCH_SIZE,
    );
    const settled = await Promise.allSettled(
      batches.map(async (batch) => {
        const fields = batch.map((b) => b.fields);
        const records = await this.once({ target, records: fields }, () =>
          table.createMany(fields, { typecast, priority: 'interactive' }),
        );
        this.emit('records.created', { target, records });
        return records;
      }),
    );
    const result: CreateResult = { created: [], createdIndexes: [], failed: [] };
    settled.forEach((s, i) => {
      const batch = batches[i]!;
      if (s.status === 'fulfilled') {
        result.created.push(...s.value);
        result.createdIndexes.push(...batch.map((b) => b.index));
        return;
      }
      const error = toChannelError(s.reason);
      const outcome = outcomeOf(s.reason);
      for (const b of batch) result.failed.push({ index: b.index, fields: b.fields, outcome, error });
    });
    return result;
  }

  /**
   * Sends a request that must never go twice (a create, an upload): written down before it is sent, so one
   * cut short by a crash is shown as unknown on the next start; one whose answer is lost stays listed.
   */
  async once<T>(line: Pick<CreateLine, 'target' | 'records' | 'upload'>, send: () => Promise<T>): Promise<T> {
    const id = randomUUID();
    await this.journal.append({ t: 'create', id, at: Date.now(), ...line });
    try {
      const out = await send();
      await this.journal.append({ t: 'create-settled', id });
      return out;
    } catch (e) {
      if (outcomeOf(e) === 'unknown') {
        await this.journal.append({ t: 'create-unknown', id, error: toChannelError(e) });
        this.emit('records.uncertain', { creates: this.uncertain() });
      } else {
        await this.journal.append({ t: 'create-settled', id });
      }
      throw e;
    }
  }

  /** DELETEs 10 ids per request (a lone id in the single-record form); rows leave as each batch succeeds. */
  async delete(target: EditTarget, ids: readonly string[]): Promise<DeleteResult> {
    const table = await this.tableFor(target);
    const settled = await Promise.allSettled(
      chunk(ids, BATCH_SIZE).map(async (batch) => {
        try {
          if (batch.length === 1) await table.delete(batch[0]!, { priority: 'interactive' });
          else await table.deleteMany(batch, { priority: 'interactive' });
          this.emit('records.deleted', { target, ids: batch });
          return { deleted: batch, remaining: [] };
        } catch (e) {
          return this.sortOut(target, batch, e);
        }
      }),
    );
    const result: DeleteResult = { deleted: [], remaining: [] };
    for (const s of settled) {
      // sortOut never throws past its own catch; a rejection here would be a bug in it, so it is surfaced.
      if (s.status === 'rejected') throw s.reason;
      result.deleted.push(...s.value.deleted);
      result.remaining.push(...s.value.remaining);
    }
    return result;
  }

  /**
   * A failed delete batch that says "not found" may be a retry of a request that did delete (its reply was
   * lost), or name one record someone else deleted: look each record up, count the missing ones as deleted
   * and send the others again once.
   */
  private async sortOut(target: EditTarget, batch: string[], e: unknown): Promise<DeleteResult> {
    if (!isNotFound(e))
      return { deleted: [], remaining: batch.map((id) => ({ id, error: toChannelError(e) })) };
    const table = await this.tableFor(target);
    const gone: string[] = [];
    const present: string[] = [];
    for (const id of batch) {
      try {
        await table.get(id, { priority: 'interactive' });
        present.push(id);
      } catch (lookup) {
        if (!isNotFound(lookup))
          return { deleted: [], remaining: batch.map((id) => ({ id, error: toChannelError(e) })) };
        gone.push(id);
      }
    }
    if (gone.length > 0) this.emit('records.deleted', { target, ids: gone });
    if (present.length === 0) return { deleted: gone, remaining: [] };
    try {
      if (present.length === 1) await table.delete(present[0]!, { priority: 'interactive' });
      else await table.deleteMany(present, { priority: 'interactive' });
      this.emit('records.deleted', { target, ids: present });
      return { deleted: [...gone, ...present], remaining: [] };
    } catch (again) {
      return { deleted: gone, remaining: present.map((id) => ({ id, error: toChannelError(again) })) };
    }
  }
}
