import { createHash } from 'node:crypto';
import type { RecordData } from '../../core/records/types';
import { ServiceError, invalidRequest, unknownField } from '../errors';
import type { Service } from '../service';
import type { SortRule, Table, View } from '../store/catalog';
import type { Keyset, PageRead, PageSpec } from '../store/list';
import type { StoredRecord } from '../store/records';
import { jsonCell } from '../store/records';
import { isBlank } from '../store/cells';
import { FILTER_BUSY_MS, RequestWork, filterTooExpensive } from '../filter/cost';
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
    const text: NonNullable<RenderOptions['text']> = {
      timeZone,
      locale,
      primaryOf: (tableId, ids) => primaryValues(service, tableId, ids, text),
    };
    opts.text = text;
  }
  return opts;
}

/** Linked records as Airtable names them: their primary value as text, "Unnamed record" when it is empty. */
function primaryValues(
  service: Service,
  tableId: string,
  ids: string[],
  text: NonNullable<RenderOptions['text']>,
): string[] {
  const table = service.catalog.tableById(tableId);
  const primary = table?.fields.find((f) => f.id === table.primaryFieldId);
  if (!table || !primary) return ids;
  return ids.map((id) => {
    const rec = service.records.get(table, id);
    if (!rec) return id;
    const v = jsonCell(primary, rec);
    return isBlank(v) ? 'Unnamed record' : safeTextCell(primary, v, text);
  });
}

function and(a: ((r: StoredRecord) => boolean) | undefined, b: ((r: StoredRecord) => boolean) | undefined) {
  if (a && b) return (r: StoredRecord) => a(r) && b(r);
  return a ?? b;
}

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

/** A page of records; a filtered one is read in slices (see inSlices). */
export async function readPage(
  service: Service,
  table: Table,
  spec: PageSpec,
  after: Keyset | undefined,
): Promise<PageRead> {
  if (!spec.filter) return service.pages.read(table, spec, after);
  const records: StoredRecord[] = [];
  const keys: unknown[][] | undefined = spec.withKeys ? [] : undefined;
  let last: Keyset | undefined;
  let more = false;
  await inSlices(
    after,
    (from, until) => service.pages.read(table, { ...spec, limit: spec.limit - records.length, until }, from),
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
 * A read's order (its `sort`, else its view's) and filter (its view's and its formula, both compiled with
 * one formula budget for the request).
 */
export function orderAndFilter(
  service: Service,
  table: Table,
  o: Pick<ListOptions, 'sort' | 'filterByFormula'>,
  view: View | undefined,
): { sort: SortRule[]; formula?: string; filter?: (r: StoredRecord) => boolean } {
  const sort: SortRule[] = o.sort?.length
    ? o.sort.map((s) => {
        const f = service.catalog.field(table, s.field);
        if (!f) throw unknownField(s.field);
        return { fieldId: f.id, direction: s.direction ?? 'asc' };
      })
    : (view?.sort ?? []);
  const formula = o.filterByFormula?.trim() ? o.filterByFormula : undefined;
  const work = new RequestWork();
  const filter = and(
    view?.filterByFormula ? service.compileFilter(table, view.filterByFormula, work) : undefined,
    formula ? service.compileFilter(table, formula, work) : undefined,
  );
  return { sort, formula, filter };
}

/**
 * The number of records a list with these options would return over all its pages (view and formula; sort,
 * fields and paging do not change it), with the list's checks and formula budget.
 */
export async function countRecords(
  service: Service,
  table: Table,
  o: Pick<ListOptions, 'view' | 'sort' | 'filterByFormula'>,
): Promise<number> {
  const { filter } = orderAndFilter(service, table, o, findView(service, table, o.view));
  if (!filter) return service.pages.count(table).count;
  let count = 0;
  await inSlices(
    undefined,
    (from, until) => service.pages.count(table, filter, until, from),
    (slice) => {
      count += slice.count;
    },
  );
  return count;
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
  const view = findView(service, table, o.view);
  const pageSize = o.pageSize ?? o.limit ?? 100;
  if (pageSize < 1 || pageSize > 100) throw invalidRequest('pageSize must be from 1 to 100');
  const render = renderOptions(service, table, o);
  const { sort, formula, filter } = orderAndFilter(service, table, o, view);

  // A walk must repeat its options; pageSize may change between pages without harm.
  const hash = createHash('sha1')
    .update(
      JSON.stringify([
        view?.id,
        [...(render.only ?? [])],
        sort,
        formula,
        o.maxRecords,
        o.cellFormat,
        o.timeZone,
        o.userLocale,
        render.byFieldId,
        render.commentCount !== undefined,
      ]),
    )
    .digest('base64url');
  const resumed = o.offset ? service.cursors.resume(o.offset, table.id, hash) : undefined;
  const returned = resumed?.returned ?? 0;
  const left = o.maxRecords !== undefined && o.maxRecords > 0 ? o.maxRecords - returned : Infinity;
  const limit = Math.max(0, Math.min(pageSize, left));
  const page =
    limit > 0
      ? await readPage(service, table, { sort, filter, limit }, resumed?.keyset)
      : { records: [], more: false };

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
