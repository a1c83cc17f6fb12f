/**
 * The local server's `aggregate` extension (see server/http/aggregate-route.ts): a view's groups and column
 * summaries over the whole view in one request. Only for a server whose extensions name it.
 */
import { MAX_GROUP_LEVELS, SUMMARY_KINDS } from '../records/aggregate';
import type { GroupNode, SummaryKind, SummaryValue } from '../records/aggregate';
import type { SortSpec } from '../records/types';
import type { RequestOptions } from './options';
import { encodeSegment } from './query';
import type { Requester } from './requester';
import { asObject } from './responses';

export interface AggregateRequest {
  view?: string;
  filterByFormula?: string;
  groupBy?: SortSpec[];
  summaries?: { field: string; kind: SummaryKind }[];
}

export interface Aggregate {
  total: number;
  groups?: GroupNode[];
  summaries: { field: string; kind: SummaryKind; value: SummaryValue }[];
}

const count = (v: unknown): number => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : 0);

/**
 * Groups as answered, kept to the levels asked for and to counts that are whole numbers. A group's first
 * position is the server's where it gives one, else where the groups before it (from `from`) end.
 */
function groupsOf(v: unknown, levels: number, from = 0): GroupNode[] {
  if (!Array.isArray(v) || levels === 0) return [];
  let next = from;
  return v.map((g: unknown) => {
    const o = asObject(g, 'a group');
    const start = typeof o['start'] === 'number' ? count(o['start']) : next;
    const node: GroupNode = { value: o['value'] ?? null, count: count(o['count']), start };
    next = start + node.count;
    if (levels > 1) node.groups = groupsOf(o['groups'], levels - 1, start);
    return node;
  });
}

function summaryValue(v: unknown): SummaryValue {
  return typeof v === 'number' || typeof v === 'string' ? v : null;
}

export async function fetchAggregate(
  requester: Requester,
  baseId: string,
  table: string,
  request: AggregateRequest,
  opts?: RequestOptions,
): Promise<Aggregate> {
  const body = asObject(
    await requester.send({
      signal: opts?.signal,
      priority: opts?.priority,
      purpose: opts?.purpose,
      baseId,
      method: 'POST',
      path: `/_tabledesk/v1/${encodeSegment(baseId)}/${encodeSegment(table)}/aggregate`,
      body: request,
      creates: false,
    }),
    'the aggregate answer',
  );
  const levels = Math.min(request.groupBy?.length ?? 0, MAX_GROUP_LEVELS);
  const summaries = Array.isArray(body['summaries']) ? body['summaries'] : [];
  return {
    total: count(body['total']),
    ...(levels > 0 ? { groups: groupsOf(body['groups'], levels) } : {}),
    summaries: summaries.flatMap((s: unknown) => {
      const o = asObject(s, 'a summary');
      const kind = SUMMARY_KINDS.find((k) => k === o['kind']);
      return typeof o['field'] === 'string' && kind
        ? [{ field: o['field'], kind, value: summaryValue(o['value']) }]
        : [];
    }),
  };
}
