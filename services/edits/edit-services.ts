/**
 * The edit services of one app instance: the edit queue with its journal in the user-data folder, record
 * creates and deletes, undo/redo and CSV export, bound to the part-2 channels of the contract.
 * `createEditServices(...).handlers` is spread into the app's handler map; events go to the app's hub.
 */
import { FEW_CALLS } from '../budget/budget';
import type { Consent } from '../budget/budget';
import { BATCH_SIZE } from '../../core/api/batches';
import type { WalkCalls } from './ports';
import { join } from 'node:path';
import type { CallPart, editChannels, editEvents } from '../../core/contract/edits';
import type { replaceChannels, replaceEvents } from '../../core/contract/replace';
import type { PayloadOf, RequestOut, ResponseOf } from '../../core/contract/define';
import { ServiceError, toChannelError } from '../errors';
import { CsvExports } from './csv-export';
import type { ChooseDestination } from './csv-export';
import { History, sizeOf } from './history';
import { Journal } from './journal';
import type { DeleteLine } from './journal';
import type { JournalFiles, TableFor } from './ports';
import type { FolderLock } from '../storage/folder-lock';
import { EditQueue } from './queue';
import type { EditQueueOptions, Emit } from './queue';
import { PendingDeletes } from './pending-deletes';
import type { DeleteRow } from './pending-deletes';
import { RecordWriter } from './records';
import type { DeleteResult } from './records';
import { Replaces } from './replace';
import type { EditTarget } from './types';
import { targetKey } from './types';

type EditChannels = typeof editChannels & typeof replaceChannels;
export type EditHandlers = {
  [C in keyof EditChannels]: (request: RequestOut<EditChannels, C>) => Promise<ResponseOf<EditChannels, C>>;
};

/** The events of the edit services: the queue's, undo's, export's and replace's. */
type EditsEvents = typeof editEvents & typeof replaceEvents;
export type EditsEmit = <E extends keyof EditsEvents>(event: E, payload: PayloadOf<EditsEvents, E>) => void;

export interface EditServicesOptions {
  userDataDir: string;
  tableFor: TableFor;
  emit: EditsEmit;
  /** Where the door lets the user pick an export's file (Electron's save dialog); else exports stay in memory. */
  exportDestination?: ChooseDestination;
  /**
   * Whether a walk of a whole view the user asked for (an export, a replace's preview) may spend its calls (the
   * request budget: on a limited plan it asks, with "always for this base"); without it, always.
   */
  consent?: Consent;
  /** Calls a walk of a view will take where its size is known (the budget remembers the views it counted). */
  walkCalls?: WalkCalls;
  /** Whether a target is a table of an offline copy (its export's file is named so). */
  isCopy?: (target: EditTarget) => Promise<boolean>;
  /** Batching and retry timing of the queue (tests shorten them). */
  queue?: Pick<
    EditQueueOptions,
    'settleMs' | 'maxHoldMs' | 'maxBatchesInFlight' | 'retryBaseMs' | 'retryMaxMs'
  >;
  /** The journal's file system (default: the disk; tests hold its syncs). */
  journalFiles?: JournalFiles;
  /**
   * The data folder's lock, taken by the caller before anything else started (the app); without it the
   * journal takes it, and releases it on close.
   */
  lock?: Promise<FolderLock>;
}

export interface EditServices {
  handlers: EditHandlers;
  /** Resolves once the journal is read and what it still owed is queued again. */
  ready: Promise<Parts>;
  /** For the quit prompt: edits not yet acknowledged by the service. */
  hasPending(): Promise<boolean>;
  close(): Promise<void>;
}

export interface Parts {
  journal: Journal;
  queue: EditQueue;
  records: RecordWriter;
  history: History;
  exports: CsvExports;
  replaces: Replaces;
}

/** Split calls whose question's answer is kept for their later parts (a page may leave one unfinished). */
const MAX_SPLIT_CALLS = 100;

/** The journal's folder inside the user-data folder. */
export const journalDir = (userDataDir: string): string => join(userDataDir, 'edits');

export function createEditServices(options: EditServicesOptions): EditServices {
  const { tableFor, emit } = options;
  const deletes = new PendingDeletes((payload) => emit('records.deleting', payload));
  const ready = (async (): Promise<Parts> => {
    const journal = await Journal.open(journalDir(options.userDataDir), options.journalFiles, options.lock);
    const records = new RecordWriter(tableFor, emit, journal);
    // A replace hands records to the queue and waits for each to settle before handing more.
    const observed: Emit = (event, payload) => {
      replaces.observe(event, payload);
      emit(event, payload);
    };
    const queue = new EditQueue({
      ...options.queue,
      journal,
      tableFor,
      emit: observed,
      onRejected: (ids) => history.forgetEdits(ids),
      onDropped: (ids) => history.forgetEdits(ids),
    });
    const history = new History(queue, records, emit, (target, op, subject) =>
      writesAgreed(target, sizeOf(op), subject),
    );
    const replaces = new Replaces(tableFor, queue, history, emit, options.consent, options.walkCalls);
    queue.replay();
    // What an earlier run left unfinished, after the edits it owed are queued: deletes go on (or are listed
    // as they had failed), and creates of unknown outcome are looked for on the service.
    for (const { line, left, error } of records.unfinishedDeletes()) {
      if (error !== undefined) deletes.restore(line.target, left, error, line.id);
      else void resumeDelete(records, line, left);
    }
    void records.recover();
    const damage = await journal.damage();
    if (damage !== undefined) emit('edits.journalDamage', { damage });
    return {
      queue,
      records,
      history,
      exports: new CsvExports(
        tableFor,
        emit,
        options.exportDestination,
        (target) => queue.settle(target),
        options.consent,
        options.walkCalls,
        options.isCopy,
      ),
      replaces,
      journal,
    };
  })();
  // A journal that cannot be opened fails every edit call with its reason; this only keeps the process up.
  ready.catch(() => undefined);

  /** Sends what is left of a delete an earlier run did not finish, listed as any delete being sent. */
  async function resumeDelete(records: RecordWriter, line: DeleteLine, left: string[]): Promise<void> {
    const pending = deletes.start(
      line.target,
      left.map((id) => ({ id, fields: {} })),
      [],
      false,
    );
    const result = await records.delete(line.target, left, line).catch((e: unknown) => ({
      deleted: [],
      remaining: left.map((id) => ({ id, error: toChannelError(e) })),
      journalId: line.id,
    }));
    deletes.settle(pending, result.remaining, line.id);
  }

  /**
   * Rows as a view showed them (some fields hidden) with the rest of their fields read from the service, the
   * shown values kept (an edit not yet sent is in them). Nothing is deleted when they cannot be read: a delete
   * whose undo would bring the records back without their hidden fields would lose those.
   */
  async function wholeRows(target: EditTarget, list: DeleteRow[]): Promise<DeleteRow[]> {
    const table = await tableFor(target);
    const read = await table
      .recordsByIds(
        list.map((r) => r.id),
        { priority: 'interactive' },
      )
      .catch((e: unknown) => {
        const why = toChannelError(e);
        throw new ServiceError(
          why.kind === 'network' ? 'network' : 'invalid-request',
          `Nothing was deleted: the records' hidden fields could not be read to keep them for undo (${why.message}).`,
        );
      });
    const stored = new Map(read.map((r) => [r.id, r.fields]));
    return list.map((r) => ({ ...r, fields: { ...stored.get(r.id), ...r.fields } }));
  }

  /** Deletes rows (listed as pending until confirmed) and makes what was deleted one undo step. */
  async function deleteRows(
    target: EditTarget,
    list: DeleteRow[],
    readOnlyFields: string[],
    undoable: boolean,
    /** The split call this delete is a part of: its parts are one undo step. */
    partOf?: string,
  ): Promise<ResponseOf<EditChannels, 'records.delete'>> {
    const { records, history } = await ready;
    const pending = deletes.start(target, list, readOnlyFields, undoable);
    let result: DeleteResult;
    try {
      result = await records.delete(
        target,
        list.map((r) => r.id),
      );
    } catch (e) {
      deletes.settle(pending, []);
      throw e;
    }
    deletes.settle(pending, result.remaining, result.journalId);
    if (undoable) {
      const computed = new Set(readOnlyFields);
      const deleted = new Set(result.deleted);
      history.push(
        target,
        {
          kind: 'delete',
          records: list
            .filter((r) => deleted.has(r.id))
            .map((r) => ({
              id: r.id,
              fields: Object.fromEntries(Object.entries(r.fields).filter(([f]) => !computed.has(f))),
            })),
        },
        partOf,
      );
    }
    return { deleted: result.deleted, remaining: result.remaining };
  }

  /**
   * Writes of many records at once (a fill or set field over a whole view's loaded rows, a big paste, an
   * import's records, an undo of a whole view's delete) on a limited plan: a call per 10 records, asked in
   * the budget's question like any costly walk; a few calls never ask, and the local server never does.
   */
  const asks = (records: number): boolean =>
    options.consent !== undefined && Math.ceil(records / BATCH_SIZE) > FEW_CALLS;

  async function writesAgreed(target: EditTarget, records: number, subject: string): Promise<boolean> {
    if (options.consent === undefined || !asks(records)) return true;
    const { connectionId, baseId } = target;
    return options.consent({
      connectionId,
      baseId,
      purpose: 'edits',
      subject,
      calls: Math.ceil(records / BATCH_SIZE),
    });
  }

  /**
   * The answers about calls the door split (a big paste, a whole view's delete): its parts are one user action,
   * asked about once for the whole call (`total`); the answer is kept until the last part has asked.
   */
  const partAnswers = new Map<string, Promise<boolean>>();
  function callAgreed(
    target: EditTarget,
    records: number,
    part: CallPart | undefined,
    subject: (records: number) => string,
  ): Promise<boolean> {
    if (part === undefined) return writesAgreed(target, records, subject(records));
    // A part larger than the call it says it is part of is asked about as itself.
    const total = Math.max(part.total, records);
    const key = JSON.stringify([targetKey(target), part.of]);
    let answer = partAnswers.get(key);
    if (answer === undefined) {
      answer = writesAgreed(target, total, subject(total));
      partAnswers.set(key, answer);
      // A page that never sends the last part must not grow the map without end.
      for (const old of partAnswers.keys()) if (partAnswers.size > MAX_SPLIT_CALLS) partAnswers.delete(old);
    }
    if (part.index === part.count - 1) partAnswers.delete(key);
    return answer;
  }

  const notAgreed = (what: string) =>
    new ServiceError('invalid-request', `Not sent: ${what} was not agreed to (the API calls question).`);

  const handlers: EditHandlers = {
    'edits.edit': async ({ target, changes, undoable, part }) => {
      const many = (n: number) => `Change ${n.toLocaleString('en-US')} records of ${target.table}`;
      // A few changes (typing) go to the queue with no await first: a Replace all clicked meanwhile reads them.
      if (
        asks(Math.max(part?.total ?? 0, changes.length)) &&
        !(await callAgreed(target, changes.length, part, many))
      )
        throw notAgreed(`changing them`);
      const { queue, history } = await ready;
      const editIds = await queue.edit(target, changes);
      if (undoable && changes.every((c) => c.previous !== undefined)) {
        history.push(
          target,
          {
            kind: 'edit',
            changes: changes.map((c, i) => ({
              recordId: c.recordId,
              after: c.fields,
              before: Object.fromEntries(Object.keys(c.fields).map((f) => [f, c.previous?.[f] ?? null])),
              typecast: c.typecast,
              editId: editIds[i],
            })),
          },
          part?.of,
        );
      }
      return { editIds };
    },
    'edits.status': async () => {
      const { queue, records, journal } = await ready;
      const damage = await journal.damage();
      return {
        ...queue.status(),
        uncertainCreates: records.uncertain(),
        ...(damage === undefined ? {} : { journalDamage: damage }),
      };
    },
    'edits.dismissJournalDamage': async () => {
      const { journal } = await ready;
      const dismissed = (await journal.damage()) !== undefined;
      await journal.dismissDamage();
      emit('edits.journalDamage', { damage: await journal.damage() });
      return { dismissed };
    },
    'records.dismissUncertain': async ({ id }) => ({
      dismissed: await (await ready).records.dismissUncertain(id),
    }),
    'edits.retry': async ({ target, recordId }) => ({
      fields: await (await ready).queue.retry(target, recordId),
    }),
    'edits.discard': async ({ target, recordId }) => ({
      reverted: await (await ready).queue.discard(target, recordId),
    }),
    'edits.sendNow': async (match) => ({ records: (await ready).queue.sendNow(match) }),
    'edits.retryAll': async (match) => ({ records: await (await ready).queue.retryAll(match) }),
    'edits.discardAll': async (match) => ({ records: await (await ready).queue.discardAll(match) }),
    'records.create': async ({ target, records: list, typecast, undoable, part }) => {
      const many = (n: number) => `Add ${n.toLocaleString('en-US')} records to ${target.table}`;
      if (!(await callAgreed(target, list.length, part, many))) throw notAgreed('adding them');
      const { records, history } = await ready;
      const result = await records.create(
        target,
        list.map((r) => r.fields),
        typecast,
      );
      if (undoable) {
        history.push(
          target,
          {
            kind: 'create',
            records: result.created.map((r, i) => ({
              id: r.id,
              fields: list[result.createdIndexes[i]!]!.fields,
            })),
          },
          part?.of,
        );
      }
      return { created: result.created, failed: result.failed };
    },
    'records.delete': async ({ target, records: list, readOnlyFields, partial, undoable, part }) =>
      deleteRows(
        target,
        partial === true && undoable ? await wholeRows(target, list) : list,
        readOnlyFields,
        undoable,
        part?.of,
      ),
    'records.pendingDeletes': async () => ({ deletes: deletes.list() }),
    'records.retryDelete': async ({ id }) => {
      const { records } = await ready;
      const entry = deletes.take(id);
      if (entry === undefined) throw new ServiceError('not-found', 'That delete is no longer waiting.');
      const result = await deleteRows(entry.target, entry.rows, entry.readOnlyFields, entry.undoable);
      // The new delete is journaled with every row the old one left: the old one is done with.
      if (entry.journalId !== undefined) await records.dismissDelete(entry.journalId);
      return result;
    },
    'records.dismissDelete': async ({ id }) => {
      const { records } = await ready;
      const entry = deletes.dismiss(id);
      if (entry?.journalId !== undefined) await records.dismissDelete(entry.journalId);
      return { dismissed: entry !== undefined };
    },
    'history.state': async ({ target }) => (await ready).history.state(target),
    'history.undo': async ({ target }) => withState(target, await (await ready).history.undo(target)),
    'history.redo': async ({ target }) => withState(target, await (await ready).history.redo(target)),
    'export.start': async (request) => ({ exportId: await (await ready).exports.start(request) }),
    'export.cancel': async ({ exportId }) => ({ cancelled: (await ready).exports.cancel(exportId) }),
    'replace.preview': async (request) => (await ready).replaces.preview(request),
    'replace.apply': async ({ replaceId }) => (await ready).replaces.apply(replaceId),
    'replace.stop': async ({ replaceId }) => ({ stopped: (await ready).replaces.stop(replaceId) }),
    'export.take': async ({ exportId }) => {
      const result = (await ready).exports.take(exportId);
      if (result === undefined)
        throw new ServiceError('not-found', `Export ${exportId} is not finished or was taken.`);
      return result;
    },
  };

  const withState = async (target: EditTarget, result: Awaited<ReturnType<History['undo']>>) => ({
    ...(await ready).history.state(target),
    ...result,
  });

  let closing: Promise<void> | undefined;
  return {
    handlers,
    ready,
    hasPending: async () => (await ready).queue.hasPending(),
    close() {
      closing ??= (async () => {
        const parts = await ready.catch(() => undefined);
        if (parts === undefined) return;
        await parts.exports.close();
        parts.replaces.close();
        await parts.queue.close();
      })();
      return closing;
    },
  };
}
