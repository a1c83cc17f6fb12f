/**
 * Records made in the copy, sent to the service: noted before they are sent, so a create is never sent twice
 * on a guess; a create whose answer was lost is looked for on the service among the records created since it
 * was sent, by its values, and adopted when found; only when the service provably has no such record is it
 * sent again. Links to records made here and not yet sent wait for a second pass of the push.
 */
import type { TableClient } from '../../core/api/index';
import { READ_ONLY_FIELD_TYPES } from '../../core/records/types';
import type { FieldSchema, RecordData, TableSchema } from '../../core/records/types';
import type { EngineContext, Run } from './run';
import { mergeBase } from './apply';
import { chunks, mirroredTables, tick } from './run';
import type { MirrorRow } from './store';
import { sameCell, writableFields } from './values';

const BATCH = 10;

export class MirrorCreates {
  constructor(private readonly ctx: EngineContext) {}

  /**
   * Links to records the service does not have are left out (it would refuse their ids): records made here
   * and not yet sent, which the push's second pass links once they have the service's ids, and records the
   * service deleted that a conflict keeps here. Links into a table the copy leaves out go as they are: only
   * the service holds those records.
   */
  knownLinks(run: Run, field: FieldSchema, v: unknown): unknown {
    if (field.type !== 'multipleRecordLinks' || !Array.isArray(v)) return v;
    if (!mirroredTables(run.mirror).some((t) => t.id === field.options?.linkedTableId)) return v;
    const gone = new Set(
      this.ctx.store
        .conflicts(run.mirror.id)
        .filter((c) => c.kind === 'deleted-remote')
        .map((c) => c.recordId),
    );
    const known = (v as string[]).filter(
      (id) => !gone.has(id) && this.ctx.store.baseRecord(run.mirror.id, id) !== undefined,
    );
    if (known.length < v.length) run.linksLeftOut = true;
    return known;
  }

  /**
   * The cells of a record made here that the service can take: not computed, no files, links it knows. Both
   * sides of a link pair go: the service puts the new record at the end of each linked record's cell, and the
   * push's next pass puts it where the copy has it, if elsewhere (links.ts).
   */
  private createFields(run: Run, table: TableSchema, r: RecordData): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const f of table.fields) {
      const v = r.fields[f.id];
      if (v === undefined || f.type === 'multipleAttachments' || READ_ONLY_FIELD_TYPES.has(f.type)) continue;
      const known = this.knownLinks(run, f, v);
      if (!Array.isArray(known) || known.length > 0) out[f.id] = known;
    }
    return out;
  }

  async sendCreates(run: Run, table: TableSchema, remote: TableClient, created: RecordData[]): Promise<void> {
    const m = run.mirror;
    for (const batch of chunks(created, BATCH)) {
      const list = batch.map((r) => ({
        tableId: table.id,
        localId: r.id,
        fields: this.createFields(run, table, r),
      }));
      this.ctx.store.noteCreates(m.id, list, this.ctx.now());
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
    const base = mergeBase(this.ctx, m);
    this.ctx.store.transaction(() => {
      this.ctx.store.createdAs(m.id, localId, r.id);
      base.set(table.id, r);
    });
    await this.ctx.local.rename(m.sourceBaseId, table.id, localId, r);
    this.ctx.store.dropCreate(m.id, localId);
  }

  /**
   * Creates a killed run left: answered ones get their rename finished; unanswered ones are looked for on
   * the service by their values among the records created since they were sent, and adopted when found.
   * One not found was never made, and becomes a local create again.
   */
  async finishCreates(run: Run): Promise<void> {
    const m = run.mirror;
    const pending = this.ctx.store.creates(m.id);
    for (const table of m.schema) {
      const mine = pending.filter((c) => c.tableId === table.id);
      if (mine.length === 0) continue;
      const remote = run.client.table(m.sourceBaseId, table.id);
      const unknown = mine.filter((c) => c.remoteId === undefined);
      const since = Math.min(...unknown.map((c) => c.sentAt ?? this.ctx.now())) - this.ctx.overlapMs;
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
          const made = this.ctx.store.baseRecord(m.id, c.remoteId);
          if (made) await this.ctx.local.rename(m.sourceBaseId, table.id, c.localId, made);
          this.ctx.store.dropCreate(m.id, c.localId);
          continue;
        }
        const match = candidates.find(
          (r) =>
            !taken.has(r.id) &&
            this.ctx.store.baseRecord(m.id, r.id) === undefined &&
            writableFields(table).every(
              (f) => f.type === 'multipleAttachments' || sameCell(f, r.fields[f.id], c.fields[f.id]),
            ),
        );
        if (match) {
          taken.add(match.id);
          await this.adoptCreate(m, table, c.localId, match);
        } else this.ctx.store.dropCreate(m.id, c.localId);
      }
    }
  }
}
