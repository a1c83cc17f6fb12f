import { createHash } from 'node:crypto';
import type { RecordData } from '../../core/records/types';
import { ServiceError, invalidRequest, unknownField } from '../errors';
import type { Service } from '../service';
import type { SortRule, Table } from '../store/catalog';
import type { StoredRecord } from '../store/records';
import { checkTextFormat, renderRecord } from './render';
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
    commentCount: o.recordMetadata?.includes('commentCount'),
  };
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
    opts.text = { timeZone, locale, primaryOf: (tableId, ids) => primaryValues(service, tableId, ids) };
  }
  return opts;
}

function primaryValues(service: Service, tableId: string, ids: string[]): string[] {
  const table = service.catalog.tableById(tableId);
  if (!table) return ids;
  return ids.map((id) => {
    const rec = service.records.get(table, id);
    const v = rec?.data[table.primaryFieldId];
    return v === undefined ? id : String(v);
  });
}

function and(a: ((r: StoredRecord) => boolean) | undefined, b: ((r: StoredRecord) => boolean) | undefined) {
  if (a && b) return (r: StoredRecord) => a(r) && b(r);
  return a ?? b;
}

/**
 * One page of a list request: view, filter, sort, paging by keyset cursor, maxRecords. A view applies its
 * filter and its sort; its hidden fields are still returned, as Airtable documents for `view` (they show
 * as `visibleFieldIds` in the schema for clients that hide them).
 */
export function listRecords(
  service: Service,
  table: Table,
  o: ListOptions,
): { records: RecordData[]; offset?: string } {
  const view = o.view === undefined ? undefined : service.catalog.view(table, o.view);
  if (o.view !== undefined && !view)
    throw new ServiceError(
      422,
      'VIEW_NAME_NOT_FOUND',
      `Could not find view ${JSON.stringify(o.view)} in table ${table.name}`,
    );
  const pageSize = o.pageSize ?? o.limit ?? 100;
  if (pageSize < 1 || pageSize > 100) throw invalidRequest('pageSize must be from 1 to 100');
  const render = renderOptions(service, table, o);

  const sort: SortRule[] = o.sort?.length
    ? o.sort.map((s) => {
        const f = service.catalog.field(table, s.field);
        if (!f) throw unknownField(s.field);
        return { fieldId: f.id, direction: s.direction ?? 'asc' };
      })
    : (view?.sort ?? []);
  const formula = o.filterByFormula?.trim() ? o.filterByFormula : undefined;
  const filter = and(
    view?.filterByFormula ? service.compileFilter(table, view.filterByFormula) : undefined,
    formula ? service.compileFilter(table, formula) : undefined,
  );

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
        render.commentCount,
      ]),
    )
    .digest('base64url');
  const resumed = o.offset ? service.cursors.resume(o.offset, table.id, hash) : undefined;
  const returned = resumed?.returned ?? 0;
  const left = o.maxRecords !== undefined && o.maxRecords > 0 ? o.maxRecords - returned : Infinity;
  const limit = Math.max(0, Math.min(pageSize, left));
  const page =
    limit > 0
      ? service.pages.read(table, { sort, filter, limit }, resumed?.keyset)
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
