/**
 * Pull, push and conflicts of the mirrors (see index.ts for the model).
 *
 * Pull: the schema first (applied to the copy, changes listed); then a table never pulled is walked whole as
 * four offset chains (core/api/partitioned-walk.ts); a table pulled before is refreshed by the records
 * modified since the last pull started (less an overlap for clocks that disagree) and an id sweep (the
 * primary field only) that finds deletions. Each page of remote records is staged in the mirror store before
 * it touches the copy and unstaged with the new merge base in one transaction, so a run killed in between is
 * finished on the next one without mistaking a pulled record for a local create.
 *
 * Push: the copy is compared with the merge base; the records changed, created or deleted here are read from
 * the service (100 ids a request), merged per cell (merge.ts), and sent: PATCH batches of 10 through the
 * base's throttle, deletes only where the service's record is still the base, creates noted before they are
 * sent. After an answer the base moves to what the service answered. A run killed during a push resends
 * PATCHes (the next read finds the cells already equal: no conflict, nothing lost); a create whose answer
 * was lost is looked for on the service among the records created since it was sent, by its values, and
 * adopted when found; only when the service provably has no such record is it sent again.
 */
import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { RecordTableClient, TableClient } from '../../core/api/index';
import { walkPartitioned, walkPartitionedGathered } from '../../core/api/partitioned-walk';
import { READ_ONLY_FIELD_TYPES } from '../../core/records/types';
import type { FieldSchema, RecordData, TableSchema } from '../../core/records/types';
import { uploadProblem } from '../../core/records/attachments';
import type {
  MirrorConflict,
  MirrorDeps,
  MirrorProgress,
  MirrorResolution,
  MirrorSummary,
  Mirrors,
  SyncResult,
} from './index';
import { LocalChangeCounter } from './change-count';
import type { LocalChanges, Unsent } from './change-count';
import { LocalCopy } from './local';
import { mergeRecord, unchanged } from './merge';
import type { Merged } from './merge';
import { MirrorStore } from './store';
import type { MirrorRow } from './store';
import { schemaChanges } from './schema-changes';
import { sameCell, wireValue, writableFields } from './values';

const DEFAULT_OVERLAP_MS = 60_000;
/** Ids per read of changed records: `OR(RECORD_ID()='…', …)` goes as a POST when the URL would be long. */
const READ_IDS = 100;
const BATCH = 10;
const RECORD_ID = /^rec[A-Za-z0-9]{14}$/;
const FILE_TRIES = 3;
const REQUESTS_PER_SECOND = 5;
const FILE_TIMEOUT_MS = 60_000;
/** The local server's file route takes up to 100 MB (server/http/mirror-routes.ts). */
const MAX_FILE_BYTES = 100 * 1024 * 1024;

/** An attachment as the service sends it. */
interface RemoteFile {
  id: string;
  url: string;
  filename: string;
  type?: string;
  size?: number;
}

/** An attachment as the copy stores it: its file by hash, or a link only (the service's URL). */
interface CopyFile {
  id: string;
  filename: string;
  type: string;
  blob?: string;
  url?: string;
  size?: number;
}

class TooLarge extends Error {}

const cellOf = (r: RecordData, f: FieldSchema): CopyFile[] =>
  Array.isArray(r.fields[f.id]) ? (r.fields[f.id] as CopyFile[]) : [];

/** A response's body, refused past `limit` bytes (as announced, or as it arrives). */
async function boundedBody(res: Response, limit: number): Promise<Buffer> {
  const tooLarge = () => new TooLarge(`The attachment is larger than ${limit} bytes`);
  if (Number(res.headers.get('content-length') ?? 0) > limit) {
    await res.body?.cancel();
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body?.getReader();
  for (;;) {
    const next = await reader?.read();
    if (!next || next.done) break;
    size += next.value.byteLength;
    if (size > limit) {
      await reader?.cancel();
      throw tooLarge();
    }
    chunks.push(next.value);
  }
  return Buffer.concat(chunks);
}

const newConflictId = () => `cnf${randomBytes(8).toString('hex')}`;

interface Run {
  mirror: MirrorRow;
  client: RecordTableClient;
  signal: AbortSignal;
  progress: MirrorProgress;
  report: () => void;
  result: SyncResult;
  /** Each attachment's form in the copy as this run found it (a file, or a link with its latest URL). */
  files: Map<string, CopyFile>;
  /** Attachments whose download failed in this run. */
  failedFiles: Set<string>;
  /** Files attached here that the service cannot take (left out of what is sent). */
  unsentFiles: Set<string>;
  /** A push left out links to records made here and not yet sent (see knownLinks). */
  linksLeftOut?: boolean;
}

/** The other side of a link pair whose side pushes do not send (see createFields). */
interface OtherSide {
  inverseId: string;
  records: Map<string, RecordData>;
}

interface EarlyWalk {
  tableId: string;
  steps: AsyncGenerator<RecordData[][]>;
  stop(): Promise<void>;
}

const tick = (run: Run, requests = 1) => {
  run.progress.requests += requests;
  run.report();
};

export class MirrorEngine implements Mirrors {
  private readonly store: MirrorStore;
  private readonly local: LocalCopy;
  private readonly running = new Map<string, AbortController>();
  private readonly overlapMs: number;
  private readonly changeCounter: LocalChangeCounter;

  constructor(private readonly deps: MirrorDeps) {
    this.store = new MirrorStore(deps.dataDir);
    this.local = new LocalCopy(deps.local, deps.fetch);
    this.changeCounter = new LocalChangeCounter(this.store, this.local);
    this.overlapMs = deps.refreshOverlapMs ?? DEFAULT_OVERLAP_MS;
  }

  close(): void {
    for (const c of this.running.values()) c.abort(new Error('closed'));
    this.store.close();
  }

  async list(): Promise<MirrorSummary[]> {
    return Promise.all(this.store.mirrors().map((m) => this.summary(m)));
  }

  private mirroredTables(m: MirrorRow): TableSchema[] {
    return m.schema.filter((t) => m.tableIds === undefined || m.tableIds.includes(t.id));
  }

  private async summary(m: MirrorRow): Promise<MirrorSummary> {
    let localChanges = 0;
    const pulled = this.store.pulled(m.id);
    for (const t of this.mirroredTables(m)) {
      if (!pulled.has(t.id)) continue;
      localChanges += await this.changeCounter
        .count(
          m,
          t,
          this.running.has(m.id),
          () => this.localChanges(m, t),
          () => this.unsent(m, t),
        )
        .catch(() => 0);
    }
    return {
      id: m.id,
      source: { connectionId: m.sourceConnectionId, baseId: m.sourceBaseId, baseName: m.baseName },
      local: { connectionId: m.localConnectionId, baseId: m.sourceBaseId },
      tables: this.mirroredTables(m).map((t) => ({ id: t.id, name: t.name })),
      state: this.running.has(m.id)
        ? m.state
        : m.state === 'pulling' || m.state === 'syncing'
          ? 'partial'
          : m.state,
      ...(m.lastSyncedAt === undefined ? {} : { lastSyncedAt: m.lastSyncedAt }),
      localChanges,
      conflicts: this.store.conflicts(m.id).length,
      filesMissing: this.store.missingCount(m.id),
    };
  }

  cancel(mirrorId: string): void {
    this.running.get(mirrorId)?.abort(new Error('cancelled'));
  }

  async makeAvailableOffline(
    source: { connectionId: string; baseId: string; tableIds?: string[] },
    onProgress?: (p: MirrorProgress) => void,
  ): Promise<MirrorSummary> {
    let mirror = this.store
      .mirrors()
      .find((m) => m.sourceConnectionId === source.connectionId && m.sourceBaseId === source.baseId);
    if (!mirror) {
      if (source.connectionId === this.deps.local.connectionId)
        throw new Error('This base is on the local server already: it needs no mirror.');
      mirror = {
        id: `mir${randomBytes(8).toString('hex')}`,
        sourceConnectionId: source.connectionId,
        sourceBaseId: source.baseId,
        baseName: source.baseId,
        localConnectionId: this.deps.local.connectionId,
        ...(source.tableIds ? { tableIds: [...new Set(source.tableIds)] } : {}),
        state: 'pulling',
        schema: [],
      };
    } else if (mirror.tableIds !== undefined) {
      mirror.tableIds = source.tableIds ? [...new Set([...mirror.tableIds, ...source.tableIds])] : undefined;
      if (mirror.tableIds === undefined) delete mirror.tableIds;
    }
    this.store.saveMirror(mirror);
    await this.withRun(mirror, 'pulling', onProgress, async (run) => {
      await this.pull(run);
    });
    return this.summary(this.store.mirror(mirror.id)!);
  }

  async sync(mirrorId: string, onProgress?: (p: MirrorProgress) => void): Promise<SyncResult> {
    const mirror = this.requireMirror(mirrorId);
    return this.withRun(mirror, 'syncing', onProgress, async (run) => {
      await this.finishCreates(run);
      await this.pull(run);
      await this.push(run);
      return run.result;
    });
  }

  private requireMirror(id: string): MirrorRow {
    const m = this.store.mirror(id);
    if (!m) throw new Error(`No mirror ${id}`);
    return m;
  }

  /** One run per mirror at a time; its state is kept across a crash (a pull left half done is 'partial'). */
  private async withRun<T>(
    mirror: MirrorRow,
    state: 'pulling' | 'syncing',
    onProgress: ((p: MirrorProgress) => void) | undefined,
    fn: (run: Run) => Promise<T>,
  ): Promise<T> {
    if (this.running.has(mirror.id)) throw new Error('This mirror is being synced already.');
    const controller = new AbortController();
    // Every request of the run listens to it: a push has dozens in flight at once.
    setMaxListeners(0, controller.signal);
    this.running.set(mirror.id, controller);
    // The run writes the copy and the base; counts begun before it are not kept, and none is while it runs.
    this.changeCounter.forget(mirror.id);
    const firstPull = mirror.lastSyncedAt === undefined;
    mirror.state = firstPull ? 'pulling' : state;
    this.store.saveMirror(mirror);
    const progress: MirrorProgress = {
      mirrorId: mirror.id,
      phase: 'schema',
      tables: 0,
      tablesDone: 0,
      records: 0,
      files: 0,
      filesMissing: this.store.missingCount(mirror.id),
      requests: 0,
    };
    const run: Run = {
      mirror,
      client: await this.deps.clientFor(mirror.sourceConnectionId),
      signal: controller.signal,
      progress,
      report: () => onProgress?.({ ...progress }),
      result: { sent: 0, received: 0, deleted: 0, conflicts: 0, schemaChanges: [], filesMissing: 0 },
      files: new Map(),
      failedFiles: new Set(),
      unsentFiles: new Set(),
    };
    try {
      const out = await fn(run);
      mirror.state = 'ready';
      mirror.lastSyncedAt = Date.now();
      run.result.conflicts = this.store.conflicts(mirror.id).length;
      run.result.filesMissing = this.store.missingCount(mirror.id);
      return out;
    } catch (e) {
      mirror.state = mirror.lastSyncedAt === undefined ? 'partial' : 'ready';
      throw e;
    } finally {
      this.store.saveMirror(mirror);
      this.running.delete(mirror.id);
    }
  }

  // ---- pull ----

  private async pull(run: Run): Promise<void> {
    const m = run.mirror;
    const startedAt = Date.now();
    run.progress.phase = 'schema';
    run.report();
    // A table to walk whole whose id is known before the schema answers (one made available offline, or a
    // pull resumed) starts its walk with the schema's request, not a round trip and the schema's writing later.
    const pulledBefore = this.store.pulled(m.id);
    const earlyId = (m.tableIds ?? m.schema.map((t) => t.id)).find(
      (id) => !pulledBefore.has(id) || m.cursor === undefined,
    );
    const early = earlyId === undefined ? undefined : this.startWalk(run, earlyId);
    try {
      await this.pullTables(run, startedAt, early);
    } finally {
      await early?.stop();
    }
  }

  /** A whole-table walk started ahead of its consumer, and its stop (which also swallows its failure). */
  private startWalk(run: Run, tableId: string): EarlyWalk {
    const stop = new AbortController();
    const onAbort = () => stop.abort(run.signal.reason);
    run.signal.addEventListener('abort', onAbort, { once: true });
    const walk = this.wholeWalk(run.client.table(run.mirror.sourceBaseId, tableId), stop.signal);
    const first = walk.next();
    first.catch(() => undefined);
    return {
      tableId,
      steps: (async function* () {
        const r = await first;
        if (r.done) return;
        yield r.value;
        yield* walk;
      })(),
      stop: async () => {
        run.signal.removeEventListener('abort', onAbort);
        stop.abort(new Error('walk stopped'));
        await first.catch(() => undefined);
        await walk.return(undefined).catch(() => undefined);
      },
    };
  }

  /**
   * A whole table, walked in partitions at background priority, its pages gathered: writing each alone to the
   * copy is slower than they arrive at the ceiling.
   */
  private wholeWalk(remote: TableClient, signal: AbortSignal): AsyncGenerator<RecordData[][]> {
    return walkPartitionedGathered(remote, {
      returnFieldsByFieldId: true,
      partitions: this.deps.partitions,
      signal,
      priority: 'background',
    });
  }

  private async pullTables(run: Run, startedAt: number, early: EarlyWalk | undefined): Promise<void> {
    const m = run.mirror;
    const [schema, bases] = await Promise.all([
      run.client.meta.baseSchema(m.sourceBaseId, { signal: run.signal }),
      m.baseName === m.sourceBaseId
        ? run.client.meta.bases({ signal: run.signal }).catch(() => [])
        : Promise.resolve([]),
    ]);
    tick(run, bases.length > 0 ? 2 : 1);
    m.baseName = bases.find((b) => b.id === m.sourceBaseId)?.name ?? m.baseName;
    if (m.schema.length === 0) await this.refuseForeignBase(m);
    const applied = await this.local.applySchema(m.sourceBaseId, m.baseName, schema);
    const skipped = new Set(applied.skipped.map((f) => f.id));
    const kept = schema.map((t) => ({ ...t, fields: t.fields.filter((f) => !skipped.has(f.id)) }));
    if (m.schema.length > 0) run.result.schemaChanges.push(...schemaChanges(m.schema, kept));
    for (const f of applied.skipped)
      run.result.schemaChanges.push(
        `Field "${f.name}" (${f.type}) is not copied: the local server has no such type`,
      );
    for (const t of m.schema) if (!kept.some((k) => k.id === t.id)) this.store.forgetTable(m.id, t.id);
    if (m.tableIds) m.tableIds = m.tableIds.filter((id) => kept.some((t) => t.id === id));
    m.schema = kept;
    this.store.saveMirror(m);

    // The early walk's table first: its pages are arriving already.
    const tables = this.mirroredTables(m).sort(
      (a, b) => Number(b.id === early?.tableId) - Number(a.id === early?.tableId),
    );
    const pulled = this.store.pulled(m.id);
    run.progress.tables = tables.length;
    for (const table of tables) {
      await this.applyStaged(m, table);
      const remote = run.client.table(m.sourceBaseId, table.id);
      if (pulled.has(table.id) && m.cursor !== undefined) await this.refresh(run, table, remote, m.cursor);
      else {
        await this.firstPull(run, table, remote, table.id === early?.tableId ? early.steps : undefined);
        this.store.markPulled(m.id, table.id);
      }
      run.progress.tablesDone++;
      run.report();
    }
    // Every table is now current as of `startedAt` (less what changed while it was read, which the overlap
    // of the next refresh covers).
    m.cursor = startedAt;
    this.store.saveMirror(m);
  }

  /** A base of the local server that is not this mirror's copy is never overwritten. */
  private async refuseForeignBase(m: MirrorRow): Promise<void> {
    const res = await (this.deps.fetch ?? globalThis.fetch)(`${this.deps.local.url}/v0/meta/bases`, {
      headers: { authorization: `Bearer ${this.deps.local.apiKey}` },
    });
    const body = (await res.json()) as { bases?: { id: string }[] };
    if (body.bases?.some((b) => b.id === m.sourceBaseId))
      throw new Error(
        `The local server has a base ${m.sourceBaseId} of its own; it cannot hold this mirror.`,
      );
  }

  private async firstPull(
    run: Run,
    table: TableSchema,
    remote: TableClient,
    started?: AsyncGenerator<RecordData[][]>,
  ): Promise<void> {
    run.progress.phase = 'records';
    const seen = new Set<string>();
    const steps = started ?? this.wholeWalk(remote, run.signal);
    for await (const pages of steps) {
      tick(run, pages.length);
      const records = pages.flat();
      for (const r of records) seen.add(r.id);
      await this.applyRemote(run, table, records, new Map());
    }
    // A pull resumed after a crash may hold records deleted on the service meanwhile.
    const gone = [...this.store.baseRecords(run.mirror.id, table.id).keys()].filter((id) => !seen.has(id));
    await this.applyDeletions(run, table, gone);
    await this.retryFiles(run, table, remote);
  }

  private async refresh(run: Run, table: TableSchema, remote: TableClient, cursor: number): Promise<void> {
    run.progress.phase = 'refresh';
    const since = new Date(cursor - this.overlapMs).toISOString();
    const mine = new Map((await this.local.records(run.mirror.sourceBaseId, table.id)).map((r) => [r.id, r]));
    for await (const page of remote.pages({
      returnFieldsByFieldId: true,
      formula: `IS_AFTER(LAST_MODIFIED_TIME(), '${since}')`,
      signal: run.signal,
      priority: 'background',
    })) {
      tick(run);
      await this.applyRemote(run, table, page, mine);
    }
    const seen = new Set<string>();
    for await (const page of walkPartitioned(remote, {
      fields: [table.primaryFieldId],
      returnFieldsByFieldId: true,
      partitions: this.deps.partitions,
      signal: run.signal,
      priority: 'background',
    })) {
      tick(run);
      for (const r of page) seen.add(r.id);
    }
    const gone = [...this.store.baseRecords(run.mirror.id, table.id).keys()].filter((id) => !seen.has(id));
    await this.applyDeletions(run, table, gone, mine);
    await this.retryFiles(run, table, remote, mine);
  }

  /** Remote records staged, merged into the copy, then the base moved and the stage cleared together. */
  private async applyRemote(
    run: Run,
    table: TableSchema,
    records: RecordData[],
    mine: Map<string, RecordData>,
  ): Promise<void> {
    const m = run.mirror;
    const localForm = await this.withFiles(run, table, records);
    this.store.stage(
      m.id,
      table.id,
      localForm.map((r) => ({ id: r.id, record: r })),
    );
    run.result.received += await this.applyStaged(m, table, mine);
    run.progress.records += records.length;
    run.report();
  }

  private async applyDeletions(
    run: Run,
    table: TableSchema,
    ids: string[],
    mine?: Map<string, RecordData>,
  ): Promise<void> {
    if (ids.length === 0) return;
    this.store.stage(
      run.mirror.id,
      table.id,
      ids.map((id) => ({ id, record: null })),
    );
    await this.applyStaged(run.mirror, table, mine);
    run.result.deleted += ids.length;
  }

  /**
   * Applies whatever is staged for the table (this run's page, or what a killed run left). Answers how many
   * staged records the service changed since the copy last saw them: a refresh reads again what changed within
   * its overlap before the last sync, and what this app sent since, and those come back as they were.
   */
  private async applyStaged(
    m: MirrorRow,
    table: TableSchema,
    mine?: Map<string, RecordData>,
  ): Promise<number> {
    const staged = this.store.staged(m.id, table.id);
    if (staged.length === 0) return 0;
    const copy = mine ?? new Map((await this.local.records(m.sourceBaseId, table.id)).map((r) => [r.id, r]));
    let received = 0;
    const merged = staged.map((s) => {
      const base = this.store.baseRecord(m.id, s.id);
      if (s.record !== null && (base === undefined || !unchanged(table.fields, base, s.record))) received++;
      return { id: s.id, merged: mergeRecord(table, m.schema, base, copy.get(s.id), s.record) };
    });
    await this.writeCopy(m, table, merged, copy);
    this.store.transaction(() => {
      for (const x of merged) this.commitMerge(m, table, x.id, x.merged);
      this.store.unstage(
        m.id,
        staged.map((s) => s.id),
      );
    });
    return received;
  }

  private async writeCopy(
    m: MirrorRow,
    table: TableSchema,
    merged: { id: string; merged: Merged }[],
    copy: Map<string, RecordData>,
  ): Promise<void> {
    const puts = merged.flatMap((x) => (x.merged.local ? [x.merged.local] : []));
    const deletes = merged.filter((x) => x.merged.local === null).map((x) => x.id);
    await this.local.put(m.sourceBaseId, table.id, puts);
    await this.local.delete(m.sourceBaseId, table.id, deletes);
    for (const r of puts) copy.set(r.id, r);
    for (const id of deletes) copy.delete(id);
  }

  private commitMerge(m: MirrorRow, table: TableSchema, recordId: string, merged: Merged): void {
    if (merged.base) this.store.setBase(m.id, table.id, merged.base);
    else this.store.dropBase(m.id, recordId);
    const current = new Set(merged.conflicts.map((c) => c.fieldId));
    for (const c of this.store.conflicts(m.id, recordId))
      if (!current.has(c.fieldId)) this.store.dropConflict(m.id, recordId, c.fieldId);
    for (const c of merged.conflicts) this.store.putConflict(m.id, c, newConflictId);
  }

  /**
   * Remote records in the form the copy stores: attachment files downloaded (once per attachment id) into
   * the local server's file store and named by hash, as Airtable's URLs expire within hours. An attachment
   * whose file cannot be downloaded does not stop the pull: its record is copied with the attachment as a
   * link only (see server/store/mirror-writes.ts), noted as missing, and tried again by the next sync.
   */
  private async withFiles(run: Run, table: TableSchema, records: RecordData[]): Promise<RecordData[]> {
    const fields = table.fields.filter((f) => f.type === 'multipleAttachments');
    if (fields.length === 0) return records;
    const out: RecordData[] = [];
    for (const r of records) {
      const copy: RecordData = { ...r, fields: { ...r.fields } };
      for (const f of fields) {
        const list = r.fields[f.id];
        if (!Array.isArray(list)) continue;
        const items: CopyFile[] = [];
        for (const item of list as RemoteFile[]) items.push(await this.fileOf(run, table, r.id, item));
        copy.fields[f.id] = items;
      }
      out.push(copy);
    }
    return out;
  }

  /** One attachment as the copy stores it: by file hash, or (its download failed) a link only. */
  private async fileOf(run: Run, table: TableSchema, recordId: string, item: RemoteFile): Promise<CopyFile> {
    const m = run.mirror;
    let hash = this.store.fileHash(item.id);
    // A download that failed in this run is not tried again in it (a push's answers name the same files).
    if (hash === undefined && !run.failedFiles.has(item.id)) {
      run.progress.phase = 'files';
      const bytes = await this.download(run, item.url).catch((e: unknown) => {
        if (run.signal.aborted) throw e;
        run.failedFiles.add(item.id);
        return undefined;
      });
      if (bytes) {
        hash = (await this.local.file(bytes)).hash;
        this.store.noteFile(item.id, hash);
        run.progress.files++;
      }
      run.report();
    }
    const named = { id: item.id, filename: item.filename, type: item.type ?? '' };
    let form: CopyFile;
    if (hash !== undefined) form = { ...named, blob: hash };
    else {
      form = { ...named, url: item.url, ...(item.size === undefined ? {} : { size: item.size }) };
      this.store.noteMissing(m.id, table.id, recordId, item.id);
      run.progress.filesMissing = this.store.missingCount(m.id);
    }
    run.files.set(item.id, form);
    return form;
  }

  /**
   * Attachments copied as links only, once their tables are pulled: those this run has not seen are read
   * again from the service (100 records a request), which gives their URLs freshly signed, and downloaded.
   * The copy and the merge base then take each file (or its newer URL) in place of the old link, item by
   * item: the merge compares attachments by id and name only, so a file arriving is never a change.
   */
  private async retryFiles(
    run: Run,
    table: TableSchema,
    remote: TableClient,
    mine?: Map<string, RecordData>,
  ): Promise<void> {
    const m = run.mirror;
    const rows = this.store.missing(m.id, table.id);
    if (rows.length === 0) return;
    const unseen = [...new Set(rows.filter((r) => !run.files.has(r.attachmentId)).map((r) => r.recordId))];
    if (unseen.length > 0)
      await this.withFiles(run, table, [...(await this.readRemote(run, remote, unseen)).values()]);
    const copy = mine ?? new Map((await this.local.records(m.sourceBaseId, table.id)).map((r) => [r.id, r]));
    const fields = table.fields.filter((f) => f.type === 'multipleAttachments');
    const patch = (r: RecordData): RecordData | undefined => {
      let changed = false;
      const out: RecordData = { ...r, fields: { ...r.fields } };
      for (const f of fields) {
        const list = r.fields[f.id];
        if (!Array.isArray(list)) continue;
        out.fields[f.id] = (list as CopyFile[]).map((item) => {
          const form = run.files.get(item.id);
          if (!form || (form.blob === undefined ? form.url === item.url : form.blob === item.blob))
            return item;
          changed = true;
          return form;
        });
      }
      return changed ? out : undefined;
    };
    const records = [...new Set(rows.map((r) => r.recordId))];
    const puts = records.flatMap((id) => {
      const r = copy.get(id);
      const patched = r && patch(r);
      return patched ? [patched] : [];
    });
    await this.local.put(m.sourceBaseId, table.id, puts);
    for (const r of puts) copy.set(r.id, r);
    this.store.transaction(() => {
      for (const id of records) {
        const base = this.store.baseRecord(m.id, id);
        const patched = base && patch(base);
        if (patched) this.store.setBase(m.id, table.id, patched);
      }
      // Downloaded now, or no longer on the service (the pull applies that as any other change).
      for (const r of rows)
        if (run.files.get(r.attachmentId)?.blob !== undefined || !run.files.has(r.attachmentId))
          this.store.dropMissing(m.id, r.attachmentId);
    });
    run.progress.filesMissing = this.store.missingCount(m.id);
    run.report();
  }

  /**
   * Attachment URLs are signed links to the service's file host: no key, no throttle (not the API). Each
   * download is bounded in time and size; a 4xx (a 404, a 403 of an expired signature), a timeout or a file
   * too large is not tried again in this run, a dropped connection or a 5xx twice more.
   */
  private async download(run: Run, url: string): Promise<Buffer> {
    let last: unknown;
    for (let i = 0; i < FILE_TRIES; i++) {
      // Its own timer (not AbortSignal.timeout inside AbortSignal.any, which Node 20 may collect unfired).
      const bounded = new AbortController();
      const timer = setTimeout(
        () => bounded.abort(new Error('Downloading an attachment took too long')),
        this.deps.fileTimeoutMs ?? FILE_TIMEOUT_MS,
      );
      const stop = () => bounded.abort(run.signal.reason);
      run.signal.addEventListener('abort', stop, { once: true });
      try {
        const res = await (this.deps.fetch ?? globalThis.fetch)(url, { signal: bounded.signal });
        if (res.ok) return await boundedBody(res, this.deps.maxFileBytes ?? MAX_FILE_BYTES);
        await res.body?.cancel();
        last = new Error(`Downloading an attachment failed: ${res.status}`);
        if (res.status < 500) break;
      } catch (e) {
        if (run.signal.aborted) throw e;
        last = e;
        if (bounded.signal.aborted || e instanceof TooLarge) break;
      } finally {
        clearTimeout(timer);
        run.signal.removeEventListener('abort', stop);
      }
      await new Promise((r) => setTimeout(r, 500 * (i + 1)));
    }
    throw last instanceof Error ? last : new Error(String(last));
  }

  // ---- push ----

  /** The fields a push compares, and the records made here that are not local creates to send. */
  private unsent(m: MirrorRow, table: TableSchema): Unsent {
    return {
      fields: writableFields(table, m.schema),
      pending: new Set(this.store.creates(m.id).map((c) => c.localId)),
      staged: new Set(this.store.staged(m.id, table.id).map((s) => s.id)),
    };
  }

  private async localChanges(
    m: MirrorRow,
    table: TableSchema,
  ): Promise<LocalChanges & { copy: Map<string, RecordData> }> {
    const copy = new Map((await this.local.records(m.sourceBaseId, table.id)).map((r) => [r.id, r]));
    const base = this.store.baseRecords(m.id, table.id);
    const { fields, pending, staged } = this.unsent(m, table);
    const changed: string[] = [];
    const deleted: string[] = [];
    const created: RecordData[] = [];
    for (const [id, b] of base) {
      const l = copy.get(id);
      if (!l) deleted.push(id);
      else if (!unchanged(fields, l, b)) changed.push(id);
    }
    for (const [id, l] of copy) if (!base.has(id) && !pending.has(id) && !staged.has(id)) created.push(l);
    return { copy, changed, created, deleted };
  }

  private async push(run: Run): Promise<void> {
    run.progress.phase = 'push';
    run.report();
    // A second pass sends what the first could not: links to records made here (by then they have the
    // service's ids), and the files of records made here (the service takes files only on a record it has).
    for (let pass = 0; pass < 2; pass++) {
      run.linksLeftOut = false;
      const files = await this.pushTables(run);
      if (!run.linksLeftOut && !files) return;
    }
  }

  /** Pushes every table once; true when a record created had files left to send. */
  private async pushTables(run: Run): Promise<boolean> {
    const m = run.mirror;
    let files = false;
    for (const table of this.mirroredTables(m)) {
      const remote = run.client.table(m.sourceBaseId, table.id);
      const { copy, changed, created, deleted } = await this.localChanges(m, table);
      const ids = [...changed, ...deleted];
      const theirs = await this.readRemote(run, remote, ids);
      await this.sendFiles(run, table, changed, copy, theirs);
      const merged = ids.map((id) => ({
        id,
        merged: mergeRecord(
          table,
          m.schema,
          this.store.baseRecord(m.id, id),
          copy.get(id) ?? null,
          theirs.get(id) ?? null,
        ),
      }));
      await this.writeCopy(m, table, merged, copy);
      this.store.transaction(() => {
        for (const x of merged) this.commitMerge(m, table, x.id, x.merged);
      });
      await this.sendUpdates(run, table, remote, merged, copy);
      await this.sendDeletes(run, table, remote, merged);
      await this.sendCreates(run, table, remote, created);
      const attachments = table.fields.filter((f) => f.type === 'multipleAttachments');
      files ||= created.some((r) => attachments.some((f) => cellOf(r, f).length > 0));
    }
    return files;
  }

  /**
   * Files attached here (in the copy, neither at the merge base nor on the service) go to the service before
   * the merge, by uploadAttachment as the app's own uploads go: the bytes, since the service cannot fetch a
   * link to this computer's local server. Each is noted before it is sent. The copy's attachment then takes
   * the service's id, and the merge is shown the service's cell without it, so the cell is mine over an
   * unchanged remote and the PATCH that follows sets it in my order, keeping the file by id; the base then
   * moves to the answer. An upload whose answer was lost is looked for in the service's cell (read after it
   * was sent) as a new attachment of the same name and size, and adopted; only when there is none is it sent
   * again. A file the service cannot take (over 5 MB, a name it refuses) stays here and is not sent.
   */
  private async sendFiles(
    run: Run,
    table: TableSchema,
    ids: string[],
    copy: Map<string, RecordData>,
    theirs: Map<string, RecordData>,
  ): Promise<void> {
    const m = run.mirror;
    const fields = writableFields(table, m.schema).filter((f) => f.type === 'multipleAttachments');
    if (fields.length === 0) return;
    for (const id of ids) {
      const mine = copy.get(id);
      const t = theirs.get(id);
      const base = this.store.baseRecord(m.id, id);
      if (!mine || !t || !base) continue;
      const next: RecordData = { ...mine, fields: { ...mine.fields } };
      const done: string[] = [];
      for (const f of fields) {
        const items = cellOf(mine, f);
        const known = new Set([...cellOf(base, f), ...cellOf(t, f)].map((a) => a.id));
        const added = items.filter((a) => !known.has(a.id));
        if (added.length === 0) continue;
        const renamed = new Map<string, CopyFile>();
        for (const a of added) {
          const sent = await this.sendFile(run, table, f, id, a, cellOf(base, f), t);
          if (sent) renamed.set(a.id, sent);
        }
        if (renamed.size === 0) continue;
        next.fields[f.id] = items.map((a) => renamed.get(a.id) ?? a);
        const uploaded = new Set([...renamed.values()].map((a) => a.id));
        t.fields[f.id] = cellOf(t, f).filter((a) => !uploaded.has(a.id));
        done.push(...renamed.keys());
      }
      if (done.length === 0) continue;
      await this.local.put(m.sourceBaseId, table.id, [next]);
      copy.set(id, next);
      for (const localId of done) this.store.dropUpload(m.id, localId);
    }
  }

  /** One file of the copy sent to the service (see sendFiles): its form under the service's id. */
  private async sendFile(
    run: Run,
    table: TableSchema,
    field: FieldSchema,
    recordId: string,
    a: CopyFile,
    base: CopyFile[],
    theirs: RecordData,
  ): Promise<CopyFile | undefined> {
    const m = run.mirror;
    const file = { name: a.filename, size: a.size ?? 0, type: a.type || 'application/octet-stream' };
    if (a.url === undefined || uploadProblem(file) !== undefined) {
      run.unsentFiles.add(a.id);
      return undefined;
    }
    const bytes = await this.local.download(a.url);
    const pending = this.store.upload(m.id, a.id);
    let remoteId = pending?.remoteId;
    if (remoteId === undefined && pending) {
      const had = new Set(base.map((x) => x.id));
      remoteId = cellOf(theirs, field).find(
        (x) => !had.has(x.id) && x.filename === a.filename && x.size === bytes.length,
      )?.id;
    }
    if (remoteId === undefined) {
      this.store.noteUpload(m.id, table.id, a.id, Date.now());
      const answer = await run.client.uploadAttachment(
        m.sourceBaseId,
        recordId,
        field.id,
        { filename: a.filename, contentType: file.type, bytes },
        { signal: run.signal },
      );
      tick(run);
      const had = new Set(cellOf(theirs, field).map((x) => x.id));
      const cell = (answer.fields[field.id] ?? answer.fields[field.name]) as CopyFile[] | undefined;
      remoteId = (Array.isArray(cell) ? cell : [])
        .filter((x) => !had.has(x.id) && x.filename === a.filename)
        .at(-1)?.id;
      if (remoteId === undefined) throw new Error(`The service did not attach ${a.filename}`);
      this.store.uploadedAs(m.id, a.id, remoteId);
    }
    const hash = (await this.local.file(bytes)).hash;
    this.store.noteFile(remoteId, hash);
    return { id: remoteId, filename: a.filename, type: a.type, blob: hash };
  }

  /** The service's records of `ids`, 100 a request, the requests in flight together through the throttle. */
  private async readRemote(run: Run, remote: TableClient, ids: string[]): Promise<Map<string, RecordData>> {
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

  private async sendUpdates(
    run: Run,
    table: TableSchema,
    remote: TableClient,
    merged: { id: string; merged: Merged }[],
    copy: Map<string, RecordData>,
  ): Promise<void> {
    const byId = new Map(table.fields.map((f) => [f.id, f]));
    const writable = new Set(writableFields(table, run.mirror.schema).map((f) => f.id));
    // A link cell naming records not yet sent is held back whole: sent without them, it would unlink them
    // on the service. It keeps its base and the copy's value, like a conflict's cell, for the second pass.
    const held = new Map<string, string[]>();
    const updates = merged
      .map((x) => {
        const fields: Record<string, unknown> = {};
        for (const [fid, v] of Object.entries(x.merged.send)) {
          const field = byId.get(fid)!;
          const known = this.known(run, field, v);
          if (
            field.type === 'multipleRecordLinks' &&
            Array.isArray(v) &&
            Array.isArray(known) &&
            known.length < v.length
          )
            held.set(x.id, [...(held.get(x.id) ?? []), fid]);
          else fields[fid] = wireValue(field, known);
        }
        return { id: x.id, fields };
      })
      .filter((u) => Object.keys(u.fields).length > 0);
    const total = Math.ceil(updates.length / BATCH);
    let done = 0;
    await Promise.all(
      chunks(updates, BATCH).map(async (batch) => {
        const answered = await remote.updateMany(batch, {
          returnFieldsByFieldId: true,
          signal: run.signal,
        });
        done++;
        run.progress.etaMs = ((total - done) * 1000) / REQUESTS_PER_SECOND;
        tick(run);
        const fixed = await this.withFiles(run, table, answered);
        // The base moves to the service's answer, except cells in conflict (their base stays until the user
        // decides); the copy takes the answer too (a value the service normalised, formulas it computed).
        const rewrite: RecordData[] = [];
        this.store.transaction(() => {
          for (const r of fixed) {
            const conflicted = [
              ...this.store.conflicts(run.mirror.id, r.id).map((c) => c.fieldId),
              ...(held.get(r.id) ?? []),
            ];
            const old = this.store.baseRecord(run.mirror.id, r.id);
            const base = { ...r, fields: { ...r.fields } };
            const l = copy.get(r.id);
            const mine = { ...r, fields: { ...r.fields } };
            for (const fid of conflicted) {
              base.fields = withCell(base.fields, fid, old?.fields[fid]);
              mine.fields = withCell(mine.fields, fid, l?.fields[fid]);
            }
            // Cells the copy keeps: the other side of a link pair, unchanged on the service (see mergeRecord),
            // and a cell holding files not sent (the answer has none of them).
            for (const f of table.fields) {
              const otherSide = !writable.has(f.id) && sameCell(f, r.fields[f.id], old?.fields[f.id]);
              const unsent =
                l !== undefined &&
                f.type === 'multipleAttachments' &&
                cellOf(l, f).some((a) => run.unsentFiles.has(a.id));
              if (otherSide || unsent) mine.fields = withCell(mine.fields, f.id, l?.fields[f.id]);
            }
            this.store.setBase(run.mirror.id, table.id, base);
            if (l && table.fields.some((f) => !sameCell(f, l.fields[f.id], mine.fields[f.id])))
              rewrite.push(mine);
          }
        });
        for (const c of batch) run.result.sent += Object.keys(c.fields).length > 0 ? 1 : 0;
        if (rewrite.length > 0) await this.local.put(run.mirror.sourceBaseId, table.id, rewrite);
      }),
    );
  }

  private async sendDeletes(
    run: Run,
    table: TableSchema,
    remote: TableClient,
    merged: { id: string; merged: Merged }[],
  ): Promise<void> {
    const ids = merged.filter((x) => x.merged.deleteRemote).map((x) => x.id);
    await Promise.all(
      chunks(ids, BATCH).map(async (batch) => {
        await remote.deleteMany(batch, { signal: run.signal });
        tick(run);
        this.store.transaction(() => {
          for (const id of batch) this.store.dropBase(run.mirror.id, id);
        });
        run.result.sent += batch.length;
      }),
    );
  }

  /** What the service can take of a cell: links it knows (knownLinks), files it has (not unsent ones). */
  private known(run: Run, field: FieldSchema, v: unknown): unknown {
    if (field.type === 'multipleAttachments' && Array.isArray(v))
      return (v as CopyFile[]).filter((a) => !run.unsentFiles.has(a.id));
    return this.knownLinks(run, field, v);
  }

  /**
   * Links to records made here and not yet sent are left out (the service would refuse their ids); the
   * push's second pass sends them, once those records have the service's ids.
   */
  private knownLinks(run: Run, field: FieldSchema, v: unknown): unknown {
    if (field.type !== 'multipleRecordLinks' || !Array.isArray(v)) return v;
    const known = (v as string[]).filter((id) => this.store.baseRecord(run.mirror.id, id) !== undefined);
    if (known.length < v.length) run.linksLeftOut = true;
    return known;
  }

  /**
   * The cells of a record made here that the service can take: not computed, no files, no unsent links.
   * Of the side of a link pair that pushes do not send, only the links the other side's records do not hold
   * in the copy: the ones they hold are their own changes, sent with them; sent here too, they would reach
   * those records on the service before their own merge, which would then see a remote change and report a
   * conflict. (A record made again by "Keep mine" links records that no longer name it.)
   */
  private createFields(
    run: Run,
    table: TableSchema,
    r: RecordData,
    others: Map<string, OtherSide>,
  ): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const f of table.fields) {
      const v = r.fields[f.id];
      if (v === undefined || f.type === 'multipleAttachments' || READ_ONLY_FIELD_TYPES.has(f.type)) continue;
      const pair = others.get(f.id);
      const own = pair
        ? (v as string[]).filter((id) => {
            const held = pair.records.get(id)?.fields[pair.inverseId];
            return !(Array.isArray(held) && held.includes(r.id));
          })
        : v;
      const known = this.knownLinks(run, f, own);
      if (!Array.isArray(known) || known.length > 0) out[f.id] = known;
    }
    return out;
  }

  /**
   * By field id, `table`'s link fields whose side pushes do not send: the field that links back and the
   * copy's records of the linked table (each table read once).
   */
  private async linkedCopies(m: MirrorRow, table: TableSchema): Promise<Map<string, OtherSide>> {
    const writable = new Set(writableFields(table, m.schema).map((f) => f.id));
    const read = new Map<string, Map<string, RecordData>>();
    const out = new Map<string, OtherSide>();
    for (const f of table.fields) {
      const pair = writable.has(f.id) ? undefined : linkPair(f);
      if (!pair) continue;
      let records = read.get(pair.tableId);
      if (!records) {
        records = new Map((await this.local.records(m.sourceBaseId, pair.tableId)).map((x) => [x.id, x]));
        read.set(pair.tableId, records);
      }
      out.set(f.id, { inverseId: pair.inverseId, records });
    }
    return out;
  }

  private async sendCreates(
    run: Run,
    table: TableSchema,
    remote: TableClient,
    created: RecordData[],
  ): Promise<void> {
    const m = run.mirror;
    const others = created.length > 0 ? await this.linkedCopies(m, table) : new Map();
    for (const batch of chunks(created, BATCH)) {
      const list = batch.map((r) => ({
        tableId: table.id,
        localId: r.id,
        fields: this.createFields(run, table, r, others),
      }));
      this.store.noteCreates(m.id, list, Date.now());
      const answered = await remote.createMany(
        list.map((c) => c.fields),
        { returnFieldsByFieldId: true, signal: run.signal },
      );
      tick(run);
      for (let i = 0; i < list.length; i++) {
        const r = answered[i];
        if (r) await this.adoptCreate(m, table, list[i]!.localId, r);
      }
      run.result.sent += list.length;
    }
  }

  /** The service's record becomes the copy's: base first (noted with the create), then the copy's id. */
  private async adoptCreate(m: MirrorRow, table: TableSchema, localId: string, r: RecordData): Promise<void> {
    this.store.createdAs(m.id, localId, r, table.id);
    await this.local.rename(m.sourceBaseId, table.id, localId, r);
    this.store.dropCreate(m.id, localId);
  }

  /**
   * Creates a killed run left: answered ones get their rename finished; unanswered ones are looked for on
   * the service by their values among the records created since they were sent, and adopted when found.
   * One not found was never made, and becomes a local create again.
   */
  private async finishCreates(run: Run): Promise<void> {
    const m = run.mirror;
    const pending = this.store.creates(m.id);
    for (const table of m.schema) {
      const mine = pending.filter((c) => c.tableId === table.id);
      if (mine.length === 0) continue;
      const remote = run.client.table(m.sourceBaseId, table.id);
      const unknown = mine.filter((c) => c.remoteId === undefined);
      const since = Math.min(...unknown.map((c) => c.sentAt ?? Date.now())) - this.overlapMs;
      const candidates: RecordData[] = [];
      if (unknown.length > 0)
        for await (const page of remote.pages({
          returnFieldsByFieldId: true,
          formula: `IS_AFTER(CREATED_TIME(), '${new Date(since).toISOString()}')`,
          signal: run.signal,
        })) {
          tick(run);
          candidates.push(...page);
        }
      const taken = new Set<string>();
      for (const c of mine) {
        if (c.remoteId !== undefined) {
          const made = this.store.baseRecord(m.id, c.remoteId);
          if (made) await this.local.rename(m.sourceBaseId, table.id, c.localId, made);
          this.store.dropCreate(m.id, c.localId);
          continue;
        }
        const match = candidates.find(
          (r) =>
            !taken.has(r.id) &&
            this.store.baseRecord(m.id, r.id) === undefined &&
            writableFields(table, m.schema).every(
              (f) => f.type === 'multipleAttachments' || sameCell(f, r.fields[f.id], c.fields[f.id]),
            ),
        );
        if (match) {
          taken.add(match.id);
          await this.adoptCreate(m, table, c.localId, match);
        } else this.store.dropCreate(m.id, c.localId);
      }
    }
  }

  // ---- conflicts ----

  async conflicts(mirrorId: string): Promise<MirrorConflict[]> {
    const m = this.requireMirror(mirrorId);
    return this.store.conflicts(mirrorId).map((c) => {
      const table = m.schema.find((t) => t.id === c.tableId);
      const field = table?.fields.find((f) => f.id === c.fieldId);
      return {
        id: c.id,
        tableId: c.tableId,
        tableName: table?.name ?? c.tableId,
        recordId: c.recordId,
        ...(field ? { fieldName: field.name } : {}),
        kind: c.kind,
        base: c.base ?? null,
        mine: c.mine ?? null,
        theirs: c.theirs ?? null,
      };
    });
  }

  /**
   * Each choice is recorded in the copy and the merge base, so that the next push does what it says:
   * mine: the base becomes theirs, so mine is a change over an unchanged remote and is sent; theirs: the
   * copy and the base become theirs; edit: the copy takes the value and the base theirs. The decisions are
   * sent at once when the service answers, else at the next sync.
   */
  async resolve(mirrorId: string, resolutions: MirrorResolution[]): Promise<{ resolved: number }> {
    const m = this.requireMirror(mirrorId);
    if (this.running.has(mirrorId)) throw new Error('This mirror is being synced; resolve when it is done.');
    const all = new Map(this.store.conflicts(mirrorId).map((c) => [c.id, c]));
    let resolved = 0;
    // Each table of the copy read once, and kept as this loop writes it (two conflicts may share a record).
    const copies = new Map<string, Map<string, RecordData>>();
    const copyOf = async (tableId: string) => {
      let copy = copies.get(tableId);
      if (!copy) {
        copy = new Map((await this.local.records(m.sourceBaseId, tableId)).map((x) => [x.id, x]));
        copies.set(tableId, copy);
      }
      return copy;
    };
    const put = async (tableId: string, record: RecordData) => {
      await this.local.put(m.sourceBaseId, tableId, [record]);
      (await copyOf(tableId)).set(record.id, record);
    };
    for (const r of resolutions) {
      const c = all.get(r.conflictId);
      const table = c && m.schema.find((t) => t.id === c.tableId);
      if (!c || !table) continue;
      const base = this.store.baseRecord(m.id, c.recordId);
      const copy = (await copyOf(table.id)).get(c.recordId);
      const theirs = c.theirs as Record<string, unknown> | null;
      if (c.kind === 'cell' && base) {
        this.store.setBase(m.id, table.id, { ...base, fields: withCell(base.fields, c.fieldId, c.theirs) });
        if (r.choice !== 'mine' && copy) {
          const value = r.choice === 'edit' ? r.value : c.theirs;
          await put(table.id, { ...copy, fields: withCell(copy.fields, c.fieldId, value) });
        }
      } else if (c.kind === 'deleted-remote') {
        // Mine: the record is made again on the service (as a local create); theirs: it goes here too.
        if (r.choice === 'theirs') {
          await this.local.delete(m.sourceBaseId, table.id, [c.recordId]);
          (await copyOf(table.id)).delete(c.recordId);
        }
        this.store.dropBase(m.id, c.recordId);
      } else if (c.kind === 'deleted-local' && theirs && base) {
        const remote: RecordData = { id: c.recordId, createdTime: base.createdTime, fields: theirs };
        this.store.setBase(m.id, table.id, remote);
        if (r.choice !== 'mine') await put(table.id, remote);
      }
      this.store.dropConflictById(c.id);
      resolved++;
    }
    // The sync, even one that fails, makes the next count of local changes a full one (see withRun).
    if (resolved > 0) await this.sync(mirrorId).catch(() => undefined);
    return { resolved };
  }
}

function withCell(fields: Record<string, unknown>, id: string, value: unknown): Record<string, unknown> {
  const out = { ...fields };
  if (value === undefined || value === null) delete out[id];
  else out[id] = value;
  return out;
}

/** A link field's linked table and the field there that links back, if it has one. */
function linkPair(f: FieldSchema): { tableId: string; inverseId: string } | undefined {
  const tableId = f.options?.['linkedTableId'];
  const inverseId = f.options?.['inverseLinkFieldId'];
  return f.type === 'multipleRecordLinks' && typeof tableId === 'string' && typeof inverseId === 'string'
    ? { tableId, inverseId }
    : undefined;
}

function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}
