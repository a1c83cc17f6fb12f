/**
 * Groups and summaries of an open view. The local server computes them over the whole view (its `aggregate`
 * extension); elsewhere (Airtable) they are computed here, over the rows the view has loaded, or, when the user
 * asks, over a walk of the whole view at background priority with only the fields they need.
 */
import { RecordTableError } from '../../core/api/index';
import type { RecordTableClient } from '../../core/api/index';
import type { ParsedRequest, Response, ViewQuery } from '../../core/contract';
import { GroupBuilder, SummaryAccumulator, groupKey } from '../../core/records/aggregate';
import type { RecordData } from '../../core/records/types';

export interface AggregateSource {
  client: RecordTableClient;
  baseId: string;
  table: string;
  query: ViewQuery;
  /** The rows the view holds, in its order. */
  loaded: () => readonly RecordData[];
  /** Whether `loaded` is the whole view (its last page has arrived). */
  complete: () => boolean;
  /** Loads the view's first page if it has none yet, so that a new view's groups are not empty. */
  loadFirst: () => Promise<void>;
  /** Aborted when the view closes. */
  signal: AbortSignal;
  /** Whether the walk of the whole view may spend its calls (the request budget). */
  consent?: () => Promise<boolean>;
}

type Request = ParsedRequest<'view.aggregate'>;
type Answer = Response<'view.aggregate'>;

async function serverAnswers(client: RecordTableClient, signal: AbortSignal): Promise<boolean> {
  try {
    return (await client.extensions({ signal })).has('aggregate');
  } catch {
    return false;
  }
}

/** Groups and summaries over records in the view's order, grouped by the same keys the service sorts by. */
export function aggregateRecords(records: Iterable<RecordData>, request: Request) {
  const groups = new GroupBuilder(request.groupBy.length);
  const summaries = request.summaries.map((s) => ({ field: s.field, acc: new SummaryAccumulator(s.kind) }));
  for (const r of records) {
    const values = request.groupBy.map((g) => r.fields[g.field] ?? null);
    groups.add(values.map(groupKey), values);
    for (const s of summaries) s.acc.add(r.fields[s.field]);
  }
  return {
    total: groups.total,
    ...(request.groupBy.length > 0 ? { groups: groups.groups } : {}),
    summaries: summaries.map((s) => ({ field: s.field, kind: s.acc.kind, value: s.acc.result() })),
  };
}

async function* walk(source: AggregateSource, request: Request): AsyncGenerator<RecordData> {
  const fields = [
    ...new Set([...request.groupBy.map((g) => g.field), ...request.summaries.map((s) => s.field)]),
  ];
  const { client, baseId, table, query, signal } = source;
  const pages = client.table(baseId, table).pages({
    ...query,
    ...(fields.length > 0 ? { fields } : {}),
    pageSize: 100,
    priority: 'background',
    signal,
  });
  for await (const page of pages) yield* page;
}

export async function aggregateView(source: AggregateSource, request: Request): Promise<Answer> {
  const { client, baseId, table, query, signal } = source;
  if (await serverAnswers(client, signal)) {
    try {
      const answer = await client.aggregate(
        baseId,
        table,
        {
          ...(query.view === undefined ? {} : { view: query.view }),
          ...(query.formula === undefined ? {} : { filterByFormula: query.formula }),
          groupBy: request.groupBy,
          summaries: request.summaries,
        },
        { signal, priority: 'interactive' },
      );
      return { ...answer, basis: 'view' };
    } catch (e) {
      // A server that named the extension and no longer answers it (another server behind the same address,
      // a proxy that refuses the path) is treated as one without it; any other failure is the answer.
      if (!(e instanceof RecordTableError && e.status === 404 && e.type === 'NOT_FOUND')) throw e;
    }
  }
  const declined = request.scope === 'all' && !source.complete() && !((await source.consent?.()) ?? true);
  if (request.scope === 'all' && !source.complete() && !declined) {
    const records: RecordData[] = [];
    for await (const r of walk(source, request)) records.push(r);
    return { ...aggregateRecords(records, request), basis: 'view' };
  }
  await source.loadFirst();
  return {
    ...aggregateRecords(source.loaded(), request),
    basis: source.complete() ? 'view' : 'loaded',
    ...(declined ? { declined: true } : {}),
  };
}
