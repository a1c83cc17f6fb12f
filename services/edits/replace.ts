/**
 * Find and replace over a view or selected records: the preview reads, at background priority through the
 * base's throttle, only the records that may match (the view's filter AND a formula over the searched fields,
 * or the selected ids), plans every change with `core/records/replace` and keeps the plan; apply hands the
 * planned records to the edit queue ten at a time (one PATCH batch each, journaled there), keeping a few
 * batches ahead of the throttle so it never idles. Stop ends the handing over: what was handed is journaled and
 * still sent, what was not is kept for a resume, which sends only that. Each plan is one undo step however many
 * runs it takes. A cell edited after the plan read it (typed, pasted, undone: anything through the edit queue)
 * is left as edited and named as skipped: the plan never writes over a value it did not see.
 */
import { BATCH_SIZE } from '../../core/api/batches';
import { callsOf, RECORDS_PER_CALL } from '../budget/budget';
import type { Consent } from '../budget/budget';
import type { ListOptions } from '../../core/api';
import type { EditEventName, EditEventPayload } from '../../core/contract/edits';
import { PREVIEW_LIST_LIMIT } from '../../core/contract/replace';
import type { ReplaceEventName, ReplaceEventPayload } from '../../core/contract/replace';
import { and, or, quoteString } from '../../core/formula/build';
import {
  candidateFormula,
  compileReplace,
  replaceCell,
  searchedFields,
  valueText,
} from '../../core/records/replace';
import type { ReplaceField, ReplaceSpec } from '../../core/records/replace';
import type { RecordData } from '../../core/records/types';
import { ServiceError, toChannelError } from '../errors';
import type { History, Operation } from './history';
import type { TableFor, WalkCalls } from './ports';
import type { EditQueue } from './queue';
import { targetKey } from './types';
import type { EditTarget, FieldValues } from './types';

export type ReplaceEmit = <E extends ReplaceEventName>(event: E, payload: ReplaceEventPayload<E>) => void;

export interface ReplaceRequest {
  replaceId: string;
  target: EditTarget;
  query: { view?: string | undefined; formula?: string | undefined };
  recordIds?: string[] | undefined;
  fields: ReplaceField[];
  primaryField?: string | undefined;
  spec: ReplaceSpec;
}

interface PlannedRecord {
  recordId: string;
  label?: string;
  after: FieldValues;
  before: FieldValues;
}

interface SkippedCell {
  recordId: string;
  label?: string;
  field: string;
}

interface Plan {
  target: EditTarget;
  records: PlannedRecord[];
  /** The edit queue's mark when the plan read the service: cells edited after it are skipped. */
  mark: number;
  /** Cells skipped so far, and the records that kept no change (none of them is sent). */
  skipped: SkippedCell[];
  skippedRecords: Set<string>;
  /** Records handed to the queue, from the start of `records`. */
  handed: number;
  controller?: AbortController;
  /** The undo step of the runs so far, as pushed (so a resume can extend it). */
  step?: Operation;
  /** The request budget agreed to the writes (asked at the first apply; a no leaves the plan to resume). */
  agreed?: boolean;
}

/** The service's answer rate: the preview's time estimate. */
const REQUESTS_PER_SECOND = 5;
/** Batches handed to the queue ahead of their acknowledgement: two in flight and some waiting behind them. */
const BATCHES_AHEAD = 4;
/** Ids per listing request for a selection (the formula's length stays well under the URL's limit via POST). */
const IDS_PER_REQUEST = 100;
/** Plans kept between preview and apply (the newest ones). */
const PLANS_KEPT = 8;
/** A bigger plan is refused: narrow the view first. */
export const MAX_PLANNED_RECORDS = 100_000;
const SENT_LISTED = 1000;
/** Characters of a value or a name a listed row shows: 500 rows of long text must fit one 1 MiB frame. */
const LISTED_CHARS = 200;

const clip = (text: string): string =>
  text.length > LISTED_CHARS ? `${text.slice(0, LISTED_CHARS - 1)}…` : text;

const textOf = (value: unknown): string | undefined =>
  value === undefined || value === null ? undefined : valueText({ name: '', type: '' }, value);

export class Replaces {
  private readonly plans = new Map<string, Plan>();
  private readonly reading = new Map<string, AbortController>();
  /** Records handed to the queue and not yet settled, by target and id: resolved on their `edits.state`. */
  private readonly waiting = new Map<string, () => void>();

  constructor(
    private readonly tableFor: TableFor,
    private readonly queue: EditQueue,
    private readonly history: History,
    private readonly emit: ReplaceEmit,
    /** The request budget's word on the preview's walk and on apply's writes (see preview and apply). */
    private readonly consent?: Consent,
    private readonly walkCalls?: WalkCalls,
  ) {}

  /** Fed every edit event: a record handed over by a replace is settled once nothing of it is pending. */
  observe<E extends EditEventName>(event: E, payload: EditEventPayload<E>): void {
    if (event !== 'edits.state') return;
    const state = payload as EditEventPayload<'edits.state'>;
    if (state.pending.length > 0) return;
    const key = waitKey(state.target, state.recordId);
    const resolve = this.waiting.get(key);
    if (resolve === undefined) return;
    this.waiting.delete(key);
    resolve();
  }

  async preview(req: ReplaceRequest) {
    if (this.plans.has(req.replaceId) || this.reading.has(req.replaceId))
      throw new ServiceError('invalid-request', `Replace ${req.replaceId} already exists.`);
    const compiled = compileReplace(req.spec);
    if (!compiled.ok) throw new ServiceError('invalid-request', compiled.error);
    const { replacer } = compiled;
    // Computed fields (and others replace cannot write) are not searched: named once, never refused changes.
    const { searched, leftOut } = searchedFields(req.fields);
    const controller = new AbortController();
    this.reading.set(req.replaceId, controller);
    const progress = (done: number, state: 'running' | 'stopped' | 'failed' | 'done', extra = {}) =>
      this.emit('replace.progress', { replaceId: req.replaceId, phase: 'reading', done, state, ...extra });

    const records: PlannedRecord[] = [];
    const changes: { recordId: string; label?: string; field: string; before: string; after: string }[] = [];
    const refused: ((typeof changes)[number] & { reason: string })[] = [];
    let changeCount = 0;
    let refusedCount = 0;
    let read = 0;
    let mark: number | undefined;
    const consider = (record: RecordData) => {
      read++;
      const name = req.primaryField === undefined ? undefined : textOf(record.fields[req.primaryField]);
      const label = name === undefined ? undefined : clip(name);
      const named = label === undefined ? { recordId: record.id } : { recordId: record.id, label };
      const after: FieldValues = {};
      const before: FieldValues = {};
      for (const field of searched) {
        const outcome = replaceCell(replacer, field, record.fields[field.name]);
        if (outcome.kind === 'change') {
          after[field.name] = outcome.after;
          before[field.name] = outcome.before ?? null;
          changeCount++;
          if (changes.length < PREVIEW_LIST_LIMIT)
            changes.push({
              ...named,
              field: field.name,
              before: clip(outcome.beforeText),
              after: clip(outcome.afterText),
            });
        } else if (outcome.kind === 'refused') {
          refusedCount++;
          if (refused.length < PREVIEW_LIST_LIMIT)
            refused.push({
              ...named,
              field: field.name,
              before: clip(outcome.beforeText),
              after: clip(outcome.afterText),
              reason: outcome.reason,
            });
        }
      }
      if (Object.keys(after).length > 0) records.push({ ...named, after, before });
      if (records.length > MAX_PLANNED_RECORDS)
        throw new ServiceError(
          'invalid-request',
          `This would change over ${MAX_PLANNED_RECORDS.toLocaleString()} records: narrow the view first.`,
        );
    };

    try {
      // A cell typed just before Replace all reaches the service first: the plan replaces in it, where a plan
      // over the service's older value would send that value back over it.
      await this.queue.settle(req.target);
      mark = this.queue.mark();
      // The walk is a call per 100 records read (the whole view, where the field's text in a formula differs
      // from what replace reads): on a limited plan it says so first, and a no reads nothing (issue 26).
      // The dialog says it waits for the answer, not "Reading: 0 so far".
      const asked = () => progress(0, 'running', { waiting: true });
      if (searched.length > 0 && !(await this.readingAgreed(req, controller.signal, asked)))
        throw new ServiceError(
          'invalid-request',
          'Nothing was read: reading the records for Replace all was not agreed to (the API calls question).',
        );
      progress(0, 'running');
      const table = await this.tableFor(req.target);
      const candidates = candidateFormula(replacer, searched);
      const fields = [
        ...new Set([...searched.map((f) => f.name), ...(req.primaryField ? [req.primaryField] : [])]),
      ];
      const base: ListOptions = {
        priority: 'background',
        purpose: 'find',
        signal: controller.signal,
        fields,
      };
      const walks: ListOptions[] =
        searched.length === 0
          ? []
          : req.recordIds === undefined
            ? [
                {
                  ...base,
                  ...(req.query.view === undefined ? {} : { view: req.query.view }),
                  ...withFormula(req.query.formula, candidates),
                },
              ]
            : chunks([...new Set(req.recordIds)], IDS_PER_REQUEST).map((ids) => ({
                ...base,
                formula: and(
                  or(...ids.map((id) => `RECORD_ID() = ${quoteString(id)}`)),
                  ...(candidates ? [candidates] : []),
                ),
              }));
      for (const opts of walks) {
        for await (const page of table.pages(opts)) {
          for (const record of page) consider(record);
          progress(read, 'running');
          if (controller.signal.aborted) break;
        }
        if (controller.signal.aborted) break;
      }
      if (controller.signal.aborted) throw new ServiceError('invalid-request', 'The replace was stopped.');
    } catch (e) {
      progress(
        read,
        controller.signal.aborted ? 'stopped' : 'failed',
        controller.signal.aborted ? {} : { error: toChannelError(e) },
      );
      throw controller.signal.aborted ? new ServiceError('invalid-request', 'The replace was stopped.') : e;
    } finally {
      this.reading.delete(req.replaceId);
    }
    progress(read, 'done');
    this.keep(req.replaceId, {
      target: req.target,
      records,
      mark: mark ?? this.queue.mark(),
      skipped: [],
      skippedRecords: new Set(),
      handed: 0,
    });
    const requests = Math.ceil(records.length / BATCH_SIZE);
    return {
      replaceId: req.replaceId,
      read,
      changeCount,
      recordCount: records.length,
      changes,
      refusedCount,
      refused,
      leftOut,
      requests,
      seconds: requests / REQUESTS_PER_SECOND,
    };
  }

  async apply(replaceId: string) {
    const plan = this.plans.get(replaceId);
    if (plan === undefined) throw new ServiceError('not-found', `No replace ${replaceId}: preview it again.`);
    if (plan.controller !== undefined)
      throw new ServiceError('invalid-request', 'This replace is already running.');
    const controller = new AbortController();
    plan.controller = controller;
    const total = plan.records.length;
    if (plan.agreed !== true) {
      const asked = () =>
        this.emit('replace.progress', {
          replaceId,
          phase: 'sending',
          done: plan.handed,
          total,
          state: 'running',
          waiting: true,
        });
      plan.agreed = await this.writesAgreed(plan, controller.signal, asked).catch((e: unknown) => {
        plan.controller = undefined;
        throw e;
      });
      if (!plan.agreed) {
        plan.controller = undefined;
        return {
          state: 'stopped' as const,
          skippedCount: 0,
          skipped: [],
          sentCount: 0,
          sent: [],
          left: total,
        };
      }
    }
    let settled = plan.handed;
    const progress = (state: 'running' | 'done' | 'stopped' | 'failed') =>
      this.emit('replace.progress', { replaceId, phase: 'sending', done: settled, total, state });
    // Sending from now on (a question answered yes no longer waits).
    progress('running');
    // Batches acknowledged after the run ended are not news of this run.
    const running = () => plan.controller === controller;
    const outstanding = new Set<Promise<void>>();
    const stopped = aborted(controller.signal);
    try {
      while (plan.handed < total && !controller.signal.aborted) {
        const taken = plan.records.slice(plan.handed, plan.handed + BATCH_SIZE);
        const batch = taken.flatMap((r) => this.unedited(plan, r));
        const acknowledged = batch.map((r) => this.settledPromise(plan.target, r.recordId));
        const ids =
          batch.length === 0
            ? []
            : await this.queue.edit(
                plan.target,
                batch.map((r) => ({ recordId: r.recordId, fields: r.after, previous: r.before })),
              );
        plan.handed += taken.length;
        settled += taken.length - batch.length;
        if (batch.length > 0) this.record(plan, batch, ids);
        const done: Promise<void> = Promise.all(acknowledged).then(() => {
          settled += batch.length;
          outstanding.delete(done);
          if (running()) progress('running');
        });
        outstanding.add(done);
        if (outstanding.size >= BATCHES_AHEAD) await Promise.race([...outstanding, stopped]);
      }
      // A finished replace answers once the service has acknowledged it all (Stop still ends the wait).
      if (plan.handed === total) await Promise.race([Promise.all(outstanding), stopped]);
    } catch (e) {
      progress('failed');
      throw e;
    } finally {
      plan.controller = undefined;
    }
    const left = total - plan.handed;
    progress(left > 0 ? 'stopped' : 'done');
    const sent = plan.records.slice(0, plan.handed).filter((r) => !plan.skippedRecords.has(r.recordId));
    if (left === 0) this.plans.delete(replaceId);
    return {
      state: left > 0 ? ('stopped' as const) : ('done' as const),
      skippedCount: plan.skipped.length,
      skipped: plan.skipped.slice(0, SENT_LISTED),
      sentCount: sent.length,
      sent: sent
        .slice(0, SENT_LISTED)
        .map((r) =>
          r.label === undefined ? { recordId: r.recordId } : { recordId: r.recordId, label: r.label },
        ),
      left,
    };
  }

  /** The preview's walk on a limited plan: the selected ids 100 a call, or the view where its size is known. */
  private readingAgreed(req: ReplaceRequest, signal: AbortSignal, asked: () => void): Promise<boolean> {
    if (this.consent === undefined) return Promise.resolve(true);
    const { connectionId, baseId, table } = req.target;
    const ids = req.recordIds === undefined ? undefined : new Set(req.recordIds).size;
    const where =
      ids === undefined
        ? req.query.view === undefined
          ? table
          : `${table} (${req.query.view})`
        : `${ids.toLocaleString('en-US')} selected records of ${table}`;
    return this.consent({
      connectionId,
      baseId,
      purpose: 'find',
      subject: `Replace “${clip(req.spec.find)}” in ${where}: read the records that may match (writing the changes asks again)`,
      ...callsOf(
        ids === undefined ? this.walkCalls?.(req.target, req.query) : Math.ceil(ids / RECORDS_PER_CALL),
      ),
      signal,
      asked,
    });
  }

  /** Apply's writes on a limited plan: one PATCH per 10 records changed, the preview's `requests`. */
  private writesAgreed(plan: Plan, signal: AbortSignal, asked: () => void): Promise<boolean> {
    if (this.consent === undefined) return Promise.resolve(true);
    const { connectionId, baseId, table } = plan.target;
    const records = plan.records.length - plan.handed;
    return this.consent({
      connectionId,
      baseId,
      purpose: 'edits',
      subject: `Replace all in ${records.toLocaleString('en-US')} record${records === 1 ? '' : 's'} of ${table}: write the changes, 10 records a call`,
      calls: Math.ceil(records / BATCH_SIZE),
      signal,
      asked,
    });
  }

  /** Stops every reading and sending (what was handed to the queue stays journaled). */
  close(): void {
    for (const c of this.reading.values()) c.abort();
    for (const p of this.plans.values()) p.controller?.abort();
  }

  stop(replaceId: string): boolean {
    const controller = this.reading.get(replaceId) ?? this.plans.get(replaceId)?.controller;
    if (controller === undefined || controller.signal.aborted) return false;
    controller.abort();
    return true;
  }

  /**
   * The record's planned change without the cells edited since the plan read them (noted as skipped): none
   * when no cell is left.
   */
  private unedited(plan: Plan, r: PlannedRecord): PlannedRecord[] {
    const after: FieldValues = {};
    const before: FieldValues = {};
    for (const [field, value] of Object.entries(r.after)) {
      if (this.queue.changedSince(plan.mark, plan.target, r.recordId, field, r.before[field])) {
        plan.skipped.push(
          r.label === undefined
            ? { recordId: r.recordId, field }
            : { recordId: r.recordId, label: r.label, field },
        );
        continue;
      }
      after[field] = value;
      before[field] = r.before[field] ?? null;
    }
    if (Object.keys(after).length === 0) {
      plan.skippedRecords.add(r.recordId);
      return [];
    }
    return [{ ...r, after, before }];
  }

  /** The plan's one undo step grows with every batch handed over (a resume extends it too). */
  private record(plan: Plan, batch: PlannedRecord[], editIds: string[]): void {
    const changes = batch.map((r, i) => ({
      recordId: r.recordId,
      after: r.after,
      before: r.before,
      typecast: false,
      editId: editIds[i],
    }));
    plan.step = this.history.extend(plan.target, plan.step, changes);
  }

  private settledPromise(target: EditTarget, recordId: string): Promise<void> {
    return new Promise((resolve) => {
      const key = waitKey(target, recordId);
      const earlier = this.waiting.get(key);
      this.waiting.set(key, () => {
        earlier?.();
        resolve();
      });
    });
  }

  private keep(replaceId: string, plan: Plan): void {
    this.plans.set(replaceId, plan);
    for (const [id, p] of this.plans) {
      if (this.plans.size <= PLANS_KEPT) break;
      if (p.controller === undefined) this.plans.delete(id);
    }
  }
}

const waitKey = (target: EditTarget, recordId: string): string => `${targetKey(target)}/${recordId}`;

function withFormula(viewFormula: string | undefined, candidates: string | undefined): { formula?: string } {
  const parts = [viewFormula?.trim() ?? '', candidates ?? ''].filter((f) => f !== '');
  return parts.length === 0 ? {} : { formula: and(...parts) };
}

function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
