/**
 * Creating and deleting records in batches of 10, with a result per batch, so the grid can add or drop rows
 * as each batch lands and say exactly which records did not make it. Both are journaled before they are sent:
 * a create whose answer was lost is looked for on the service (find-created.ts) and adopted when found, else
 * listed for the user; a delete the app did not finish is resumed on the next start.
 */
import { randomUUID } from 'node:crypto';
import { RecordTableError } from '../../core/api';
import { BATCH_SIZE } from '../../core/api/batches';
import { chunk } from '../../core/api/query';
import type { EditEventPayload } from '../../core/contract/edits';
import type { RecordData } from '../../core/records/types';
import { toChannelError } from '../errors';
import { findCreated } from './find-created';
import type { CreateLine, DeleteLine, Journal } from './journal';
import type { Emit } from './queue';
import type { EditsTable, TableFor } from './ports';
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
  /** The delete's line in the journal, until it is finished or dismissed. */
  journalId: string;
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
  /** Records this app made or adopted: a lost create is never matched to one of them. */
  private readonly made = new Set<string>();
  /** The search for creates of unknown outcome under way: a second ask joins it. */
  private recovering: Promise<void> | undefined;

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

  /**
   * Looks for the creates of unknown outcome on the service (an earlier run's, or this one's whose search
   * failed) and adopts those found; the others stay listed. Never throws: a failed search leaves them listed.
   */
  recover(): Promise<void> {
    this.recovering ??= (async () => {
      for (const { line, until } of this.journal.uncertainCreates()) {
        if (line.upload !== undefined) continue;
        const found = await this.find(line, until ?? Date.now()).catch(() => undefined);
        // Dismissed meanwhile: the user has decided.
        if (found === undefined || !this.journal.uncertainCreates().some((c) => c.line.id === line.id))
          continue;
        this.journal.note({ t: 'create-settled', id: line.id, created: found.map((r) => r.id) });
        this.emit('records.created', { target: line.target, records: found });
        this.emit('records.uncertain', { creates: this.uncertain() });
      }
    })().finally(() => (this.recovering = undefined));
    return this.recovering;
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
        const records = await this.once(
          { target, records: fields, typecast },
          () => table.createMany(fields, { typecast, priority: 'interactive' }),
          (line, until) => this.find(line, until),
        );
        for (const r of records) this.made.add(r.id);
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
   * Sends a request that must never go twice (a create, an upload): written down before it is sent (a disk
   * that refuses it refuses the request, with the reason), so one cut short by a crash is looked for on the
   * next start. One whose answer is lost is looked for at once with `find`, when given; one not found stays
   * listed until the user dismisses it.
   */
  async once<T>(
    line: Pick<CreateLine, 'target' | 'records' | 'upload' | 'typecast'>,
    send: () => Promise<T>,
    find?: (line: CreateLine, until: number) => Promise<T | undefined>,
  ): Promise<T> {
    const created: CreateLine = { t: 'create', id: randomUUID(), at: Date.now(), ...line };
    await this.journal.append(created);
    let out: T;
    try {
      out = await send();
    } catch (e) {
      if (outcomeOf(e) !== 'unknown') {
        this.journal.note({ t: 'create-settled', id: created.id });
        throw e;
      }
      const until = Date.now();
      const found = await find?.(created, until).catch(() => undefined);
      if (found !== undefined) {
        this.journal.note({ t: 'create-settled', id: created.id, ...idsOf(line, found) });
        return found;
      }
      this.journal.note({ t: 'create-unknown', id: created.id, error: toChannelError(e), until });
      this.emit('records.uncertain', { creates: this.uncertain() });
      throw e;
    }
    this.journal.note({ t: 'create-settled', id: created.id, ...idsOf(line, out) });
    return out;
  }

  /** A lost create's records on the service, when every one of them is there. */
  private async find(line: CreateLine, until: number): Promise<RecordData[] | undefined> {
    const table = await this.tableFor(line.target);
    return findCreated(
      table,
      { at: line.at, until, records: line.records, typecast: line.typecast === true },
      this.made,
    );
  }

  /**
   * DELETEs 10 ids per request (a lone id in the single-record form); rows leave as each batch succeeds. The
   * delete is journaled first (a disk that refuses it refuses the delete), each batch once gone; `resume` goes
   * on with a delete an earlier run did not finish.
   */
  async delete(target: EditTarget, ids: readonly string[], resume?: DeleteLine): Promise<DeleteResult> {
    const line: DeleteLine = resume ?? {
      t: 'delete',
      id: randomUUID(),
      at: Date.now(),
      target,
      ids: [...ids],
    };
    if (resume === undefined) await this.journal.append(line);
    const table = await this.tableFor(target);
    const settled = await Promise.allSettled(
      chunk(ids, BATCH_SIZE).map(async (batch) => {
        let out: Omit<DeleteResult, 'journalId'>;
        try {
          if (batch.length === 1) await table.delete(batch[0]!, { priority: 'interactive' });
          else await table.deleteMany(batch, { priority: 'interactive' });
          this.emit('records.deleted', { target, ids: batch });
          out = { deleted: batch, remaining: [] };
        } catch (e) {
          out = await this.sortOut(table, target, batch, e);
        }
        if (out.deleted.length > 0) this.journal.note({ t: 'delete-done', id: line.id, ids: out.deleted });
        return out;
      }),
    );
    const result: DeleteResult = { deleted: [], remaining: [], journalId: line.id };
    for (const s of settled) {
      // sortOut never throws past its own catch; a rejection here would be a bug in it, so it is surfaced.
      if (s.status === 'rejected') throw s.reason;
      result.deleted.push(...s.value.deleted);
      result.remaining.push(...s.value.remaining);
    }
    if (result.remaining.length > 0)
      this.journal.note({ t: 'delete-failed', id: line.id, error: result.remaining[0]!.error });
    return result;
  }

  /** Deletes an earlier run did not finish: the interrupted ones to resume, the failed ones to list. */
  unfinishedDeletes() {
    return this.journal.liveDeletes().map(({ line, left, error }) => ({
      line,
      left: line.ids.filter((x) => left.has(x)),
      ...(error === undefined ? {} : { error }),
    }));
  }

  /** The user gave up a delete that left rows: they stay on the service, and it is no longer listed. */
  async dismissDelete(journalId: string): Promise<void> {
    if (this.journal.liveDeletes().some((d) => d.line.id === journalId))
      await this.journal.append({ t: 'delete-dismissed', id: journalId });
  }

  /**
   * A failed delete batch that says "not found" may be a retry of a request that did delete (its reply was
   * lost), or name one record someone else deleted: look each record up, count the missing ones as deleted
   * and send the others again once.
   */
  private async sortOut(
    table: EditsTable,
    target: EditTarget,
    batch: string[],
    e: unknown,
  ): Promise<Omit<DeleteResult, 'journalId'>> {
    if (!isNotFound(e))
      return { deleted: [], remaining: batch.map((id) => ({ id, error: toChannelError(e) })) };
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

/** The ids of the records a create made, for its settled line (an upload makes none). */
function idsOf(line: Pick<CreateLine, 'upload'>, out: unknown): { created?: string[] } {
  if (line.upload !== undefined || !Array.isArray(out)) return {};
  return { created: (out as RecordData[]).map((r) => r.id) };
}
