import { createHash } from 'node:crypto';
import type { RecordData } from '../../core/records/types';
import { ServiceError, invalidRequest, unknownField } from '../errors';
import type { Service } from '../service';
import type { Field, SortRule, Table, View } from '../store/catalog';
import { Candidates } from '../store/list';
import type { Keyset, PageRead, PageSpec } from '../store/list';
import type { StoredRecord } from '../store/records';
import { LINKED_BYTES_PER_UNIT } from '../store/records';
import { isBlank } from '../store/cells';
import { FormulaCostError, parse, print } from '../../core/formula/index';
import { FILTER_BUSY_MS, PER_READ, RequestWork, filterTooExpensive } from '../cost';
import { MAX_PINNED, intersection, planLookup } from '../filter/plan';
import { checkTextFormat, renderRecord, safeTextCell } from './render';
import type { RenderOptions } from './render';
import type { ListOptions } from './schemas';

/** The `cellFormat`, `returnFieldsByFieldId` and `fields[]` part of a read, shared by list and get. */
export function renderOptions(
  service: Service,
  table: Table,
  o: Pick<
    ListOptions,
    'fields' | 'cellFormat' | 'timeZone' | 'userLocale' | 'returnFieldsByFieldId' | 'recordMetadata'
  >,
): RenderOptions {
  const opts: RenderOptions = {
    byFieldId: o.returnFieldsByFieldId === true,
    attachments: (value) => service.attachments.wire(value),
  };
  if (o.recordMetadata?.includes('commentCount')) opts.commentCount = (id) => service.comments.count(id);
  if (o.fields) {
    opts.only = new Set(
      o.fields.map((n) => {
        const f = service.catalog.field(table, n);
        if (!f) throw unknownField(n);
        return f.id;
      }),
    );
  }
  if (o.cellFormat === 'string') {
    const { timeZone, locale } = checkTextFormat(o.timeZone, o.userLocale);
    const named = new Map<string, string>();
    const work = new RequestWork();
    const text: NonNullable<RenderOptions['text']> = {
      timeZone,
      locale,
      primaryOf: (tableId, ids) => primaryValues(service, tableId, ids, text, named, work),
    };
    opts.text = text;
  }
  return opts;
}

/**
 * Linked records as Airtable names them: their primary value as text, "Unnamed record" when it is empty. A
 * page names each linked record once (`named`), charged to `work` by the size of the record SQLite parses to
 * take the name out: a page of 100 records each linking the same ten records of 20,000 links read 1,000
 * records of 400 KB and held every request 4 s.
 */
function primaryValues(
  service: Service,
  tableId: string,
  ids: string[],
  text: NonNullable<RenderOptions['text']>,
  named: Map<string, string>,
  work: RequestWork,
): string[] {
  const table = service.catalog.tableById(tableId);
  const primary = table?.fields.find((f) => f.id === table.primaryFieldId);
  if (!table || !primary) return ids;
  const missing = [...new Set(ids.filter((id) => !named.has(id)))];
  const found = service.records.primaryCells(table, missing, (bytes) => {
    try {
      work.spend(missing.length * NAME_UNITS + Math.ceil(bytes / LINKED_BYTES_PER_UNIT));
    } catch (e) {
      if (!(e instanceof FormulaCostError)) throw e;
      throw invalidRequest(
        'The records these records link to are too large to name in one request: ask for fewer records, ' +
          'or for cellFormat=json (links as ids)',
      );
    }
  });
  for (const [id, cell] of found)
    named.set(id, isBlank(cell) ? 'Unnamed record' : safeTextCell(primary, cell, text));
  return ids.map((id) => named.get(id) ?? id);
}

function and(a: ((r: StoredRecord) => boolean) | undefined, b: ((r: StoredRecord) => boolean) | undefined) {
  if (a && b) return (r: StoredRecord) => a(r) && b(r);
  return a ?? b;
}

/** Naming one linked record beyond its size: a statement run (20,000 of them take about 0.1 s). */
const NAME_UNITS = 100;

/** How long a filtered read computes before it lets other requests run. */
const SLICE_MS = 20;

/**
 * Runs a filtered scan in slices of SLICE_MS, yielding to other requests between them (each slice is a
 * complete SQLite statement, resumed after the last record it scanned), and refuses it once it has computed
 * for FILTER_BUSY_MS in all: a costly filter never holds the server.
 */
async function inSlices<S extends { resume?: Keyset }>(
  from: Keyset | undefined,
  step: (from: Keyset | undefined, until: number) => S,
  take: (slice: S) => void,
): Promise<void> {
  let busyMs = 0;
  for (;;) {
    const started = performance.now();
    const slice = step(from, started + SLICE_MS);
    busyMs += performance.now() - started;
    take(slice);
    if (!slice.resume) return;
    if (busyMs > FILTER_BUSY_MS) throw filterTooExpensive('it ran too long');
    from = slice.resume;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * A read's order, filter and plan, the same for a list, a count, a seek and an aggregate: its `sort` (else its
 * view's) and its filter (the view's and its formula, compiled with one formula budget for the request).
 */
export interface Query {
  sort: SortRule[];
  /** The formula as given (the options hash of a walk names it). */
  formula?: string;
  /** What each record is tested by. */
  filter?: (r: StoredRecord) => boolean;
  /** The fields the filter reads: a pass that only tests records reads these cells alone. */
  reads: Field[];
  /** The records a lookup plan pinned: only these are read (undefined: the table is scanned). */
  within?: Candidates;
  /** What the set of records depends on (the view's formula and this one): the key of what is cached. */
  filterKey: string;
}

/** A query's records in its order, as seqs: what a seek finds positions in. */
type Ordering = number[];

const orderingKey = (table: Table, q: Query) => JSON.stringify(['order', table.id, q.filterKey, q.sort]);
const matchKey = (table: Table, q: Query) => JSON.stringify(['match', table.id, q.filterKey]);

/**
 * The seqs of the records that pass a filtered query's filter, ascending: evaluated once over the table, in
 * slices (see inSlices), and kept while the database is unchanged.
 */
function matching(service: Service, table: Table, q: Query & { filter: NonNullable<Query['filter']> }) {
  return service.queries.get(
    matchKey(table, q),
    async () => {
      const seqs: number[] = [];
      await inSlices(
        undefined,
        (from, until) => service.pages.matching(table, q.filter, q.reads, q.within, from, until),
        (slice) => {
          for (const seq of slice.seqs) seqs.push(seq);
        },
      );
      return seqs;
    },
    (seqs) => seqs.length,
  );
}

/** Whether a sorted list of numbers holds `n` (binary search). */
function holds(sorted: readonly number[], n: number): boolean {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = sorted[mid]!;
    if (v === n) return true;
    if (v < n) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/**
 * A filtered query's records in its order: the filter's matches (see matching), then their order, kept while
 * the database is unchanged. The filter runs once per query, however the order is sorted and however deep a
 * seek goes. Few matches (a lookup plan's always) are sorted by SQLite in one statement; more are taken from
 * the sort's index, read alone in slices.
 */
function ordering(service: Service, table: Table, q: Query & { filter: NonNullable<Query['filter']> }) {
  return service.queries.get<Ordering>(
    orderingKey(table, q),
    async () => {
      const matches = await matching(service, table, q);
      if (matches.length <= MAX_PINNED) {
        const few = new Candidates(matches);
        return service.pages.ordered(table, q.sort, few, undefined, undefined, Infinity).seqs;
      }
      const out: Ordering = [];
      await inSlices(
        undefined,
        (from, until) =>
          service.pages.ordered(table, q.sort, q.within, (seq) => holds(matches, seq), from, until),
        (run) => {
          for (const seq of run.seqs) out.push(seq);
        },
      );
      return out;
    },
    (o) => o.length,
  );
}

/** Times a seek makes a query's ordering again when the table changed while it was being made. */
const FRESH_TRIES = 3;

/** A query's ordering that describes the table as it is now, unless it keeps changing under every try. */
async function freshOrdering(
  service: Service,
  table: Table,
  q: Query & { filter: NonNullable<Query['filter']> },
): Promise<Ordering> {
  let o = await ordering(service, table, q);
  for (let i = 1; i < FRESH_TRIES && !service.queries.peek(orderingKey(table, q)); i++)
    o = await ordering(service, table, q);
  return o;
}

/**
 * A page of a filtered query served from its kept ordering, when there is a fresh one and the keyset is one
 * of its records with the keys it had there (an older keyset is resumed by the index as usual): the page's
 * records are read by rowid, and no filter runs.
 */
function pageFromOrdering(
  service: Service,
  table: Table,
  q: Query,
  spec: { limit: number; withKeys?: boolean },
  after: Keyset | undefined,
): PageRead | undefined {
  const o = service.queries.peek<Ordering>(orderingKey(table, q));
  if (!o) return undefined;
  const start = after ? o.indexOf(after.seq) + 1 : 0;
  if (after) {
    if (start === 0) return undefined;
    // The ordering is fresh: its records have the keys they have now.
    const now = service.pages.placeOf(table, q.sort, after.seq)?.keyset;
    if (!now || after.keys.some((k, i) => now.keys[i] !== k)) return undefined;
  }
  const seqs = o.slice(start, start + spec.limit);
  const page = service.pages.read(table, {
    sort: q.sort,
    within: new Candidates(seqs),
    limit: spec.limit,
    withKeys: spec.withKeys,
  });
  return { ...page, more: start + seqs.length < o.length };
}

/**
 * A page of a query. A filtered one is served from the query's kept ordering where there is one, else read
 * in slices (see inSlices), each resumed by a range of the sort's index.
 */
export async function readPage(
  service: Service,
  table: Table,
  q: Query,
  spec: { limit: number; withKeys?: boolean },
  after: Keyset | undefined,
): Promise<PageRead> {
  const base: PageSpec = { sort: q.sort, within: q.within, limit: spec.limit, withKeys: spec.withKeys };
  if (!q.filter) return service.pages.read(table, base, after);
  // A lookup plan's few candidates are sorted once for the query, not again in each slice.
  if (q.within) await ordering(service, table, { ...q, filter: q.filter });
  const kept = pageFromOrdering(service, table, q, spec, after);
  if (kept) return kept;
  const records: StoredRecord[] = [];
  const keys: unknown[][] | undefined = spec.withKeys ? [] : undefined;
  let last: Keyset | undefined;
  let more = false;
  await inSlices(
    after,
    (from, until) =>
      service.pages.read(
        table,
        { ...base, filter: q.filter, limit: spec.limit - records.length, until },
        from,
      ),
    (slice) => {
      records.push(...slice.records);
      keys?.push(...(slice.keys ?? []));
      last = slice.last ?? last;
      more = slice.more;
    },
  );
  return { records, keys, last, more };
}

/** The view a read names, or a 422 where the table has none of that name or id. */
export function findView(service: Service, table: Table, name: string | undefined): View | undefined {
  if (name === undefined) return undefined;
  const view = service.catalog.view(table, name);
  if (!view)
    throw new ServiceError(
      422,
      'VIEW_NAME_NOT_FOUND',
      `Could not find view ${JSON.stringify(name)} in table ${table.name}`,
    );
  return view;
}

/**
 * A filter's plan (see server/filter/plan.ts): the records its pinned terms name, through the table's indexes,
 * and what is still evaluated on them; undefined when it pins nothing, and the formula is scanned.
 */
function planFilter(service: Service, table: Table, text: string) {
  const parsed = parse(text);
  if (!parsed.ok) return undefined;
  return planLookup(parsed.ast, {
    ids: (ids) => service.lookups.ids(table, ids, MAX_PINNED),
    equal: (name, values) => {
      const field = service.catalog.field(table, name);
      return field && service.lookups.equal(table, field, values, MAX_PINNED);
    },
  });
}

/**
 * A read's query (see Query). The view's formula and the read's are each checked and compiled, then planned:
 * the candidates of those that pin records are intersected, and only what their plans leave (and the whole of
 * a formula that pins nothing) is evaluated per record.
 */
export function orderAndFilter(
  service: Service,
  table: Table,
  o: Pick<ListOptions, 'sort' | 'filterByFormula'>,
  view: View | undefined,
): Query {
  const sort: SortRule[] = o.sort?.length
    ? o.sort.map((s) => {
        const f = service.catalog.field(table, s.field);
        if (!f) throw unknownField(s.field);
        return { fieldId: f.id, direction: s.direction ?? 'asc' };
      })
    : (view?.sort ?? []);
  const formula = o.filterByFormula?.trim() ? o.filterByFormula : undefined;
  const work = new RequestWork(PER_READ);
  const tests: ((r: StoredRecord) => boolean)[] = [];
  const pinned: number[][] = [];
  const reads = new Set<Field>();
  for (const text of [view?.filterByFormula, formula]) {
    if (!text) continue;
    const whole = service.compileFilter(table, text, work);
    const plan = planFilter(service, table, text);
    if (plan) pinned.push(plan.seqs);
    const tested = !plan ? whole : plan.residual && service.compileFilter(table, print(plan.residual), work);
    if (!tested) continue;
    tests.push(tested.test);
    for (const f of tested.reads) reads.add(f);
  }
  return {
    sort,
    formula,
    filter: tests.reduce<((r: StoredRecord) => boolean) | undefined>((a, b) => and(a, b), undefined),
    reads: [...reads],
    within: pinned.length > 0 ? new Candidates(intersection(pinned)) : undefined,
    filterKey: JSON.stringify([view?.filterByFormula, formula]),
  };
}

/** A walk's cap on the records it returns over all its pages (maxRecords; 0 or none: no cap). */
const recordCap = (o: Pick<ListOptions, 'maxRecords'>) =>
  o.maxRecords !== undefined && o.maxRecords > 0 ? o.maxRecords : Infinity;

/**
 * The number of records a list with these options would return over all its pages (view, formula and
 * maxRecords; sort, fields and paging do not change it), with the list's checks and formula budget.
 */
export async function countRecords(
  service: Service,
  table: Table,
  o: Pick<ListOptions, 'view' | 'sort' | 'filterByFormula' | 'maxRecords'>,
): Promise<number> {
  const q = orderAndFilter(service, table, o, findView(service, table, o.view));
  const all = !q.filter
    ? service.pages.count(table, q.within)
    : (await matching(service, table, { ...q, filter: q.filter })).length;
  return Math.min(all, recordCap(o));
}

/** What a list reads and how it renders, checked, with the hash its offsets are made for. */
function listQuery(service: Service, table: Table, o: ListOptions) {
  const view = findView(service, table, o.view);
  const pageSize = o.pageSize ?? o.limit ?? 100;
  if (pageSize < 1 || pageSize > 100) throw invalidRequest('pageSize must be from 1 to 100');
  const render = renderOptions(service, table, o);
  const q = orderAndFilter(service, table, o, view);
  // A walk must repeat its options; pageSize may change between pages without harm.
  const hash = createHash('sha1')
    .update(
      JSON.stringify([
        view?.id,
        [...(render.only ?? [])],
        q.sort,
        q.formula,
        o.maxRecords,
        o.cellFormat,
        o.timeZone,
        o.userLocale,
        render.byFieldId,
        render.commentCount !== undefined,
      ]),
    )
    .digest('base64url');
  return { pageSize, render, q, hash, max: recordCap(o) };
}

/**
 * One page of a list request: view, filter, sort, paging by keyset cursor, maxRecords. A view applies its
 * filter and its sort; its hidden fields are still returned, as Airtable documents for `view` (they show
 * as `visibleFieldIds` in the schema for clients that hide them).
 */
export async function listRecords(
  service: Service,
  table: Table,
  o: ListOptions,
): Promise<{ records: RecordData[]; offset?: string }> {
  const { pageSize, render, q, hash, max } = listQuery(service, table, o);
  const resumed = o.offset ? service.cursors.resume(o.offset, table.id, hash) : undefined;
  const returned = resumed?.returned ?? 0;
  const left = max - returned;
  const limit = Math.max(0, Math.min(pageSize, left));
  const page =
    limit > 0 ? await readPage(service, table, q, { limit }, resumed?.keyset) : { records: [], more: false };

  const out: { records: RecordData[]; offset?: string } = {
    records: page.records.map((r) => renderRecord(table, r, render)),
  };
  const total = returned + page.records.length;
  if (page.more && page.last && total < left + returned) {
    out.offset = service.cursors.issue(
      table.id,
      hash,
      page.last,
      total,
      page.records[page.records.length - 1]!.id,
    );
  }
  return out;
}

/** A seek's answer: an offset that starts a list at `position` (none at 0), and the view's size. */
export interface SeekAnswer {
  offset: string | null;
  position: number;
  total: number;
}

/**
 * The `seek` extension: an offset that the list, given the same options, answers with the records from
 * `position` on, as if it had walked there. `total` is what the walk would return in all (the view's count,
 * at most maxRecords); `position` is clamped to [0, total]. The offset counts the records before it as
 * returned, so maxRecords holds as for a walk. Without a filter the index is walked to the position; with
 * one, the query's kept ordering (see ordering) is read there.
 */
export async function seekRecords(
  service: Service,
  table: Table,
  o: ListOptions,
  position: number,
): Promise<SeekAnswer> {
  if (o.offset !== undefined) throw invalidRequest('A seek starts from a position, not an offset');
  const { q, hash, max } = listQuery(service, table, o);
  let total: number;
  let at: (p: number) => { keyset: Keyset; id: string } | undefined;
  if (!q.filter) {
    total = service.pages.count(table, q.within);
    at = (p) => service.pages.at(table, q.sort, q.within, p);
  } else {
    const o = await freshOrdering(service, table, { ...q, filter: q.filter });
    total = o.length;
    // A record gone since (the table changed while its ordering was made) is passed over for the one
    // before it: a keyset after that one starts where the gone one would have.
    at = (p) => {
      for (let i = p; i >= 0; i--) {
        const place = service.pages.placeOf(table, q.sort, o[i]!);
        if (place) return place;
      }
      return undefined;
    };
  }
  total = Math.min(total, max);
  const clamped = Math.min(Math.max(0, position), total);
  const last = clamped > 0 ? at(clamped - 1) : undefined;
  return {
    offset: last ? service.cursors.issue(table.id, hash, last.keyset, clamped, last.id) : null,
    position: clamped,
    total,
  };
}
