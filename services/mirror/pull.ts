/**
 * The pull of a mirror: the schema first (applied to the copy, changes listed); then a table never pulled is
 * walked whole as several offset chains, as many as the latency needs (core/api/partitioned-walk.ts); a table
 * pulled before is refreshed by the records modified since the last pull started (less an overlap for clocks
 * that disagree) and an id sweep (the primary field only) that finds deletions, every table's swept before
 * any is merged. A table that gained a
 * field with cells on records not modified since (a computed one added on the service, or one the copy left
 * out before, of a type the local server did not know) is read whole instead, once. Each page of remote
 * records is staged in the mirror store before it touches the copy and unstaged with the new merge base in one
 * transaction, so a run killed in between is finished on the next one without mistaking a pulled record for a
 * local create.
 */
import type { TableClient } from '../../core/api/index';
import { walkPartitioned, walkPartitionedGathered } from '../../core/api/partitioned-walk';
import { READ_ONLY_FIELD_TYPES } from '../../core/records/types';
import type { FieldSchema, RecordData, TableSchema } from '../../core/records/types';
import {
  MERGE_ROUNDS,
  commitMerge,
  deletedHeldByConflicts,
  heldByConflicts,
  mergeBase,
  newConflictId,
  openCells,
  unlinkFromBase,
  writeCopy,
} from './apply';
import type { MergedRecord } from './apply';
import type { MirrorFiles } from './files';
import { leavingChanges, leavingFields, lostSentences } from './leaving';
import type { MergeBase } from './links';
import { mergeRecord, unchanged, wholeRecord } from './merge';
import { placeInOrder, serviceOrder } from './order';
import type { Walked } from './order';
import { readRemote } from './remote-read';
import { checkRemoteRecords } from './remote-records';
import type { EngineContext, Run } from './run';
import { mirroredTables, tick } from './run';
import { schemaChanges } from './schema-changes';
import type { MirrorRow } from './store';
import { withCell, writableFields } from './values';
import { ServiceError } from '../errors';
import { LocalRefusal } from './local';

/** The tables of `after` with fields that `before` had with another type: the fields' ids, by table. */
function retyped(before: readonly TableSchema[], after: readonly TableSchema[]): Map<TableSchema, string[]> {
  const out = new Map<TableSchema, string[]>();
  for (const t of after) {
    const was = new Map((before.find((x) => x.id === t.id)?.fields ?? []).map((f) => [f.id, f.type]));
    const ids = t.fields.filter((f) => was.has(f.id) && was.get(f.id) !== f.type).map((f) => f.id);
    if (ids.length > 0) out.set(t, ids);
  }
  return out;
}

type StagedRecord = ReturnType<EngineContext['store']['staged']>[number];

interface EarlyWalk {
  tableId: string;
  steps: AsyncGenerator<RecordData[][]>;
  stop(): Promise<void>;
}

export class MirrorPull {
  constructor(
    private readonly ctx: EngineContext,
    private readonly files: MirrorFiles,
  ) {}

  async pull(run: Run): Promise<void> {
    const m = run.mirror;
    const startedAt = this.ctx.now();
    run.progress.phase = 'schema';
    run.report();
    // A table to walk whole whose id is known before the schema answers (one made available offline, or a
    // pull resumed) starts its walk with the schema's request, not a round trip and the schema's writing later.
    const pulledBefore = this.ctx.store.pulled(m.id);
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
        stop.abort();
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
      partitions: this.ctx.deps.partitions,
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
    const before = new Map(m.schema.map((t) => [t.id, new Set(t.fields.map((f) => f.id))]));
    const claimed = m.schema.length > 0;
    if (!claimed) {
      await this.refuseForeignBase(m);
      // The copy's base is this mirror's before it is made: a run that stops while it is made (killed, or the
      // local server's answer lost) leaves a partial mirror whose remove drops it, not a base of the local
      // server's own that the next pull would refuse to write over.
      m.schema = schema;
      this.ctx.store.saveMirror(m);
    }
    // Local changes in what the copy is about to lose are kept as conflicts first: a run killed after the copy
    // took the new schema could not find them again.
    const lost = claimed ? await leavingChanges(this.ctx, m, leavingFields(m.schema, schema)) : [];
    const listed = new Set(this.ctx.store.conflicts(m.id).map((c) => `${c.recordId} ${c.fieldId}`));
    const added = lost.filter((c) => !listed.has(`${c.recordId} ${c.fieldId}`));
    this.ctx.store.transaction(() => {
      for (const c of lost) this.ctx.store.putConflict(m.id, c, newConflictId);
    });
    run.result.schemaChanges.push(...lostSentences(lost));
    const applied = await this.ctx.local
      .applySchema(
        m.sourceBaseId,
        m.baseName,
        schema,
        new Set(
          schema.filter((t) => m.tableIds !== undefined && !m.tableIds.includes(t.id)).map((t) => t.id),
        ),
      )
      .catch((e: unknown) => {
        // A schema the copy refuses (a primary field of a type it cannot hold) changes nothing in it: the
        // changes kept for it are still the copy's, to be sent by the next sync, not conflicts (found by the
        // remote fuzzer, seeds 24 and 26: an edit of the primary field held as a conflict, never sent); and a
        // first pull's copy has no base, so the mirror claims none (a later run read its tables: a 404).
        if (e instanceof LocalRefusal) {
          this.ctx.store.transaction(() => {
            for (const c of added) this.ctx.store.dropConflict(m.id, c.recordId, c.fieldId);
          });
          if (!claimed) m.schema = [];
        }
        throw e;
      });
    const skipped = new Set(applied.skipped.map((f) => f.id));
    const kept = schema.map((t) => ({ ...t, fields: t.fields.filter((f) => !skipped.has(f.id)) }));
    if (claimed) run.result.schemaChanges.push(...schemaChanges(m.schema, kept));
    for (const f of applied.skipped)
      run.result.schemaChanges.push(
        f.type === 'multipleRecordLinks'
          ? `Field "${f.name}" is not copied: the field it links back to is not`
          : `Field "${f.name}" (${f.type}) is not copied: the local server has no such type`,
      );
    if (claimed) for (const [table, ids] of retyped(m.schema, kept)) await this.rebase(run, table, ids);
    for (const t of m.schema) if (!kept.some((k) => k.id === t.id)) this.ctx.store.forgetTable(m.id, t.id);
    if (m.tableIds) m.tableIds = m.tableIds.filter((id) => kept.some((t) => t.id === id));
    // No longer pulled in full, before the new schema is saved: a run that fails before the table is read
    // whole again leaves it to the next one (see refreshed below).
    const wasLeftOut = this.ctx.store.leftOut(m.id);
    for (const t of kept) {
      const had = before.get(t.id);
      // A field the copy no longer holds (deleted, or now of a type the local server lacks) leaves the base
      // too: else, copied again later, its cells would look cleared here and the push would clear them there.
      const now = new Set(t.fields.map((f) => f.id));
      for (const id of had ?? []) if (!now.has(id)) this.ctx.store.dropBaseCells(m.id, t.id, id);
      const filled = (f: FieldSchema) => READ_ONLY_FIELD_TYPES.has(f.type) || wasLeftOut.has(f.id);
      if (had && t.fields.some((f) => !had.has(f.id) && filled(f))) this.ctx.store.unmarkPulled(m.id, t.id);
    }
    this.ctx.store.setLeftOut(
      m.id,
      schema.flatMap((t) =>
        t.fields.filter((f) => skipped.has(f.id)).map((f) => ({ tableId: t.id, fieldId: f.id })),
      ),
    );
    m.schema = kept;
    this.ctx.store.saveMirror(m);

    // The early walk's table first: its pages are arriving already.
    const tables = mirroredTables(m).sort(
      (a, b) => Number(b.id === early?.tableId) - Number(a.id === early?.tableId),
    );
    const pulled = this.ctx.store.pulled(m.id);
    const cursor = m.cursor;
    // A table of the last schema not pulled in full since (one that gained a field) is swept and read whole.
    const refreshed = cursor === undefined ? [] : tables.filter((t) => pulled.has(t.id) || before.has(t.id));
    run.progress.tables = tables.length;
    // The deletions of both sides are known before any table is merged, since a link pair spans two: the
    // edges of a record deleted on either side are held until its own table settles it (see applyStaged).
    // Else a record of a table pulled first would take the other side's deletion as an edge removed (the
    // service's) or added (a link to it made by the other user), which a conflict over it has to hold.
    run.deleted = await this.deletedHere(m);
    for (const table of tables) await this.applyStaged(run, table);
    const gone = new Map<string, string[]>();
    const swept = new Map<string, { walked: Walked[]; placed: Map<string, number> }>();
    for (const table of refreshed) {
      const { ids, walked } = await this.sweep(run, table);
      gone.set(table.id, ids);
      for (const id of ids) run.deleted.add(id);
      // The copy's order before the refresh writes: the service's as the last pull left it.
      const before = await this.ctx.local.touched(m.sourceBaseId, table.id);
      swept.set(table.id, { walked, placed: new Map(before.ids.map((id, i) => [id, i])) });
    }
    for (const table of tables) {
      const remote = run.client.table(m.sourceBaseId, table.id);
      const deleted = gone.get(table.id);
      if (cursor !== undefined && deleted) {
        await this.refresh(run, table, remote, pulled.has(table.id) ? cursor : undefined, deleted);
        const { walked, placed } = swept.get(table.id)!;
        await this.placeInOrder(run, table, remote, walked, placed);
        this.ctx.store.markPulled(m.id, table.id);
      } else {
        await this.firstPull(run, table, remote, table.id === early?.tableId ? early.steps : undefined);
        this.ctx.store.markPulled(m.id, table.id);
      }
      run.progress.tablesDone++;
      run.report();
    }
    // Every table is now current as of `startedAt` (less what changed while it was read, which the overlap
    // of the next refresh covers).
    m.cursor = startedAt;
    this.ctx.store.saveMirror(m);
  }

  /**
   * The fields `ids` of a table, re-typed on the service: the copy took the new type with its cells converted
   * or cleared (as the service did), while the base still holds the old type's values, which a merge would
   * take for a change on one side. Their unsent changes are kept as conflicts already (leaving.ts), so the
   * base takes the copy's cells (the service's, for a record deleted here), and the table is read whole: each
   * record then takes the service's cell, and one edited after this is a change in the new type.
   */
  private async rebase(run: Run, table: TableSchema, ids: readonly string[]): Promise<void> {
    const m = run.mirror;
    const base = this.ctx.store.baseRecords(m.id, table.id);
    const copy = new Map((await this.ctx.local.records(m.sourceBaseId, table.id)).map((r) => [r.id, r]));
    const absent = [...base.keys()].filter((id) => !copy.has(id));
    const theirs = await readRemote(run, run.client.table(m.sourceBaseId, table.id), absent);
    this.ctx.store.transaction(() => {
      for (const [id, b] of base) {
        const from = copy.get(id) ?? theirs.get(id);
        let fields = b.fields;
        for (const f of ids) fields = withCell(fields, f, from?.fields[f]);
        this.ctx.store.setBase(m.id, table.id, { ...b, fields });
      }
      this.ctx.store.unmarkPulled(m.id, table.id);
    });
  }

  /**
   * The records deleted in the copy and not yet on the service (their base waits for the push): their edges
   * are held through the pull (links.ts), so a link the service made to one stays a change of that record,
   * which the push then meets as a conflict with its deletion.
   */
  private async deletedHere(m: MirrorRow): Promise<Set<string>> {
    const out = new Set<string>();
    for (const table of mirroredTables(m)) {
      const base = this.ctx.store.baseIds(m.id, table.id);
      if (base.size === 0) continue;
      const { ids } = await this.ctx.local.touched(m.sourceBaseId, table.id);
      for (const id of ids) base.delete(id);
      for (const id of base) out.add(id);
    }
    return out;
  }

  /** A base of the local server that is not this mirror's copy is never overwritten. */
  private async refuseForeignBase(m: MirrorRow): Promise<void> {
    if ((await this.ctx.local.baseIds()).includes(m.sourceBaseId))
      throw new ServiceError(
        'invalid-request',
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
    const walked: Walked[] = [];
    // The copy as it is, not taken for empty: a first pull resumed (one cancelled or failed after some pages)
    // finds those pages' records in the copy and the base, and a record the service changed meanwhile would
    // otherwise look deleted here: a conflict, its edges held out of the linked records' cells.
    const mine = new Map(
      (await this.ctx.local.records(run.mirror.sourceBaseId, table.id)).map((r) => [r.id, r]),
    );
    for await (const pages of steps) {
      tick(run, pages.length);
      const records = pages.flat();
      for (const r of records) {
        seen.add(r.id);
        walked.push({ id: r.id, createdTime: r.createdTime });
      }
      await this.applyRemote(run, table, records, mine);
    }
    // A pull resumed after a crash may hold records deleted on the service meanwhile.
    const gone = [...this.ctx.store.baseRecords(run.mirror.id, table.id).keys()].filter(
      (id) => !seen.has(id),
    );
    await this.applyDeletions(run, table, gone);
    await this.placeInOrder(run, table, remote, walked);
    await this.files.retryFiles(run, table, remote);
  }

  /** The copy's table in the service's order, as far as `walked` (a walk of it) shows it (see order.ts). */
  private async placeInOrder(
    run: Run,
    table: TableSchema,
    remote: TableClient,
    walked: readonly Walked[],
    placed?: ReadonlyMap<string, number>,
  ): Promise<void> {
    const order = await serviceOrder(run, remote, table.primaryFieldId, walked, placed);
    const { ids } = await this.ctx.local.touched(run.mirror.sourceBaseId, table.id);
    await placeInOrder(this.ctx.local, run.mirror.sourceBaseId, table.id, order, ids);
  }

  /**
   * The records of a table pulled before that the service no longer has: an id sweep (the primary field);
   * with the records it met, for the service's order.
   */
  private async sweep(run: Run, table: TableSchema): Promise<{ ids: string[]; walked: Walked[] }> {
    run.progress.phase = 'refresh';
    const seen = new Set<string>();
    const walked: Walked[] = [];
    for await (const page of walkPartitioned(run.client.table(run.mirror.sourceBaseId, table.id), {
      fields: [table.primaryFieldId],
      returnFieldsByFieldId: true,
      partitions: this.ctx.deps.partitions,
      signal: run.signal,
      priority: 'background',
    })) {
      tick(run);
      for (const r of page) {
        seen.add(r.id);
        walked.push({ id: r.id, createdTime: r.createdTime });
      }
    }
    const ids = [...this.ctx.store.baseIds(run.mirror.id, table.id)].filter((id) => !seen.has(id));
    return { ids, walked };
  }

  private async refresh(
    run: Run,
    table: TableSchema,
    remote: TableClient,
    cursor: number | undefined,
    gone: string[],
  ): Promise<void> {
    run.progress.phase = 'refresh';
    const since = cursor === undefined ? undefined : new Date(cursor - this.ctx.overlapMs).toISOString();
    const mine = new Map(
      (await this.ctx.local.records(run.mirror.sourceBaseId, table.id)).map((r) => [r.id, r]),
    );
    for await (const page of remote.pages({
      returnFieldsByFieldId: true,
      ...(since === undefined ? {} : { formula: `IS_AFTER(LAST_MODIFIED_TIME(), '${since}')` }),
      signal: run.signal,
      priority: 'background',
    })) {
      tick(run);
      await this.applyRemote(run, table, page, mine);
    }
    await this.reread(run, table, remote, mine);
    await this.applyDeletions(run, table, gone, mine);
    await this.files.retryFiles(run, table, remote, mine);
  }

  /**
   * Records this app restored (see MirrorEngine.resolve) read again, with the records they link, so the copy
   * takes the service's order of each cell they are in: the app could only put them back at a cell's end.
   */
  private async reread(run: Run, table: TableSchema, remote: TableClient, mine: Map<string, RecordData>) {
    const ids = this.ctx.store.rereads(run.mirror.id, table.id);
    if (ids.length === 0) return;
    const records = await readRemote(run, remote, ids);
    await this.applyRemote(run, table, [...records.values()], mine, false);
    this.ctx.store.dropRereads(run.mirror.id, ids);
  }

  /**
   * Remote records staged, merged into the copy, then the base moved and the stage cleared together; `count`:
   * the records the service changed count as received.
   */
  private async applyRemote(
    run: Run,
    table: TableSchema,
    records: RecordData[],
    mine: Map<string, RecordData>,
    count = true,
  ): Promise<void> {
    const m = run.mirror;
    checkRemoteRecords(table.name, records);
    const localForm = await this.files.withFiles(run, table, records);
    this.ctx.store.stage(
      m.id,
      table.id,
      localForm.map((r) => ({ id: r.id, record: r })),
    );
    await this.applyStaged(run, table, mine, count);
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
    this.ctx.store.stage(
      run.mirror.id,
      table.id,
      ids.map((id) => ({ id, record: null })),
    );
    await this.applyStaged(run, table, mine);
    run.result.deleted += ids.length;
  }

  /**
   * Applies whatever is staged for the table (this run's page, or what a killed run left). With `count`, counts
   * as received each staged record the service changed since the copy last saw it: a cell a person writes, or
   * a link, differs from the base, or the base of its links moved in this pull (the other end of a link another
   * user made, see MergeBase). A refresh reads again what changed within its overlap before the last sync, and
   * what this app sent since: those come back as the base has them, computed cells aside (they follow the
   * cells they are computed from, which this app's own writes changed too).
   */
  private async applyStaged(
    run: Run,
    table: TableSchema,
    mine?: Map<string, RecordData>,
    count = false,
  ): Promise<void> {
    const m = run.mirror;
    const staged = this.ctx.store.staged(m.id, table.id);
    if (staged.length === 0) return;
    const copy =
      mine ?? new Map((await this.ctx.local.records(m.sourceBaseId, table.id)).map((r) => [r.id, r]));
    const base = mergeBase(this.ctx, m, (id) => run.relinked.add(id));
    // The copy is written only where it is still as read: a record edited meanwhile is read again and merged
    // again; one still racing after a few rounds stays staged, for the next page or run.
    let left = staged;
    for (let round = 0; left.length > 0 && round < MERGE_ROUNDS; round++) {
      if (round > 0) {
        const fresh = new Map((await this.ctx.local.records(m.sourceBaseId, table.id)).map((r) => [r.id, r]));
        for (const s of left) {
          const r = fresh.get(s.id);
          if (r) copy.set(s.id, r);
          else copy.delete(s.id);
        }
      }
      // Each record's base read once a round (a round's commits move the base cells of the records they link).
      const bases = new Map(left.map((s) => [s.id, this.ctx.store.baseRecord(m.id, s.id)]));
      if (round === 0 && count) this.countReceived(run, table, staged, bases);
      const merged = this.merge(run, table, base, left, copy, bases);
      let skipped: Set<string>;
      try {
        skipped = await writeCopy(this.ctx, m, table, merged, copy);
      } catch (e) {
        if (e instanceof LocalRefusal) this.unstageUnwritten(run, table, left, e.taken);
        throw e;
      }
      this.ctx.store.transaction(() => {
        for (const x of merged) if (!skipped.has(x.id)) commitMerge(this.ctx, base, m, table, x.id, x.merged);
        this.ctx.store.unstage(
          m.id,
          left.filter((s) => !skipped.has(s.id)).map((s) => s.id),
        );
      });
      // Deleted on the service and now gone from the base too: deleted here as well, or deleted there over no
      // change here (not held by a conflict).
      const deletedThere = new Set(left.filter((s) => s.record === null).map((s) => s.id));
      const gone = merged
        .filter((x) => deletedThere.has(x.id) && x.merged.base === null && !skipped.has(x.id))
        .map((x) => x.id);
      if (gone.length > 0) await this.unlinkGone(run, table, base, gone, copy);
      left = left.filter((s) => skipped.has(s.id));
    }
  }

  /**
   * Records gone from the copy with this merge (deleted on the service, so gone from both sides), out of every
   * one-way link cell of the copy and the base, as the service took them out of its records' cells: the copy's
   * delete takes a record out of a pair's cells only, and no merge does it for a record the service did not
   * change (not pulled), or one a "deleted there" conflict holds (not merged until the user decides). Else the
   * copy keeps an id of nothing, which the push holds back for good as a link to a record not yet made, and
   * "keep mine" would send; and the base keeps it, so a record whose cell the copy changed too would conflict
   * with the service over a link neither side has.
   */
  private async unlinkGone(
    run: Run,
    table: TableSchema,
    base: MergeBase,
    gone: string[],
    copy: Map<string, RecordData>,
  ): Promise<void> {
    const cut = this.ctx.store.transaction(() =>
      unlinkFromBase(this.ctx, base, run.mirror, table, new Set(gone)),
    );
    if (!cut) return;
    const puts = [...copy.values()].flatMap((r) => {
      const fields = cut(r);
      return fields === r.fields ? [] : [{ ...r, fields }];
    });
    // One edited since it was read keeps the edit (the push compares it with the base).
    const skipped = await this.ctx.local.put(run.mirror.sourceBaseId, table.id, puts, copy);
    for (const r of puts) if (!skipped.has(r.id)) copy.set(r.id, r);
    // A record a "deleted there" conflict holds shows the copy's side as it now is: the user did not edit it
    // since the list, so "take theirs" is not refused as if they had.
    this.ctx.store.transaction(() => {
      for (const r of puts) {
        if (skipped.has(r.id)) continue;
        for (const c of this.ctx.store.conflicts(run.mirror.id, r.id))
          if (c.kind === 'deleted-remote' && c.mine)
            this.ctx.store.putConflict(
              run.mirror.id,
              { ...c, mine: cut({ ...r, fields: c.mine as Record<string, unknown> }) },
              newConflictId,
            );
      }
    });
  }

  /** The staged records the service changed since the copy last saw them (see applyStaged). */
  private countReceived(
    run: Run,
    table: TableSchema,
    staged: StagedRecord[],
    bases: ReadonlyMap<string, RecordData | undefined>,
  ): void {
    const fields = writableFields(table);
    for (const s of staged) {
      const was = bases.get(s.id);
      if (
        s.record !== null &&
        (was === undefined || !unchanged(fields, was, s.record) || run.relinked.has(s.id))
      )
        run.result.received++;
    }
  }

  /** Staged records merged over their base (`bases`, by id) and the copy as `copy` has it. */
  private merge(
    run: Run,
    table: TableSchema,
    base: MergeBase,
    staged: StagedRecord[],
    copy: Map<string, RecordData>,
    bases: ReadonlyMap<string, RecordData | undefined>,
  ): MergedRecord[] {
    const m = run.mirror;
    const held = heldByConflicts(this.ctx, m);
    // Deleted on one side, unless its table's merge has since settled it (its base is gone with its edges).
    for (const id of run.deleted) if (this.ctx.store.baseRecord(m.id, id)) held.add(id);
    const sides = staged.map((s) => ({
      id: s.id,
      base: bases.get(s.id),
      mine: copy.get(s.id),
      theirs: s.record,
    }));
    const deletedThere = deletedHeldByConflicts(this.ctx, m, 'deleted-remote');
    // One the service deleted that this table's copy still has, changed here: a conflict, whatever page it is in
    // (a one-way link is to a record of its own table, a link to another table having a field back).
    for (const id of run.deleted) {
      const was = this.ctx.store.baseRecord(m.id, id);
      const mine = copy.get(id);
      if (
        was &&
        mine &&
        wholeRecord(table, base.pairs, was, mine, null, run.standing.get(id)) === 'deleted-remote'
      )
        deletedThere.add(id);
    }
    for (const x of sides) {
      const whole = wholeRecord(table, base.pairs, x.base, x.mine, x.theirs, run.standing.get(x.id));
      if (whole === 'deleted-remote' || whole === 'deleted-local') held.add(x.id);
      if (whole === 'deleted-remote') deletedThere.add(x.id);
    }
    const open = openCells(this.ctx, m);
    return sides.map((x) => ({
      id: x.id,
      merged: mergeRecord(table, base.pairs, x.base, x.mine, x.theirs, {
        held: (id) => held.has(id),
        open: open(x.id),
        // A record deleted here is held out of one-way link cells too (the push settles it: see mergeRecord).
        deletedHeld: (id) => held.has(id),
        deletedThere: (id) => deletedThere.has(id),
        standing: run.standing.get(x.id),
      }),
    }));
  }

  /**
   * After the copy refused staged records (what the service sent and the copy cannot hold), those it did not
   * take leave the stage, so the next run does not meet them again (a record already in the copy, from an
   * earlier pull, included: it stays as that pull left it, and the next refresh reads it again); those it
   * took stay, to be finished then.
   */
  private unstageUnwritten(
    run: Run,
    table: TableSchema,
    staged: { id: string; record: RecordData | null }[],
    taken: ReadonlySet<string>,
  ): void {
    this.ctx.store.unstage(
      run.mirror.id,
      staged.filter((s) => s.record !== null && !taken.has(s.id)).map((s) => s.id),
    );
  }
}
