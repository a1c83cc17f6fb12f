/**
 * The push of a mirror: the copy is compared with the merge base; the records changed, created or deleted here
 * are read from the service (100 ids a request), merged per cell (merge.ts), and sent: PATCH batches of 10
 * through the base's throttle, deletes only where the service's record is still the base, creates noted
 * before they are sent (creates.ts). After an answer the base moves to what the service answered. A run killed
 * during a push resends PATCHes (the next read finds the cells already equal: no conflict, nothing lost).
 */
import type { TableClient } from '../../core/api/index';
import type { FieldSchema, RecordData, TableSchema } from '../../core/records/types';
import { commitMerge, writeCopy } from './apply';
import type { LocalChanges, Unsent } from './change-count';
import type { MirrorCreates } from './creates';
import type { MirrorFiles } from './files';
import { cellOf } from './files';
import { mergeRecord, unchanged } from './merge';
import type { Merged } from './merge';
import { readRemote } from './remote-read';
import type { CopyFile, EngineContext, Run } from './run';
import { chunks, mirroredTables, tick, withCell } from './run';
import type { MirrorRow } from './store';
import { sameCell, wireValue, writableFields } from './values';

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
      fields: writableFields(table, m.schema),
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

  /** Pushes every table once; true when a record created had files left to send. */
  private async pushTables(run: Run): Promise<boolean> {
    const m = run.mirror;
    let files = false;
    for (const table of mirroredTables(m)) {
      const remote = run.client.table(m.sourceBaseId, table.id);
      const { copy, changed, created, deleted } = await this.localChanges(m, table);
      const ids = [...changed, ...deleted];
      const theirs = await readRemote(run, remote, ids);
      await this.files.sendFiles(run, table, changed, copy, theirs);
      const merged = ids.map((id) => ({
        id,
        merged: mergeRecord(
          table,
          m.schema,
          this.ctx.store.baseRecord(m.id, id),
          copy.get(id) ?? null,
          theirs.get(id) ?? null,
        ),
      }));
      await writeCopy(this.ctx, m, table, merged, copy);
      this.ctx.store.transaction(() => {
        for (const x of merged) commitMerge(this.ctx, m, table, x.id, x.merged);
      });
      await this.sendUpdates(run, table, remote, merged, copy);
      await this.sendDeletes(run, table, remote, merged);
      await this.creates.sendCreates(run, table, remote, created);
      const attachments = table.fields.filter((f) => f.type === 'multipleAttachments');
      files ||= created.some((r) => attachments.some((f) => cellOf(r, f).length > 0));
    }
    return files;
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
        const fixed = await this.files.withFiles(run, table, answered);
        // The base moves to the service's answer, except cells in conflict (their base stays until the user
        // decides); the copy takes the answer too (a value the service normalised, formulas it computed).
        const rewrite: RecordData[] = [];
        this.ctx.store.transaction(() => {
          for (const r of fixed) {
            const conflicted = [
              ...this.ctx.store.conflicts(run.mirror.id, r.id).map((c) => c.fieldId),
              ...(held.get(r.id) ?? []),
            ];
            const old = this.ctx.store.baseRecord(run.mirror.id, r.id);
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
            this.ctx.store.setBase(run.mirror.id, table.id, base);
            if (l && table.fields.some((f) => !sameCell(f, l.fields[f.id], mine.fields[f.id])))
              rewrite.push(mine);
          }
        });
        for (const c of batch) run.result.sent += Object.keys(c.fields).length > 0 ? 1 : 0;
        if (rewrite.length > 0) await this.ctx.local.put(run.mirror.sourceBaseId, table.id, rewrite);
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
        this.ctx.store.transaction(() => {
          for (const id of batch) this.ctx.store.dropBase(run.mirror.id, id);
        });
        run.result.sent += batch.length;
      }),
    );
  }

  /** What the service can take of a cell: links it knows (knownLinks), files it has (not unsent ones). */
  private known(run: Run, field: FieldSchema, v: unknown): unknown {
    if (field.type === 'multipleAttachments' && Array.isArray(v))
      return (v as CopyFile[]).filter((a) => !run.unsentFiles.has(a.id));
    return this.creates.knownLinks(run, field, v);
  }
}
