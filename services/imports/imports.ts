/**
 * CSV import jobs: typed rows staged in parts, journaled (job-file.ts) with every row before the first
 * request, then sent 10 a request through the base's throttle, at background priority so the user's own
 * pages and edits go first. A few batches are out at once, so the throttle is never idle waiting for an
 * answer; Cancel stops handing out batches. A batch the service refuses as a whole (422: one bad value
 * refuses all ten, nothing is written) is sent again row by row, so the report names each refused row with
 * the service's own reason.
 *
 * A create batch whose answer was lost is never sent again: it is listed for the user to check. An upsert
 * batch in the same doubt is sent again on Resume, since an upsert is idempotent by its merge fields (the
 * second send finds the records the first may have made, and updates them to the same values).
 *
 * On a limited plan of the hosted service an import (started or resumed) costs a call per batch it has left, so
 * it asks the request budget first, like any write of many records; a no sends nothing and leaves the job
 * cancelled, to resume (which asks again).
 *
 * A finished create import is one undo step (undo deletes the records it made). An upsert is not undoable:
 * restoring the records it updated would need their earlier values, which means reading every matched
 * record first, a request per batch more (the match is made by the service, on its merge fields).
 */
import { randomUUID } from 'node:crypto';
import type { TableClient } from '../../core/api';
import { BATCH_SIZE } from '../../core/api/batches';
import type { Consent } from '../budget/budget';
import type { EventName, EventPayload } from '../../core/contract';
import type { RequestOut, ResponseOf } from '../../core/contract/define';
import { IMPORT_MAX_LISTED, IMPORT_MAX_STAGED_BYTES } from '../../core/contract/imports';
import type { ImportRow, ImportState, importChannels } from '../../core/contract/imports';
import type { RecordData } from '../../core/records/types';
import { ServiceError, toChannelError } from '../errors';
import type { Parts } from '../edits/index';
import { outcomeOf } from '../edits/records';
import type { EditTarget, FailureInfo, FieldValues } from '../edits/types';
import { JobFile, readJobs } from './job-file';
import type { JobLine, UnitLine } from './job-file';

type Channels = typeof importChannels;
export type ImportHandlers = {
  [C in keyof Channels]: (request: RequestOut<Channels, C>) => Promise<ResponseOf<Channels, C>>;
};

export type ImportsTable = Pick<TableClient, 'createMany' | 'upsertMany'>;

export interface ImportsOptions {
  /** The folder of the import journals (inside the edit journal's folder, under its lock). */
  dir: string;
  tableFor: (target: EditTarget) => Promise<ImportsTable>;
  /** The edit services: undo history (and the journal lock, taken once they are ready). */
  edits: Promise<Pick<Parts, 'history'>>;
  emit: <E extends EventName>(event: E, payload: EventPayload<E>) => void;
  /** The request budget's word on a run's calls (a call per batch left); without it, always yes. */
  consent?: Consent;
  /**
   * Batches out at once (default 4): each also waits for two syncs of its journal, and 5 requests/s must go
   * on at a 400 ms round trip.
   */
  window?: number;
}

type Status =
  | { kind: 'sent' }
  | { kind: 'ack'; ids: string[]; created: string[] }
  | { kind: 'refused'; error: FailureInfo }
  | { kind: 'split' }
  | { kind: 'unknown'; error: FailureInfo };

interface Unit {
  key: string;
  /** Indexes into the job's rows. */
  rows: number[];
}

interface Job {
  line: JobLine;
  file?: JobFile;
  status: Map<string, Status>;
  state: ImportState['state'];
  error?: FailureInfo;
  cancel: boolean;
  /** Withdraws the run's open API calls question (Cancel, or TableDesk closing). */
  asking?: AbortController;
  /** The question is on screen: the run waits for the user's answer. */
  waiting?: boolean;
  /** The last run's calls were not agreed to. */
  declined?: boolean;
  running?: Promise<void>;
}

const batchCount = (job: JobLine) => Math.ceil(job.rows.length / BATCH_SIZE);
const batchRows = (job: JobLine, b: number): number[] =>
  Array.from(
    { length: Math.min(BATCH_SIZE, job.rows.length - b * BATCH_SIZE) },
    (_, i) => b * BATCH_SIZE + i,
  );

function fieldsOf(job: JobLine, row: ImportRow): FieldValues {
  const out: FieldValues = {};
  job.fields.forEach((f, i) => {
    const v = row.values[i];
    // An empty cell is left out: a create leaves it empty, and an upsert keeps the matched record's value.
    if (v !== null && v !== undefined) out[f] = v;
  });
  return out;
}

/** Follows a job's units: each batch, or each row of a batch that was split. */
function walkUnits(job: Job, visit: (unit: Unit, status: Status | undefined) => void): void {
  for (let b = 0; b < batchCount(job.line); b++) {
    const key = String(b);
    const rows = batchRows(job.line, b);
    const status = job.status.get(key);
    if (status?.kind === 'split')
      rows.forEach((r, i) => visit({ key: `${key}.${i}`, rows: [r] }, job.status.get(`${key}.${i}`)));
    else visit({ key, rows }, status);
  }
}

/** Units still to send: never sent, or (upsert only, being idempotent) sent without a known answer. */
function pendingUnits(job: Job): Unit[] {
  const out: Unit[] = [];
  walkUnits(job, (unit, status) => {
    if (status === undefined) out.push(unit);
    else if (job.line.mode === 'upsert' && (status.kind === 'unknown' || status.kind === 'sent'))
      out.push(unit);
  });
  return out;
}

function stateOf(job: Job): ImportState {
  const s: ImportState = {
    importId: job.line.id,
    target: job.line.target,
    mode: job.line.mode,
    mergeOn: job.line.mergeOn,
    total: job.line.rows.length,
    done: 0,
    created: 0,
    updated: 0,
    refusedCount: 0,
    refused: [],
    uncertain: [],
    state: job.state,
    ...(job.waiting === true ? { waiting: true } : {}),
    ...(job.declined === true ? { declined: true } : {}),
    ...(job.error === undefined ? {} : { error: job.error }),
  };
  const lineOf = (i: number) => job.line.rows[i]!.line;
  walkUnits(job, (unit, status) => {
    if (status?.kind === 'ack') {
      s.done += unit.rows.length;
      s.created += status.created.length;
      s.updated += unit.rows.length - status.created.length;
    } else if (status?.kind === 'refused') {
      s.done += unit.rows.length;
      s.refusedCount += unit.rows.length;
      for (const r of unit.rows)
        if (s.refused.length < IMPORT_MAX_LISTED) s.refused.push({ line: lineOf(r), error: status.error });
    } else if (status?.kind === 'unknown' && job.line.mode === 'create') {
      s.uncertain.push({ lines: unit.rows.map(lineOf), error: status.error });
    }
  });
  return s;
}

/** Imports being staged at once (rows arriving, not yet run). */
const MAX_STAGED = 4;

const STOPPED: FailureInfo = {
  kind: 'outcome-unknown',
  message: 'TableDesk stopped while these rows were being sent: they may or may not have been created.',
};

const NOT_AGREED: FailureInfo = {
  kind: 'aborted',
  message: 'Not sent: the import was not agreed to (the API calls question). Resume asks again.',
};

export class Imports {
  private readonly jobs = new Map<string, Job>();
  private readonly staged = new Map<string, { line: JobLine; total: number; bytes: number }>();
  private readonly ready: Promise<void>;
  private closed = false;

  constructor(private readonly options: ImportsOptions) {
    this.ready = this.load();
    // A folder that cannot be read fails every import call with its reason; this only keeps the process up.
    this.ready.catch(() => undefined);
  }

  readonly handlers: ImportHandlers = {
    'import.stage': async ({ target, mode, fields, mergeOn, total }) => {
      await this.ready;
      const id = randomUUID();
      const line: JobLine = { t: 'job', id, at: Date.now(), target, mode, mergeOn, fields, rows: [] };
      // A page that stops midway leaves its rows here: only the newest few are kept.
      for (const old of [...this.staged.keys()].slice(0, Math.max(0, this.staged.size - MAX_STAGED + 1)))
        this.staged.delete(old);
      this.staged.set(id, { line, total, bytes: 0 });
      return { importId: id };
    },
    'import.rows': async ({ importId, rows }) => {
      const staged = this.staged.get(importId);
      if (staged === undefined) throw new ServiceError('not-found', `No import ${importId} is being staged.`);
      if (staged.line.rows.length + rows.length > staged.total)
        throw new ServiceError('invalid-request', `More rows than the ${staged.total} announced.`);
      const width = staged.line.fields.length;
      if (rows.some((r) => r.values.length !== width))
        throw new ServiceError('invalid-request', `Every row needs ${width} values, one per field.`);
      const bytes = staged.bytes + Buffer.byteLength(JSON.stringify(rows));
      if (bytes > IMPORT_MAX_STAGED_BYTES)
        throw new ServiceError(
          'invalid-request',
          `The rows are larger than an import takes (${IMPORT_MAX_STAGED_BYTES} bytes); import the file in parts.`,
        );
      staged.bytes = bytes;
      staged.line.rows.push(...rows);
      return { received: staged.line.rows.length };
    },
    'import.run': async ({ importId }) => {
      const staged = this.staged.get(importId);
      if (staged === undefined) throw new ServiceError('not-found', `No import ${importId} is being staged.`);
      if (staged.line.rows.length !== staged.total)
        throw new ServiceError(
          'invalid-request',
          `${staged.line.rows.length} of ${staged.total} rows arrived; send the rest first.`,
        );
      this.staged.delete(importId);
      const job: Job = { line: staged.line, status: new Map(), state: 'running', cancel: false };
      // Every row is written down first: a batch's line, written after it, must be on disk before it is sent.
      job.file = await JobFile.create(this.options.dir, job.line);
      this.jobs.set(importId, job);
      this.start(job, false);
      return stateOf(job);
    },
    'import.cancel': async ({ importId }) => {
      const job = this.jobs.get(importId);
      if (job === undefined || job.state !== 'running') return { cancelled: false };
      job.cancel = true;
      job.asking?.abort();
      return { cancelled: true };
    },
    'import.list': async () => {
      await this.ready;
      return { imports: [...this.jobs.values()].map(stateOf) };
    },
    'import.resume': async ({ importId }) => {
      await this.ready;
      const job = this.jobs.get(importId);
      if (job === undefined) throw new ServiceError('not-found', `No import ${importId}.`);
      if (job.state === 'running') return stateOf(job);
      if (pendingUnits(job).length === 0)
        throw new ServiceError('invalid-request', 'Every row of this import has been answered.');
      job.file ??= await JobFile.reopen(this.options.dir, importId);
      job.state = 'running';
      job.cancel = false;
      delete job.error;
      delete job.declined;
      this.start(job, true);
      return stateOf(job);
    },
    'import.dismiss': async ({ importId }) => {
      await this.ready;
      const job = this.jobs.get(importId);
      if (job === undefined || job.state === 'running') return { dismissed: false };
      this.jobs.delete(importId);
      await (job.file ?? (await JobFile.reopen(this.options.dir, importId))).remove();
      return { dismissed: true };
    },
  };

  /** Lets the jobs under way finish the batches they handed out, and closes their files. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.jobs.values()) {
      job.cancel = true;
      job.asking?.abort();
    }
    await Promise.all([...this.jobs.values()].map((j) => j.running));
    await Promise.all([...this.jobs.values()].map((j) => j.file?.close()));
  }

  /** Jobs an earlier run left: what was sent without an answer is in doubt; the rest can be resumed. */
  private async load(): Promise<void> {
    await this.options.edits;
    for (const { job: line, lines } of await readJobs(this.options.dir)) {
      const job: Job = { line, status: new Map(), state: 'interrupted', cancel: false };
      for (const l of lines) this.track(job, l);
      for (const [key, status] of job.status)
        if (status.kind === 'sent') job.status.set(key, { kind: 'unknown', error: STOPPED });
      const ended = lines.find((l) => l.t === 'end');
      if (ended?.t === 'end') job.state = ended.state;
      this.jobs.set(line.id, job);
    }
  }

  private track(job: Job, line: UnitLine): void {
    switch (line.t) {
      case 'sent':
        job.status.set(line.unit, { kind: 'sent' });
        return;
      case 'ack':
        job.status.set(line.unit, { kind: 'ack', ids: line.ids, created: line.created });
        return;
      case 'refused':
        job.status.set(line.unit, { kind: 'refused', error: line.error });
        return;
      case 'split':
        job.status.set(line.unit, { kind: 'split' });
        return;
      case 'unknown':
        job.status.set(line.unit, { kind: 'unknown', error: line.error });
        return;
      case 'back':
        job.status.delete(line.unit);
        return;
      case 'end':
        return;
    }
  }

  private async note(job: Job, line: UnitLine): Promise<void> {
    await job.file!.append(line);
    this.track(job, line);
  }

  private progress(job: Job): void {
    this.options.emit('import.progress', stateOf(job));
  }

  private start(job: Job, resumed: boolean): void {
    this.progress(job);
    job.running = this.run(job, resumed).catch((e: unknown) => {
      job.state = 'failed';
      job.error = toChannelError(e);
      this.progress(job);
    });
  }

  /** Whether the budget lets the run send what is left, a call a unit (a no, or a Cancel while asked: nothing). */
  private async agreed(job: Job, resumed: boolean): Promise<boolean> {
    const { consent } = this.options;
    if (consent === undefined) return true;
    const { connectionId, baseId, table } = job.line.target;
    const units = pendingUnits(job);
    const rows = units.reduce((n, unit) => n + unit.rows.length, 0);
    const subject = `${resumed ? 'Resume importing' : 'Import'} ${rows.toLocaleString('en-US')} rows into ${table}`;
    job.asking = new AbortController();
    try {
      return await consent({
        connectionId,
        baseId,
        purpose: 'edits',
        subject,
        calls: units.length,
        signal: job.asking.signal,
        // Said in the dialog: the run waits for the answer ("Importing: 0 of 60" read as a stalled import).
        asked: () => {
          job.waiting = true;
          this.progress(job);
        },
      });
    } finally {
      delete job.asking;
      delete job.waiting;
    }
  }

  private async run(job: Job, resumed: boolean): Promise<void> {
    if (!(await this.agreed(job, resumed)) || job.cancel) {
      job.state = this.closed ? 'interrupted' : 'cancelled';
      if (!job.cancel) {
        job.error = NOT_AGREED;
        job.declined = true;
      }
      if (job.state === 'cancelled') await job.file!.append({ t: 'end', state: job.state });
      this.progress(job);
      return;
    }
    const table = await this.options.tableFor(job.line.target);
    const window = this.options.window ?? 4;
    const before = new Set([...job.status].filter(([, st]) => st.kind === 'ack').map(([key]) => key));
    const out = new Set<Promise<void>>();
    // Upsert batches that share a merge key wait for each other: sent together, both could create the record.
    const keysOut = new Map<Promise<void>, Set<string>>();
    let stop = false;
    for (const unit of pendingUnits(job)) {
      while (out.size >= window) await Promise.race(out);
      if (job.cancel || stop) break;
      const keys = this.mergeKeys(job, unit);
      const clashes = [...keysOut].filter(([, k]) => [...keys].some((x) => k.has(x))).map(([p]) => p);
      if (clashes.length > 0) await Promise.all(clashes);
      if (job.cancel || stop) break;
      const sending: Promise<void> = this.send(job, table, unit).then((go) => {
        if (!go) stop = true;
        out.delete(sending);
        keysOut.delete(sending);
      });
      out.add(sending);
      keysOut.set(sending, keys);
    }
    await Promise.all(out);
    const left = pendingUnits(job).length > 0;
    job.state = stop ? 'failed' : left ? (this.closed ? 'interrupted' : 'cancelled') : 'done';
    this.pushUndo(job, before);
    const s = stateOf(job);
    if (job.state === 'done' && s.uncertain.length === 0) {
      // Nothing left to resume or check: the job and its journal have done their work.
      this.jobs.delete(job.line.id);
      await job.file!.remove();
      job.file = undefined;
    } else if (job.state !== 'interrupted') await job.file!.append({ t: 'end', state: job.state });
    this.options.emit('import.progress', s);
  }

  private mergeKeys(job: Job, unit: Unit): Set<string> {
    if (job.line.mode !== 'upsert') return new Set();
    const at = job.line.mergeOn.map((f) => job.line.fields.indexOf(f));
    return new Set(unit.rows.map((r) => JSON.stringify(at.map((i) => job.line.rows[r]!.values[i] ?? null))));
  }

  /** Sends one unit; false when the service refused the request itself (the job stops, the unit stays unsent). */
  private async send(job: Job, table: ImportsTable, unit: Unit): Promise<boolean> {
    const rows = unit.rows.map((i) => job.line.rows[i]!);
    const list = rows.map((r) => fieldsOf(job.line, r));
    const typecast = rows.some((r) => r.typecast);
    await this.note(job, { t: 'sent', unit: unit.key });
    try {
      let records: RecordData[];
      let created: string[];
      if (job.line.mode === 'create') {
        records = await table.createMany(list, { typecast, priority: 'background' });
        created = records.map((r) => r.id);
      } else {
        const result = await table.upsertMany(
          list.map((fields) => ({ fields })),
          { fieldsToMergeOn: job.line.mergeOn, typecast, priority: 'background' },
        );
        records = result.records;
        created = result.createdRecords;
      }
      await this.note(job, { t: 'ack', unit: unit.key, ids: records.map((r) => r.id), created });
      this.announce(job.line.target, records, new Set(created));
    } catch (e) {
      const error = toChannelError(e);
      if (outcomeOf(e) === 'unknown') await this.note(job, { t: 'unknown', unit: unit.key, error });
      else if (error.status === 422 && unit.rows.length > 1) {
        await this.note(job, { t: 'split', unit: unit.key });
        for (const [i, r] of unit.rows.entries()) {
          if (!(await this.send(job, table, { key: `${unit.key}.${i}`, rows: [r] }))) return false;
        }
      } else if (error.status === 422) await this.note(job, { t: 'refused', unit: unit.key, error });
      else {
        await this.note(job, { t: 'back', unit: unit.key });
        job.error = error;
        return false;
      }
    }
    this.progress(job);
    return true;
  }

  /** Open views add the new rows and show the updated values. */
  private announce(target: EditTarget, records: RecordData[], created: Set<string>): void {
    const fresh = records.filter((r) => created.has(r.id));
    if (fresh.length > 0) this.options.emit('records.created', { target, records: fresh });
    for (const record of records)
      if (!created.has(record.id))
        this.options.emit('edits.saved', { target, recordId: record.id, record, editedSince: [] });
  }

  /**
   * A create import is one undo step: the records this run made, with their values for redo (a cancelled
   * import that is resumed adds a step for what the resumption made).
   */
  private pushUndo(job: Job, before: ReadonlySet<string>): void {
    if (job.line.mode !== 'create') return;
    const records: { id: string; fields: FieldValues }[] = [];
    walkUnits(job, (unit, status) => {
      if (status?.kind !== 'ack' || before.has(unit.key)) return;
      unit.rows.forEach((r, i) => {
        const id = status.ids[i];
        if (id !== undefined) records.push({ id, fields: fieldsOf(job.line, job.line.rows[r]!) });
      });
    });
    void this.options.edits.then(({ history }) => history.push(job.line.target, { kind: 'create', records }));
  }
}
