/**
 * The mirrors' engine (see mirrors.ts for the model): the runs of a mirror (one at a time), its summary and its
 * conflicts, over the parts that do the work: pull.ts (the copy follows the service), push.ts (local changes
 * merged and sent), creates.ts (records made here) and files.ts (attachment files both ways).
 */
import { setMaxListeners } from 'node:events';
import { randomBytes } from 'node:crypto';
import type { RecordData, TableSchema } from '../../core/records/types';
import type {
  MirrorConflict,
  MirrorDeps,
  MirrorProgress,
  MirrorResolution,
  MirrorSummary,
  Mirrors,
  SyncResult,
} from './types';
import { LocalChangeCounter } from './change-count';
import { MirrorCreates } from './creates';
import { MirrorFiles } from './files';
import { LocalCopy } from './local';
import { placeInOrder } from './order';
import { MirrorPull } from './pull';
import { MirrorPush } from './push';
import type { EngineContext, Run } from './run';
import { mergeBase, wholeConflicts } from './apply';
import { linkIds, oneWayLinksTo, weave, withoutLinks } from './links';
import { mirroredTables } from './run';
import { nameOf } from '../links/names';
import { MirrorStore } from './store';
import type { MirrorRow, StoredConflict } from './store';
import { sameCell, withCell, writableFields } from './values';
import { ServiceError } from '../errors';

const DEFAULT_OVERLAP_MS = 60_000;

export class MirrorEngine implements Mirrors {
  private readonly store: MirrorStore;
  private readonly local: LocalCopy;
  private readonly running = new Map<string, AbortController>();
  /** Runs the user cancelled (a first pull stopped so is kept as partial, however little it copied). */
  private readonly cancelled = new Set<string>();
  private readonly changeCounter: LocalChangeCounter;
  private readonly pulls: MirrorPull;
  private readonly pushes: MirrorPush;
  private readonly creates: MirrorCreates;
  private readonly ctx: EngineContext;

  constructor(private readonly deps: MirrorDeps) {
    this.store = new MirrorStore(deps.dataDir);
    this.local = new LocalCopy(deps.local, deps.fetch, deps.localStallMs);
    this.changeCounter = new LocalChangeCounter(this.store, this.local);
    this.ctx = {
      deps,
      store: this.store,
      local: this.local,
      overlapMs: deps.refreshOverlapMs ?? DEFAULT_OVERLAP_MS,
      now: deps.now ?? Date.now,
    };
    const files = new MirrorFiles(this.ctx);
    this.creates = new MirrorCreates(this.ctx);
    this.pulls = new MirrorPull(this.ctx, files);
    this.pushes = new MirrorPush(this.ctx, files, this.creates);
  }

  close(): void {
    for (const c of this.running.values()) c.abort(new DOMException('TableDesk is closing.', 'AbortError'));
    this.store.close();
  }

  async list(): Promise<MirrorSummary[]> {
    return Promise.all(this.store.mirrors().map((m) => this.summary(m)));
  }

  private async summary(m: MirrorRow): Promise<MirrorSummary> {
    let localChanges = 0;
    const pulled = this.store.pulled(m.id);
    for (const t of mirroredTables(m)) {
      if (!pulled.has(t.id)) continue;
      localChanges += await this.changeCounter
        .count(
          m,
          t,
          this.running.has(m.id),
          () => this.pushes.localChanges(m, t),
          () => this.pushes.unsent(m, t),
        )
        .catch(() => 0);
    }
    return {
      id: m.id,
      source: { connectionId: m.sourceConnectionId, baseId: m.sourceBaseId, baseName: m.baseName },
      local: { connectionId: m.localConnectionId, baseId: m.sourceBaseId },
      tables: mirroredTables(m).map((t) => ({ id: t.id, name: t.name })),
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
    const run = this.running.get(mirrorId);
    if (!run) return;
    this.cancelled.add(mirrorId);
    run.abort(new DOMException('Cancelled.', 'AbortError'));
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
        throw new ServiceError(
          'invalid-request',
          'This base is on the local server already: it needs no mirror.',
        );
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
      await this.pulls.pull(run);
    });
    return this.summary(this.store.mirror(mirror.id)!);
  }

  async remove(mirrorId: string, opts: { force?: boolean } = {}): Promise<void> {
    const m = this.requireMirror(mirrorId);
    if (this.running.has(mirrorId))
      throw new ServiceError('invalid-request', 'This mirror is being synced; remove it when that is done.');
    const { localChanges, conflicts } = await this.summary(m);
    if ((localChanges > 0 || conflicts > 0) && !opts.force)
      throw new ServiceError(
        'invalid-request',
        `The offline copy of ${m.baseName} holds ${localChanges} local changes and ${conflicts} conflicts not ` +
          'synced: sync first, or remove it anyway and lose them.',
      );
    if (m.schema.length > 0) await this.local.dropBase(m.sourceBaseId);
    this.store.removeMirror(m.id);
    this.changeCounter.forget(m.id);
  }

  async sync(mirrorId: string, onProgress?: (p: MirrorProgress) => void): Promise<SyncResult> {
    const mirror = this.requireMirror(mirrorId);
    return this.withRun(mirror, 'syncing', onProgress, async (run) => {
      await this.creates.finishCreates(run);
      await this.pulls.pull(run);
      await this.pushes.push(run);
      return run.result;
    });
  }

  private requireMirror(id: string): MirrorRow {
    const m = this.store.mirror(id);
    if (!m) throw new ServiceError('not-found', `No mirror ${id}`);
    return m;
  }

  /** One run per mirror at a time; its state is kept across a crash (a pull left half done is 'partial'). */
  private async withRun<T>(
    mirror: MirrorRow,
    state: 'pulling' | 'syncing',
    onProgress: ((p: MirrorProgress) => void) | undefined,
    fn: (run: Run) => Promise<T>,
  ): Promise<T> {
    if (this.running.has(mirror.id))
      throw new ServiceError('invalid-request', 'This mirror is being synced already.');
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
    let forget = false;
    try {
      const run: Run = {
        mirror,
        client: await this.deps.clientFor(mirror.sourceConnectionId),
        signal: controller.signal,
        progress,
        report: () => onProgress?.({ ...progress }),
        result: { sent: 0, received: 0, deleted: 0, conflicts: 0, schemaChanges: [], filesMissing: 0 },
        files: new Map(),
        failedFiles: new Set(),
        slowHosts: new Map(),
        unsentFiles: new Set(),
        relinked: new Set(),
        deleted: new Set(),
        standing: wholeConflicts(this.ctx, mirror),
      };
      const out = await fn(run);
      mirror.state = 'ready';
      mirror.lastSyncedAt = this.ctx.now();
      run.result.conflicts = this.store.conflicts(mirror.id).length;
      run.result.filesMissing = this.store.missingCount(mirror.id);
      return out;
    } catch (e) {
      mirror.state = mirror.lastSyncedAt === undefined ? 'partial' : 'ready';
      // A first pull that failed before the service gave the schema (a key it refuses, a base it does not
      // have) copied nothing: nothing is kept, nor listed as a partial copy to resume. One the user
      // cancelled stays partial, as Cancel says.
      forget = firstPull && mirror.schema.length === 0 && !this.cancelled.has(mirror.id);
      throw e;
    } finally {
      if (forget) this.store.removeMirror(mirror.id);
      else this.store.saveMirror(mirror);
      this.running.delete(mirror.id);
      this.cancelled.delete(mirror.id);
    }
  }

  async conflicts(mirrorId: string): Promise<MirrorConflict[]> {
    const m = this.requireMirror(mirrorId);
    return this.store.conflicts(mirrorId).map((c) => {
      const table = m.schema.find((t) => t.id === c.tableId);
      const field = table?.fields.find((f) => f.id === c.fieldId);
      if (c.gone)
        return {
          id: c.id,
          tableId: c.tableId,
          tableName: c.gone.tableName,
          recordId: c.recordId,
          fieldName: `${c.gone.fieldName} (${c.gone.reason})`,
          kind: c.kind,
          base: c.base ?? null,
          mine: c.mine ?? null,
          theirs: null,
        };
      // Both sides knew the record by its name at the last sync (the merge base is keyed by field id); an empty
      // primary field is left out of the record, and the record is "Unnamed record" as in its links.
      const base = table && this.store.baseRecord(mirrorId, c.recordId);
      return {
        id: c.id,
        tableId: c.tableId,
        tableName: table?.name ?? c.tableId,
        recordId: c.recordId,
        ...(table && base ? { recordName: nameOf(base.fields[table.primaryFieldId]) } : {}),
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
   * sent at once when the service answers, else at the next sync. Theirs or a value typed for a cell edited in
   * the copy since the conflict was listed, or theirs for a record the service deleted and the copy edited
   * since, is not taken (it would write over, or delete, an edit the list did not show; the copy's write is
   * guarded too, for an edit made just then): the conflict stays open, and the sync lists it again with the
   * newer value (`changed`).
   */
  async resolve(
    mirrorId: string,
    resolutions: MirrorResolution[],
  ): Promise<{ resolved: number; changed: number }> {
    const m = this.requireMirror(mirrorId);
    if (this.running.has(mirrorId))
      throw new ServiceError('invalid-request', 'This mirror is being synced; resolve when it is done.');
    const all = new Map(this.store.conflicts(mirrorId).map((c) => [c.id, c]));
    let resolved = 0;
    let changed = 0;
    // Each table of the copy read once, and kept as this loop writes it (two conflicts may share a record);
    // and as first read, what the user left: a record this loop wrote (the one-way cells of one whose deletion
    // "theirs" took) was not edited since its conflict was listed.
    const copies = new Map<string, Map<string, RecordData>>();
    const asRead = new Map<string, ReadonlyMap<string, RecordData>>();
    const copyOf = async (tableId: string) => {
      let copy = copies.get(tableId);
      if (!copy) {
        copy = new Map((await this.local.records(m.sourceBaseId, tableId)).map((x) => [x.id, x]));
        copies.set(tableId, copy);
        asRead.set(tableId, new Map(copy));
      }
      return copy;
    };
    // Written only where the copy is still as read (guarded by its modification time): false if edited since.
    const put = async (tableId: string, record: RecordData) => {
      const copy = await copyOf(tableId);
      if ((await this.local.put(m.sourceBaseId, tableId, [record], copy)).size > 0) return false;
      copy.set(record.id, record);
      return true;
    };
    const base = mergeBase(this.ctx, m);
    for (const r of resolutions) {
      const c = all.get(r.conflictId);
      // A change whose field the service no longer has as it was: nothing to send it to. Theirs lets it go
      // (the list showed the value); mine or a value typed leaves it listed.
      if (c?.gone) {
        if (r.choice === 'theirs') {
          this.store.dropConflictById(c.id);
          resolved++;
        }
        continue;
      }
      const table = c && m.schema.find((t) => t.id === c.tableId);
      if (!c || !table) continue;
      const was = this.store.baseRecord(m.id, c.recordId);
      const copy = (await copyOf(table.id)).get(c.recordId);
      const theirs = c.theirs as Record<string, unknown> | null;
      if (r.choice !== 'mine' && editedSinceListed(c, table, asRead.get(table.id)?.get(c.recordId))) {
        changed++;
        continue;
      }
      if (c.kind === 'cell' && was) {
        if (r.choice !== 'mine' && copy) {
          const value = r.choice === 'edit' ? r.value : c.theirs;
          if (!(await put(table.id, { ...copy, fields: withCell(copy.fields, c.fieldId, value) }))) {
            changed++;
            continue;
          }
        }
        this.store.transaction(() =>
          base.set(table.id, { ...was, fields: withCell(was.fields, c.fieldId, c.theirs) }),
        );
      } else if (c.kind === 'deleted-remote') {
        // Mine: the record is made again on the service (as a local create, with its links); theirs: it goes
        // here too, out of the records it linked. Either way the base forgets it, and its edges.
        if (r.choice === 'theirs') {
          const read = await copyOf(table.id);
          if ((await this.local.delete(m.sourceBaseId, table.id, [c.recordId], read)).size > 0) {
            changed++;
            continue;
          }
          read.delete(c.recordId);
        }
        // The one-way links to it, which the merge held in the base, go too, as on the service: mine's, still in
        // the copy's cells, are then local changes, sent once it is made again (with its new id).
        this.store.transaction(() => {
          base.drop(c.recordId);
          for (const t of mirroredTables(m)) {
            const oneWay = oneWayLinksTo(t, table.id, base.pairs);
            if (oneWay.length === 0) continue;
            for (const b of this.store.baseRecords(m.id, t.id).values()) {
              const fields = withoutLinks(b, oneWay, (id) => id === c.recordId);
              if (fields !== b.fields) base.set(t.id, { ...b, fields });
            }
          }
        });
        // Theirs: out of the copy's one-way cells too (the copy's delete takes it out of a pair's cells only).
        if (r.choice === 'theirs')
          for (const t of mirroredTables(m)) {
            const oneWay = oneWayLinksTo(t, table.id, base.pairs);
            if (oneWay.length === 0) continue;
            for (const mine of [...(await copyOf(t.id)).values()]) {
              const fields = withoutLinks(mine, oneWay, (id) => id === c.recordId);
              // Edited since it was read: it keeps the edit, and the next sync compares it.
              if (fields !== mine.fields) await put(t.id, { ...mine, fields });
            }
          }
      } else if (c.kind === 'deleted-local' && theirs && was) {
        // The base takes the service's record, with its edges on both sides; mine then deletes it there with
        // the next push. Theirs puts it back in the copy, which puts it in the cells of the records it links
        // (at their end): the next pull reads it and them again for the service's order.
        const remote: RecordData = { id: c.recordId, createdTime: was.createdTime, fields: theirs };
        this.store.transaction(() => base.set(table.id, remote));
        if (r.choice !== 'mine') {
          // Not in the copy (deleted here), so nothing there to be edited since.
          if (await put(table.id, remote))
            await this.putBackInOrder(m, table.id, remote, [...(await copyOf(table.id)).keys()]);
          this.store.noteRereads(m.id, table.id, [c.recordId]);
          for (const side of base.pairs.sidesOf(table))
            this.store.noteRereads(m.id, side.otherTableId, linkIds(remote, side.fieldId));
          // The records linking it through a field with none back (a self-link): the copy took it out of their
          // cells with its deletion, and puts it back where the base (the service) has it.
          for (const t of mirroredTables(m)) {
            const oneWay = oneWayLinksTo(t, table.id, base.pairs);
            if (oneWay.length === 0) continue;
            const copy = await copyOf(t.id);
            for (const [id, b] of this.store.baseRecords(m.id, t.id)) {
              const mine = copy.get(id);
              if (!mine) continue;
              let fields = mine.fields;
              for (const f of oneWay) {
                const had = linkIds(b, f.id);
                const now = linkIds(mine, f.id);
                if (had.includes(c.recordId) && !now.includes(c.recordId))
                  fields = withCell(fields, f.id, weave(now, [c.recordId], had));
              }
              // Edited since it was read: it keeps the edit, and the next sync compares it.
              if (fields !== mine.fields) await put(t.id, { ...mine, fields });
            }
          }
        }
      }
      this.store.dropConflictById(c.id);
      resolved++;
    }
    // The sync, even one that fails, makes the next count of local changes a full one (see withRun).
    if (resolved > 0 || changed > 0) await this.sync(mirrorId).catch(() => undefined);
    return { resolved, changed };
  }

  /**
   * A record "theirs" put back in the copy goes where the service lists it, not last until a sync (which may
   * be far off when the service does not answer): among the service's records by creation time, as order.ts
   * takes the service's order to be, before the records made here (the service puts those after it).
   * `current` is the copy's order, the record last.
   */
  private async putBackInOrder(
    m: MirrorRow,
    tableId: string,
    record: RecordData,
    current: readonly string[],
  ): Promise<void> {
    const service = this.store.baseRecords(m.id, tableId);
    const made = Date.parse(record.createdTime);
    const others = current.filter((id) => id !== record.id);
    const at = others.findIndex((id) => {
      const theirs = service.get(id);
      return theirs === undefined || Date.parse(theirs.createdTime) > made;
    });
    const order = at < 0 ? [...others, record.id] : [...others.slice(0, at), record.id, ...others.slice(at)];
    await placeInOrder(this.local, m.sourceBaseId, tableId, order, current);
  }
}

/**
 * Whether the copy no longer holds what the conflict shows as mine: a cell conflict's cell, or a record the
 * service deleted (any cell a person writes, links included), edited since the list was read.
 */
function editedSinceListed(c: StoredConflict, table: TableSchema, copy: RecordData | undefined): boolean {
  if (copy === undefined) return false;
  if (c.kind === 'deleted-remote') {
    const mine = (c.mine ?? {}) as Record<string, unknown>;
    return writableFields(table).some((f) => !sameCell(f, copy.fields[f.id], mine[f.id]));
  }
  if (c.kind !== 'cell') return false;
  const field = table.fields.find((f) => f.id === c.fieldId);
  return field !== undefined && !sameCell(field, copy.fields[c.fieldId], c.mine);
}
