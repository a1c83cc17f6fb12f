/**
 * A link pair is one relation. A link field and the field of the linked table that links back (both in the
 * mirror) are two views of one set of (record, record) edges, and each of the two cells of an edge keeps an
 * order of its own. The copy (the local server keeps both sides in step), the merge base (MergeBase, here) and
 * the service all hold such a relation whole, so a merge compares edges, not cells:
 *
 * - an edge added or removed on one side only is that side's change; added or removed on both, the same
 *   change: edges never conflict with each other;
 * - an edge touching a record held by a conflict (deleted on one side, changed on the other), a record the
 *   service does not know yet (made here), or in a pull a record deleted here (whether that is a conflict is
 *   the push's to find, and an edge the service added to it is what makes it one), keeps its state on each
 *   side: the copy keeps mine, the service keeps theirs and the base keeps the base, until the conflict is
 *   decided or the record is sent;
 * - a cell's order is mine where I reordered it (or put a link anywhere but at the end), else the service's,
 *   with the links only one side has put where that side put them.
 */
import type { FieldSchema, RecordData, TableSchema } from '../../core/records/types';
import type { MirrorStore } from './store';
import { withCell } from './values';

/** A link field's linked table and the field there that links back, if it has one. */
function linkPair(f: FieldSchema): { tableId: string; inverseId: string } | undefined {
  const tableId = f.options?.['linkedTableId'];
  const inverseId = f.options?.['inverseLinkFieldId'];
  return f.type === 'multipleRecordLinks' && typeof tableId === 'string' && typeof inverseId === 'string'
    ? { tableId, inverseId }
    : undefined;
}

/** One field of a pair, seen from its table. */
export interface PairSide {
  tableId: string;
  fieldId: string;
  otherTableId: string;
  otherFieldId: string;
}

/** The link pairs of a mirror's tables: a pair needs both of its fields, and so both tables, in the mirror. */
export class LinkPairs {
  private readonly byField = new Map<string, PairSide>();

  constructor(tables: readonly TableSchema[]) {
    const fields = new Map(
      tables.flatMap((t) => t.fields.map((f) => [f.id, { table: t, field: f }] as const)),
    );
    for (const t of tables)
      for (const f of t.fields) {
        const pair = linkPair(f);
        const other = pair && fields.get(pair.inverseId);
        if (!pair || !other || other.table.id !== pair.tableId || other.field.id === f.id) continue;
        if (linkPair(other.field)?.inverseId !== f.id) continue;
        this.byField.set(f.id, {
          tableId: t.id,
          fieldId: f.id,
          otherTableId: other.table.id,
          otherFieldId: other.field.id,
        });
      }
  }

  of(fieldId: string): PairSide | undefined {
    return this.byField.get(fieldId);
  }

  /** The pair sides of a table's fields. */
  sidesOf(table: TableSchema): PairSide[] {
    return table.fields.flatMap((f) => this.byField.get(f.id) ?? []);
  }

  has(field: FieldSchema): boolean {
    return this.byField.has(field.id);
  }
}

/** A link cell's ids (anything else is no link). */
export const linkIds = (r: RecordData | null | undefined, fieldId: string): string[] => {
  const v = r?.fields[fieldId];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
};

/** The link fields of `table` to the table `to` with no field back in `pairs` (a self-link among them). */
export function oneWayLinksTo(table: TableSchema, to: string, pairs: LinkPairs): FieldSchema[] {
  return table.fields.filter(
    (f) => f.type === 'multipleRecordLinks' && !pairs.has(f) && f.options?.['linkedTableId'] === to,
  );
}

/**
 * `r`'s cells with the ids in `gone` taken out of its `fields` link cells (the same object when none held
 * one, so a caller writes only what changed); an emptied cell is left out.
 */
export function withoutLinks(
  r: RecordData,
  fields: readonly FieldSchema[],
  gone: (id: string) => boolean,
): Record<string, unknown> {
  let out = r.fields;
  for (const f of fields) {
    const ids = linkIds(r, f.id);
    if (ids.some(gone)) {
      const kept = ids.filter((id) => !gone(id));
      out = withCell(out, f.id, kept.length > 0 ? kept : undefined);
    }
  }
  return out;
}

/** One pair cell merged edge by edge. */
export interface LinkCell {
  /** What the copy holds. */
  copy: string[];
  /** What the service holds once this side's changes are sent. */
  service: string[];
  /** The merge base until they are: the service's cell now, with held edges as the base had them. */
  base: string[];
  /** The service's cell now. */
  theirs: string[];
  /** The linked records whose edge is held (see the module's comment). */
  held: Set<string>;
}

/**
 * The three-way merge of a pair cell: `held(id)` says whether the edge to `id` is held. Edges are merged one
 * by one (see the module's comment); each list is then put in order by `ordered`.
 */
export function mergeLinks(
  base: readonly string[],
  mine: readonly string[],
  theirs: readonly string[],
  held: (id: string) => boolean,
): LinkCell {
  const inBase = new Set(base);
  const inMine = new Set(mine);
  const inTheirs = new Set(theirs);
  const copy = new Set<string>();
  const service = new Set<string>();
  const next = new Set<string>();
  const heldIds = new Set<string>();
  for (const id of new Set([...base, ...mine, ...theirs])) {
    const b = inBase.has(id);
    const m = inMine.has(id);
    const t = inTheirs.has(id);
    if (held(id)) {
      heldIds.add(id);
      if (m) copy.add(id);
      if (t) service.add(id);
      if (b) next.add(id);
      continue;
    }
    const merged = m !== b ? m : t;
    if (merged) {
      copy.add(id);
      service.add(id);
    }
    if (t) next.add(id);
  }
  return {
    copy: ordered(base, mine, theirs, copy),
    service: ordered(base, mine, theirs, service),
    base: weave(
      theirs.filter((id) => next.has(id)),
      base.filter((id) => next.has(id) && !inTheirs.has(id)),
      base,
    ),
    theirs: [...theirs],
    held: heldIds,
  };
}

/**
 * The links `keep` in one order: where mine keeps the base's order (links taken out, links added only at the
 * end, as the service adds a link made from the other side), the service's order with my additions after it;
 * else mine, with the service's additions where the service put them. Links of the base alone (held) go
 * back where the base had them.
 */
function ordered(
  base: readonly string[],
  mine: readonly string[],
  theirs: readonly string[],
  keep: ReadonlySet<string>,
): string[] {
  let out: string[] = [];
  const placed = new Set<string>();
  const take = (id: string) => {
    if (keep.has(id) && !placed.has(id)) {
      out.push(id);
      placed.add(id);
    }
  };
  if (keepsOrder(base, mine)) {
    theirs.forEach(take);
    mine.forEach(take);
  } else {
    mine.forEach(take);
    const added = theirs.filter((id) => keep.has(id) && !placed.has(id));
    out = weave(out, added, theirs);
    for (const id of added) placed.add(id);
  }
  return weave(
    out,
    base.filter((id) => keep.has(id) && !placed.has(id)),
    base,
  );
}

/** Whether `list` keeps `base`'s order: the links both hold in the same order, any others after them. */
export function keepsOrder(base: readonly string[], list: readonly string[]): boolean {
  const at = new Map(base.map((id, i) => [id, i]));
  let last = -1;
  let added = false;
  for (const id of list) {
    const i = at.get(id);
    if (i === undefined) added = true;
    else if (added || i < last) return false;
    else last = i;
  }
  return true;
}

/** `list` with each of `extra` put after the nearest link that comes before it in `reference` (else first). */
export function weave(
  list: readonly string[],
  extra: readonly string[],
  reference: readonly string[],
): string[] {
  if (extra.length === 0) return [...list];
  const out = [...list];
  const position = new Map(reference.map((id, i) => [id, i]));
  for (const id of extra) {
    let at = 0;
    for (let j = (position.get(id) ?? reference.length) - 1; j >= 0; j--) {
      const k = out.indexOf(reference[j]!);
      if (k >= 0) {
        at = k + 1;
        break;
      }
    }
    out.splice(at, 0, id);
  }
  return out;
}

/** Whether `to` holds an edge of a pair that `from` does not: a link added, which a deletion would lose. */
export function addsLinks(pairs: LinkPairs, table: TableSchema, from: RecordData, to: RecordData): boolean {
  return pairs.sidesOf(table).some((side) => {
    const had = new Set(linkIds(from, side.fieldId));
    return linkIds(to, side.fieldId).some((id) => !had.has(id));
  });
}

/**
 * The merge base of a mirror, kept as the service keeps its data: setting or dropping a record's base puts the
 * other side of each of its link pairs in step (the linked records' base cells gain it at their end, or lose
 * it). So the base is one relation like the copy and the service, and a link made by one side's write is no
 * change of the other side's record.
 */
export class MergeBase {
  readonly pairs: LinkPairs;
  /** By table, the fields the copy holds. */
  private readonly held: Map<string, Set<string>>;

  constructor(
    private readonly store: MirrorStore,
    private readonly mirrorId: string,
    tables: readonly TableSchema[],
    /** Told of every record whose base this upkeep changed. */
    private readonly onRelinked?: (recordId: string) => void,
  ) {
    this.pairs = new LinkPairs(tables);
    this.held = new Map(tables.map((t) => [t.id, new Set(t.fields.map((f) => f.id))]));
  }

  /**
   * Only the cells of fields the copy holds: a record as the service sent it (a pull's, a push's answer) may
   * hold one the copy left out (a type the local server does not know), whose cell in the base would, once
   * the field is copied, look cleared in the copy, and the push would clear it on the service.
   */
  set(tableId: string, record: RecordData): void {
    const held = this.held.get(tableId);
    const kept = held
      ? { ...record, fields: Object.fromEntries(Object.entries(record.fields).filter(([f]) => held.has(f))) }
      : record;
    this.relink(this.store.baseRecord(this.mirrorId, record.id), kept);
    this.store.setBase(this.mirrorId, tableId, kept);
  }

  drop(recordId: string): void {
    this.relink(this.store.baseRecord(this.mirrorId, recordId), undefined);
    this.store.dropBase(this.mirrorId, recordId);
  }

  private relink(before: RecordData | undefined, after: RecordData | undefined): void {
    const id = (after ?? before)?.id;
    if (id === undefined) return;
    const fieldIds = new Set([...Object.keys(before?.fields ?? {}), ...Object.keys(after?.fields ?? {})]);
    for (const fieldId of fieldIds) {
      const side = this.pairs.of(fieldId);
      if (!side) continue;
      const old = new Set(linkIds(before, fieldId));
      const now = new Set(linkIds(after, fieldId));
      for (const other of now) if (!old.has(other)) this.edit(side, other, id, true);
      for (const other of old) if (!now.has(other)) this.edit(side, other, id, false);
    }
  }

  private edit(side: PairSide, recordId: string, id: string, linked: boolean): void {
    const holds = this.store.baseHolds(this.mirrorId, recordId, side.otherFieldId, id);
    if (holds === undefined || holds === linked) return;
    const record = this.store.baseRecord(this.mirrorId, recordId)!;
    const list = linkIds(record, side.otherFieldId);
    const next = linked ? [...list, id] : list.filter((x) => x !== id);
    const fields = { ...record.fields };
    if (next.length === 0) delete fields[side.otherFieldId];
    else fields[side.otherFieldId] = next;
    this.store.setBase(this.mirrorId, side.otherTableId, { ...record, fields });
    this.onRelinked?.(recordId);
  }
}
