/**
 * The copy lists a table's records in the service's order (issue 22, item 3): the order a list without a sort
 * gives there, which the copy's own (the local server's seq) then follows, so every view without a sort of
 * its own reads as the hosted one does.
 *
 * A whole-table walk runs as parallel chains over disjoint sets of ids (core/api/partitioned-walk.ts): each
 * chain meets its records in the service's order, but nothing says how the chains interleave, and walking one
 * chain for the order would cost the pull its speed (or a second walk's calls). So the order comes from the
 * records' creation times: the service is taken to list a table without a view in the order its records
 * were made (the local server does; Airtable documents only an "arbitrary but stable" order, unverified
 * against its creation order: where it differs the copy's order differs too), so the chains merge by
 * creation time. Records made at the same time (a batch of ten shares its millisecond, Airtable's
 * times have whole seconds) are ordered by what already says so: one chain's records by the chain (ids ending
 * in the same character share a chain), records the copy had placed before by the copy; only a group the
 * walk cannot order is asked of the service, its ids in one filtered list (a request per 100 ids, the groups
 * of every table's refresh usually none). A group of more than MAX_ASKED ids (a bulk import within one of
 * Airtable's seconds) is asked by its time instead, so that one walk orders all of it: the records made in
 * that second, in the service's order, a request per 100 (a short formula whatever the group's size).
 */
import type { TableClient } from '../../core/api/index';
import type { RecordData } from '../../core/records/types';
import type { LocalCopy } from './local';
import type { Run } from './run';
import { tick } from './run';

/** A record as a walk of the service met it. */
export type Walked = Pick<RecordData, 'id' | 'createdTime'>;

/** Ids in one read of the service's order: a page, a formula of about 3,300 characters. */
const ASK_PER_READ = 100;
/** A group of records made at once asked in one read at most (its ids beyond keep the walk's order). */
const MAX_ASKED = ASK_PER_READ;

const RECORD_ID = /^rec[A-Za-z0-9]{14}$/;

/**
 * `walked` (in the order the walk met them) in the service's order. `placed` gives the copy's positions of
 * records it had put in that order before (none on a first pull).
 */
export async function serviceOrder(
  run: Run,
  remote: TableClient,
  primaryFieldId: string,
  walked: readonly Walked[],
  placed: ReadonlyMap<string, number> = new Map(),
): Promise<string[]> {
  const time = (r: Walked) => Date.parse(r.createdTime);
  const sorted = walked.map((r, i) => ({ r, i })).sort((a, b) => time(a.r) - time(b.r) || a.i - b.i);
  const groups: Walked[][] = [];
  for (const { r } of sorted) {
    const last = groups.at(-1);
    if (last && time(last[0]!) === time(r)) last.push(r);
    else groups.push([r]);
  }
  const unsure = groups.filter((g) => {
    if (g.length < 2 || new Set(g.map((r) => r.id.at(-1))).size === 1) return false;
    if (g.every((r) => placed.has(r.id))) {
      g.sort((a, b) => placed.get(a.id)! - placed.get(b.id)!);
      return false;
    }
    return g.every((r) => RECORD_ID.test(r.id));
  });
  const [large, small] = [
    unsure.filter((g) => g.length > MAX_ASKED),
    unsure.filter((g) => g.length <= MAX_ASKED),
  ];
  await Promise.all([
    ...packed(small).map((ids) => askOrder(run, remote, primaryFieldId, idsFormula(ids), [...small])),
    ...large.map((g) => askOrder(run, remote, primaryFieldId, secondFormula(g[0]!.createdTime), [g])),
  ]);
  return groups.flat().map((r) => r.id);
}

/** The small unsure groups' ids packed into reads of ASK_PER_READ, a group never split. */
function packed(groups: readonly Walked[][]): string[][] {
  const reads: string[][] = [];
  let read: string[] = [];
  for (const g of groups) {
    if (read.length + g.length > ASK_PER_READ) {
      reads.push(read);
      read = [];
    }
    read.push(...g.map((r) => r.id));
  }
  if (read.length > 0) reads.push(read);
  return reads;
}

const idsFormula = (ids: readonly string[]) => `OR(${ids.map((id) => `RECORD_ID() = '${id}'`).join(', ')})`;

/**
 * The records made in the second that holds `createdTime` (Airtable's times are whole seconds, so that is
 * the group; the local server's have milliseconds, and the rest of its second is read and left out).
 */
function secondFormula(createdTime: string): string {
  const from = Math.floor(Date.parse(createdTime) / 1000) * 1000;
  const at = (ms: number) => `'${new Date(ms).toISOString()}'`;
  return `AND(NOT(IS_BEFORE(CREATED_TIME(), ${at(from)})), IS_BEFORE(CREATED_TIME(), ${at(from + 1000)}))`;
}

/** Reads the records `formula` picks in the service's order and puts each group's records in that order. */
async function askOrder(
  run: Run,
  remote: TableClient,
  primaryFieldId: string,
  formula: string,
  groups: readonly Walked[][],
): Promise<void> {
  const position = new Map<string, number>();
  for await (const page of remote.pages({
    fields: [primaryFieldId],
    returnFieldsByFieldId: true,
    formula,
    signal: run.signal,
    priority: 'background',
  })) {
    tick(run);
    for (const r of page) position.set(r.id, position.size);
  }
  for (const g of groups) {
    const asked = g.filter((r) => position.has(r.id));
    if (asked.length < 2) continue;
    const slots = g.flatMap((r, i) => (position.has(r.id) ? [i] : []));
    asked.sort((a, b) => position.get(a.id)! - position.get(b.id)!);
    slots.forEach((slot, k) => (g[slot] = asked[k]!));
  }
}

/**
 * Puts the copy's table in `order` (the service's ids; the copy's other records, made here and not yet sent,
 * after them, in their order: where the service will put them), moving only what follows the first record out
 * of place.
 */
export async function placeInOrder(
  local: LocalCopy,
  baseId: string,
  tableId: string,
  order: readonly string[],
  current: readonly string[],
): Promise<void> {
  const held = new Set(current);
  const listed = order.filter((id) => held.has(id));
  const listedSet = new Set(listed);
  const wanted = [...listed, ...current.filter((id) => !listedSet.has(id))];
  let first = 0;
  while (first < wanted.length && wanted[first] === current[first]) first++;
  if (first === wanted.length) return;
  await local.moveToEnd(baseId, tableId, wanted.slice(first));
}
