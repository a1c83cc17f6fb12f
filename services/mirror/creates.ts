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
import { chunks, linkPair, tick } from './run';
import type { MirrorRow } from './store';
import { sameCell, writableFields } from './values';

const BATCH = 10;

/** The other side of a link pair whose side pushes do not send (see createFields). */
interface OtherSide {
  inverseId: string;
  records: Map<string, RecordData>;
}

export class MirrorCreates {
  constructor(private readonly ctx: EngineContext) {}

  /**
   * Links to records made here and not yet sent are left out (the service would refuse their ids); the
   * push's second pass sends them, once those records have the service's ids.
   */
  knownLinks(run: Run, field: FieldSchema, v: unknown): unknown {
    if (field.type !== 'multipleRecordLinks' || !Array.isArray(v)) return v;
    const known = (v as string[]).filter((id) => this.ctx.store.baseRecord(run.mirror.id, id) !== undefined);
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
        records = new Map((await this.ctx.local.records(m.sourceBaseId, pair.tableId)).map((x) => [x.id, x]));
        read.set(pair.tableId, records);
      }
      out.set(f.id, { inverseId: pair.inverseId, records });
    }
    return out;
  }

  async sendCreates(run: Run, table: TableSchema, remote: TableClient, created: RecordData[]): Promise<void> {
    const m = run.mirror;
    const others = created.length > 0 ? await this.linkedCopies(m, table) : new Map();
    for (const batch of chunks(created, BATCH)) {
      const list = batch.map((r) => ({
        tableId: table.id,
        localId: r.id,
        fields: this.createFields(run, table, r, others),
      }));
      this.ctx.store.noteCreates(m.id, list, Date.now());
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
    this.ctx.store.createdAs(m.id, localId, r, table.id);
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
      const since = Math.min(...unknown.map((c) => c.sentAt ?? Date.now())) - this.ctx.overlapMs;
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
            writableFields(table, m.schema).every(
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
