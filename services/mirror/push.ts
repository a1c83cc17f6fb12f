/**
 * The push of a mirror: the copy is compared with the merge base; the records changed, created or deleted here
 * are read from the service (100 ids a request), merged per cell (merge.ts), and sent: PATCH batches of 10
 * through the base's throttle, deletes only where the service's record is still the base, creates noted
 * before they are sent (creates.ts). After an answer the base moves to what the service answered. A run killed
 * during a push resends PATCHes (the next read finds the cells already equal: no conflict, nothing lost).
 */
import type { TableClient } from '../../core/api/index';
import type { FieldSchema, RecordData, TableSchema } from '../../core/records/types';
import {
  MERGE_ROUNDS,
  commitMerge,
  deletedHeldByConflicts,
  heldByConflicts,
  mergeBase,
  openCells,
  unlinkFromBase,
  writeCopy,
} from './apply';
import type { MergedRecord } from './apply';
import type { LocalChanges, Unsent } from './change-count';
import type { MirrorCreates } from './creates';
import type { MirrorFiles } from './files';
import { cellOf } from './files';
import { linkIds, weave } from './links';
import type { LinkCell, MergeBase } from './links';
import { mergeRecord, unchanged, wholeRecord } from './merge';
import { readRemote } from './remote-read';
import type { CopyFile, EngineContext, Run } from './run';
import { chunks, mirroredTables, tick } from './run';
import type { MirrorRow } from './store';
import { sameCell, wireValue, withCell, writableFields } from './values';

const BATCH = 10;
const REQUESTS_PER_SECOND = 5;

export class MirrorPush {
  constructor(
    private readonly ctx: EngineContext,
    private readonly files: MirrorFiles,
    private readonly creates: MirrorCreates,
  ) {}

  /** The fields a push compares, and the records made here that are not local creates to send. */
  unsent(m: MirrorRow, table: TableSchema): Unsent {
    return {
      fields: writableFields(table),
      pending: new Set(this.ctx.store.creates(m.id).map((c) => c.localId)),
      staged: new Set(this.ctx.store.staged(m.id, table.id).map((s) => s.id)),
    };
  }

  async localChanges(
    m: MirrorRow,
    table: TableSchema,
  ): Promise<LocalChanges & { copy: Map<string, RecordData> }> {
    const copy = new Map((await this.ctx.local.records(m.sourceBaseId, table.id)).map((r) => [r.id, r]));
    const base = this.ctx.store.baseRecords(m.id, table.id);
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

  async push(run: Run): Promise<void> {
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

  /**
   * Pushes every table once; true when a record created had files left to send. The tables are merged
   * together, since a link pair spans two of them: the records' sides are read first, then every record is
   * merged knowing which edges are held (links.ts), then the copy and the base are written and the changes
   * sent: updates, then deletes (edges to a record deleted there go with it), then creates.
   */
  private async pushTables(run: Run): Promise<boolean> {
    const m = run.mirror;
    const base = mergeBase(this.ctx, m);
    const work: TableWork[] = [];
    const known = new Set<string>();
    for (const table of mirroredTables(m)) {
      const remote = run.client.table(m.sourceBaseId, table.id);
      const { copy, changed, created, deleted } = await this.localChanges(m, table);
      const ids = [...changed, ...deleted, ...this.conflictedAtBase(m, table, copy, changed)];
      const theirs = await readRemote(run, remote, ids);
      await this.files.sendFiles(run, table, changed, copy, theirs);
      for (const id of this.ctx.store.baseIds(m.id, table.id)) known.add(id);
      work.push({ table, remote, copy, created, ids, theirs, merged: [] });
    }
    const held = heldByConflicts(this.ctx, m);
    const deletedHeld = deletedHeldByConflicts(this.ctx, m, 'deleted-local');
    const deletedThere = deletedHeldByConflicts(this.ctx, m, 'deleted-remote');
    for (const w of work)
      for (const id of w.ids) {
        const whole = wholeRecord(
          w.table,
          base.pairs,
          this.baseOf(m, id),
          w.copy.get(id) ?? null,
          w.theirs.get(id) ?? null,
          run.standing.get(id),
        );
        if (whole) held.add(id);
        if (whole === 'deleted-local') deletedHeld.add(id);
        if (whole === 'deleted-remote') deletedThere.add(id);
      }
    const isHeld = (id: string) => {
      if (known.has(id)) return held.has(id);
      // A record made here: its links go with its create, or with the next pass.
      run.linksLeftOut = true;
      return true;
    };
    const open = openCells(this.ctx, m);
    for (const w of work)
      w.merged = w.ids.map((id) => ({
        id,
        merged: mergeRecord(
          w.table,
          base.pairs,
          this.baseOf(m, id),
          w.copy.get(id) ?? null,
          w.theirs.get(id) ?? null,
          {
            held: isHeld,
            open: open(id),
            deletedHeld: (x) => deletedHeld.has(x),
            deletedThere: (x) => deletedThere.has(x),
            standing: run.standing.get(id),
          },
        ),
      }));
    const patched = planLinks(work);
    // Written only where the copy is still as read: a record edited there since (through its own Web API) keeps
    // the edit, and its merge is void (neither committed nor sent); the next pass or sync compares it again.
    const edited = new Set<string>();
    for (const w of work)
      for (const id of await writeCopy(this.ctx, m, w.table, w.merged, w.copy)) edited.add(id);
    if (edited.size > 0) for (const w of work) w.merged = w.merged.filter((x) => !edited.has(x.id));
    this.ctx.store.transaction(() => {
      for (const w of work) for (const x of w.merged) commitMerge(this.ctx, base, m, w.table, x.id, x.merged);
    });
    for (const w of work) await this.sendUpdates(run, w, patched, base, deletedHeld, deletedThere);
    for (const w of work) await this.sendDeletes(run, w, base);
    let files = false;
    for (const w of work) {
      await this.creates.sendCreates(run, w.table, w.remote, w.created);
      const attachments = w.table.fields.filter((f) => f.type === 'multipleAttachments');
      files ||= w.created.some((r) => attachments.some((f) => cellOf(r, f).length > 0));
    }
    return files;
  }

  /**
   * Records in the copy with a cell in an open conflict that are not changed here (a cell typed back to its
   * base): merged all the same, so the conflict is listed with the copy's value and stays one (see mergeRecord).
   */
  private conflictedAtBase(
    m: MirrorRow,
    table: TableSchema,
    copy: ReadonlyMap<string, RecordData>,
    changed: readonly string[],
  ): string[] {
    const listed = new Set(changed);
    const ids = this.ctx.store
      .conflicts(m.id)
      .filter((c) => c.kind === 'cell' && !c.gone && c.tableId === table.id && copy.has(c.recordId))
      .map((c) => c.recordId);
    return [...new Set(ids)].filter((id) => !listed.has(id));
  }

  private baseOf(m: MirrorRow, id: string): RecordData | undefined {
    return this.ctx.store.baseRecord(m.id, id);
  }

  private async sendUpdates(
    run: Run,
    w: TableWork,
    patched: Patched,
    base: MergeBase,
    deletedHeld: ReadonlySet<string>,
    deletedThere: ReadonlySet<string>,
  ): Promise<void> {
    const { table, remote, copy } = w;
    const byId = new Map(table.fields.map((f) => [f.id, f]));
    const merged = new Map(w.merged.map((x) => [x.id, x.merged]));
    // A link cell (not of a pair) naming records not yet sent is held back whole: sent without them, it would
    // unlink them on the service. It keeps its base and the copy's value, like a conflict's cell, for the
    // second pass.
    const waiting = new Map<string, string[]>();
    const updates = w.merged
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
            waiting.set(x.id, [...(waiting.get(x.id) ?? []), fid]);
          else fields[fid] = wireValue(field, known);
        }
        for (const fid of patched.get(x.id) ?? [])
          fields[fid] = wireValue(byId.get(fid)!, x.merged.links.get(fid)!.service);
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
        const fixed = await this.files.withFiles(run, table, answered);
        // The base moves to the service's answer, except cells in conflict (their base stays until the user
        // decides); the copy takes the answer too (a value the service normalised, formulas it computed).
        const rewrite: RecordData[] = [];
        this.ctx.store.transaction(() => {
          for (const r of fixed) {
            const conflicted = [
              ...this.ctx.store.conflicts(run.mirror.id, r.id).map((c) => c.fieldId),
              ...(waiting.get(r.id) ?? []),
            ];
            const old = this.baseOf(run.mirror, r.id);
            const next = { ...r, fields: { ...r.fields } };
            const l = copy.get(r.id);
            const mine = { ...r, fields: { ...r.fields } };
            const keep = (fid: string, b: unknown, c: unknown) => {
              next.fields = withCell(next.fields, fid, b);
              mine.fields = withCell(mine.fields, fid, c);
            };
            for (const fid of conflicted) keep(fid, old?.fields[fid], l?.fields[fid]);
            for (const f of table.fields) {
              if (base.pairs.has(f)) {
                // A pair cell sent: the answer, its held edges as the base and the copy hold them. One not
                // sent: as it is, since the links others' writes make in it reach it by MergeBase's upkeep.
                const cell = merged.get(r.id)?.links.get(f.id);
                if (cell && patched.get(r.id)?.has(f.id)) {
                  const answer = linkIds(r, f.id);
                  keep(
                    f.id,
                    listOrNone(heldAs(answer, cell, cell.base)),
                    listOrNone(heldAs(answer, cell, cell.copy)),
                  );
                } else keep(f.id, old?.fields[f.id], l?.fields[f.id]);
              } else if (
                f.type === 'multipleRecordLinks' &&
                linkIds(r, f.id).some((id) => deletedHeld.has(id))
              ) {
                // A one-way link to a record deleted here in a conflict: the service keeps it, and the base; the
                // copy, which has not the record, does not (see mergeRecord's deletedHeld).
                const ids = linkIds(r, f.id).filter((id) => !deletedHeld.has(id));
                mine.fields = withCell(mine.fields, f.id, listOrNone(ids));
              } else if (
                l !== undefined &&
                f.type === 'multipleAttachments' &&
                cellOf(l, f).some((a) => run.unsentFiles.has(a.id))
              )
                // Files not sent stay in the copy (the answer has none of them).
                mine.fields = withCell(mine.fields, f.id, l.fields[f.id]);
              if (f.type === 'multipleRecordLinks' && !base.pairs.has(f)) {
                // A one-way link to a record the service deleted in a conflict: the answer has it not, the base
                // and the copy keep it where they had it until the user decides (see mergeRecord's deletedThere).
                // Only those `to` lacks: a cell held back (waiting) is the copy's already, and has them.
                const back = (to: RecordData, from: RecordData | undefined) => {
                  const had = from ? linkIds(from, f.id) : [];
                  const now = linkIds(to, f.id);
                  const cut = had.filter((id) => deletedThere.has(id) && !now.includes(id));
                  return cut.length > 0 ? withCell(to.fields, f.id, weave(now, cut, had)) : to.fields;
                };
                next.fields = back(next, old);
                mine.fields = back(mine, l);
              }
            }
            base.set(table.id, next);
            if (l && table.fields.some((f) => !sameCell(f, l.fields[f.id], mine.fields[f.id])))
              rewrite.push(mine);
          }
        });
        for (const c of batch) run.result.sent += Object.keys(c.fields).length > 0 ? 1 : 0;
        await this.rewriteCopy(run, table, rewrite, copy);
      }),
    );
  }

  /**
   * The copy takes the service's answers where it is still as the push read it: a record edited in the copy
   * meanwhile is read again and takes the answer only in the cells not edited since (at most MERGE_ROUNDS
   * rounds; one still racing keeps the copy's cells, which the next sync compares with the new base).
   */
  private async rewriteCopy(
    run: Run,
    table: TableSchema,
    answers: RecordData[],
    copy: Map<string, RecordData>,
  ): Promise<void> {
    const baseId = run.mirror.sourceBaseId;
    let left = answers;
    for (let round = 0; left.length > 0 && round < MERGE_ROUNDS; round++) {
      const skipped = await this.ctx.local.put(baseId, table.id, left, copy);
      for (const r of left) if (!skipped.has(r.id)) copy.set(r.id, r);
      if (skipped.size === 0) return;
      const fresh = new Map((await this.ctx.local.records(baseId, table.id)).map((r) => [r.id, r]));
      left = left.flatMap((answer) => {
        const read = copy.get(answer.id);
        const now = fresh.get(answer.id);
        // Deleted in the copy meanwhile: the next sync deletes it there.
        if (!skipped.has(answer.id) || !read || !now) return [];
        copy.set(answer.id, now);
        let fields = now.fields;
        for (const f of table.fields)
          if (sameCell(f, now.fields[f.id], read.fields[f.id]))
            fields = withCell(fields, f.id, answer.fields[f.id]);
        return [{ ...now, fields }];
      });
    }
  }

  private async sendDeletes(run: Run, w: TableWork, base: MergeBase): Promise<void> {
    const ids = w.merged.filter((x) => x.merged.deleteRemote).map((x) => x.id);
    await Promise.all(
      chunks(ids, BATCH).map(async (batch) => {
        await w.remote.deleteMany(batch, { signal: run.signal });
        tick(run);
        this.ctx.store.transaction(() => {
          for (const id of batch) base.drop(id);
        });
        run.result.sent += batch.length;
      }),
    );
    await this.unlinkDeleted(run, w, base, new Set(ids));
  }

  /**
   * Records this push deleted on the service, out of the one-way link cells of the base and the copy, as the
   * service took them out of its records' cells: the base's drop takes a record out of a pair's cells only,
   * and an update's answer read before the delete may have put one in the copy (a link another user made to a
   * record deleted here).
   */
  private async unlinkDeleted(
    run: Run,
    w: TableWork,
    base: MergeBase,
    gone: ReadonlySet<string>,
  ): Promise<void> {
    const cut = this.ctx.store.transaction(() => unlinkFromBase(this.ctx, base, run.mirror, w.table, gone));
    if (!cut) return;
    const rewrite = [...w.copy.values()].flatMap((r) => {
      const fields = cut(r);
      return fields === r.fields ? [] : [{ ...r, fields }];
    });
    await this.rewriteCopy(run, w.table, rewrite, w.copy);
  }

  /** What the service can take of a cell: links it knows (knownLinks), files it has (not unsent ones). */
  private known(run: Run, field: FieldSchema, v: unknown): unknown {
    if (field.type === 'multipleAttachments' && Array.isArray(v))
      return (v as CopyFile[]).filter((a) => !run.unsentFiles.has(a.id));
    return this.creates.knownLinks(run, field, v);
  }
}

/** A table's part of a push. */
interface TableWork {
  table: TableSchema;
  remote: TableClient;
  /** The copy's records (kept as the push writes them). */
  copy: Map<string, RecordData>;
  created: RecordData[];
  /** Records changed or deleted here, read from the service (`theirs`) and merged. */
  ids: string[];
  theirs: Map<string, RecordData>;
  merged: MergedRecord[];
}

/** By record id, the pair cells a push writes on the service. */
type Patched = Map<string, Set<string>>;

/**
 * Which pair cells a push writes: each whose merged list is not the service's, so both cells of every edge
 * changed here. A written cell is exact whatever order the writes take (the edges of all of them agree), and
 * its answer carries what the service computes from it (a count of its links), where a cell changed only by
 * the other side's write would keep the order that write gave it and an answer computed before it.
 */
function planLinks(work: readonly TableWork[]): Patched {
  const patched: Patched = new Map();
  for (const w of work)
    for (const x of w.merged)
      for (const [fieldId, cell] of x.merged.links)
        if (cell.service.join() !== cell.theirs.join())
          patched.set(x.id, (patched.get(x.id) ?? new Set()).add(fieldId));
  return patched;
}

/** A cell's links as the service answered, its held edges (links.ts) as `target` holds them. */
function heldAs(answer: readonly string[], cell: LinkCell, target: readonly string[]): string[] {
  const inTarget = new Set(target);
  const kept = answer.filter((id) => !cell.held.has(id) || inTarget.has(id));
  const have = new Set(kept);
  return weave(
    kept,
    target.filter((id) => cell.held.has(id) && !have.has(id)),
    target,
  );
}

const listOrNone = (ids: string[]) => (ids.length > 0 ? ids : undefined);
