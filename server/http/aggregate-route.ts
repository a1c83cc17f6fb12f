/**
 * The `aggregate` extension: a view's groups (by one or two fields, with their record counts, in the order a
 * list sorted by those fields returns them) and column summaries over the whole view, in one request. It reads
 * the view as listRecords does (same view, formula, budget and slices), in chunks, yielding between them.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  GroupBuilder,
  MAX_GROUP_LEVELS,
  SUMMARY_KINDS,
  SummaryAccumulator,
  summaryKinds,
} from '../../core/records/aggregate';
import type { GroupNode, SummaryKind, SummaryValue } from '../../core/records/aggregate';
import { invalidRequest, unknownField } from '../errors';
import { FILTER_BUSY_MS, filterTooExpensive } from '../cost';
import type { Service } from '../service';
import type { Field, Table } from '../store/catalog';
import type { Keyset } from '../store/list';
import { jsonCell } from '../store/records';
import { findView, orderAndFilter, readPage } from './list';
import { resolveTable } from './record-routes';

/** Most summaries one request may ask for: one per column of a wide table. */
const MAX_SUMMARIES = 500;
/**
 * Records read per statement; the server answers other requests between chunks. A chunk is read whole, so its
 * size follows how long the last took (CHUNK_MS, from FIRST_CHUNK, at most doubling): 5,000 records of 100 KB
 * notes were one chunk and held every request 3.6 s (9 s grouped).
 */
const CHUNK = 5000;
const FIRST_CHUNK = 100;
const CHUNK_MS = 20;

const aggregateBody = z.looseObject({
  view: z.string().optional(),
  filterByFormula: z.string().optional(),
  groupBy: z
    .array(z.object({ field: z.string(), direction: z.enum(['asc', 'desc']).optional() }))
    .max(MAX_GROUP_LEVELS)
    .optional(),
  summaries: z
    .array(z.object({ field: z.string(), kind: z.enum(SUMMARY_KINDS) }))
    .max(MAX_SUMMARIES)
    .optional(),
});
type AggregateBody = z.infer<typeof aggregateBody>;

export interface AggregateAnswer {
  /** Records in the view (after its filter and the formula). */
  total: number;
  /** Present when grouped: the groups in order, each with its subgroups at the second level. */
  groups?: GroupNode[];
  summaries: { field: string; kind: SummaryKind; value: SummaryValue }[];
}

/** A formula, rollup or lookup is summarised as the type of its result. */
const resultType = (field: Field): string =>
  (field.options?.['result'] as { type?: unknown } | undefined)?.type?.toString() ?? field.type;

function fieldOf(service: Service, table: Table, name: string): Field {
  const field = service.catalog.field(table, name);
  if (!field) throw unknownField(name);
  return field;
}

export async function aggregate(service: Service, table: Table, o: AggregateBody): Promise<AggregateAnswer> {
  const view = findView(service, table, o.view);
  const groupFields = (o.groupBy ?? []).map((g) => fieldOf(service, table, g.field));
  const summaries = (o.summaries ?? []).map((s) => {
    const field = fieldOf(service, table, s.field);
    if (!summaryKinds(resultType(field)).includes(s.kind))
      throw invalidRequest(`A ${s.kind} cannot be computed for field ${JSON.stringify(field.name)}`);
    return { name: field.name, field, acc: new SummaryAccumulator(s.kind) };
  });
  const q = orderAndFilter(service, table, { sort: o.groupBy, filterByFormula: o.filterByFormula }, view);
  // Without groups the order does not matter: the table's own (seq) needs no sort key.
  const query = groupFields.length > 0 ? q : { ...q, sort: [] };
  const groups = new GroupBuilder(groupFields.length);

  const started = performance.now();
  let after: Keyset | undefined;
  let limit = FIRST_CHUNK;
  for (;;) {
    const read = performance.now();
    const page = await readPage(service, table, query, { limit, withKeys: true }, after);
    const took = performance.now() - read;
    limit = Math.max(1, Math.min(CHUNK, 2 * limit, Math.round((limit * CHUNK_MS) / Math.max(took, 1))));
    page.records.forEach((rec, i) => {
      groups.add(
        page.keys?.[i] ?? [],
        groupFields.map((f) => jsonCell(f, rec) ?? null),
      );
      for (const s of summaries) s.acc.add(jsonCell(s.field, rec));
    });
    if (!page.more || !page.last) break;
    if (performance.now() - started > FILTER_BUSY_MS) throw filterTooExpensive('it ran too long');
    after = page.last;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return {
    total: groups.total,
    ...(groupFields.length > 0 ? { groups: groups.groups } : {}),
    summaries: summaries.map((s) => ({ field: s.name, kind: s.acc.kind, value: s.acc.result() })),
  };
}

export function registerAggregateRoute(app: FastifyInstance, service: Service, prefix: string): void {
  app.post<{ Params: { baseId: string; table: string }; Body: AggregateBody }>(
    `${prefix}/:baseId/:table/aggregate`,
    { schema: { body: aggregateBody } },
    async (req) =>
      aggregate(service, resolveTable(service, req.params.baseId, req.params.table), req.body ?? {}),
  );
}
