/**
 * The lookup planner: a filter that pins its records by id or by an indexed value is answered from those
 * records, not by evaluating the formula over the table. A term is pinned when it is
 *   RECORD_ID() = 'rec…'            exact: true for exactly the record of that id;
 *   {Field} = 'text' | number       through the field's sort index, a superset (text keys fold case);
 *   OR(a, b, …)                     of pinned terms only: the union (exact when every term is);
 *   AND(a, b, …)                    with at least one pinned term: the intersection of those (exact when
 *                                   every term is pinned and exact).
 * Anything else (NOT, IF, a comparison with a field on both sides, …) pins nothing, and a formula whose top
 * pins nothing is scanned as before. A pinned formula is tested only on its candidates, by its residual: the
 * formula itself, less the exact terms of a top-level AND (true on every candidate), or nothing when the
 * whole formula is exact. So the answer is the scan's, record for record (test/unit/server/plan.property).
 */
import type { Node } from '../../core/formula/index';

/** Most records a plan pins; past it the formula is scanned (its candidates are read and sorted whole). */
export const MAX_PINNED = 10_000;

/** Where a plan's terms are looked up. Each answers ascending seqs, or undefined where it cannot (then: scan). */
export interface PinLookups {
  ids(ids: readonly string[]): number[] | undefined;
  /** A superset of the records whose field (by name or id) equals one of `values` by the formula's `=`. */
  equal(field: string, values: readonly (string | number)[]): number[] | undefined;
}

export interface LookupPlan {
  /** The candidates, ascending seqs. */
  seqs: number[];
  /** What each candidate is still tested by; none when the formula is true for every candidate. */
  residual?: Node;
}

interface Pinned {
  seqs: number[];
  exact: boolean;
}

const unwrap = (n: Node): Node => (n.kind === 'group' ? unwrap(n.expr) : n);

/** A literal operand: text, a number, or a negated number. */
function literal(node: Node): string | number | undefined {
  const n = unwrap(node);
  if (n.kind === 'string' || n.kind === 'number') return n.value;
  if (n.kind === 'unary') {
    const operand = unwrap(n.operand);
    if (operand.kind === 'number') return -operand.value;
  }
  return undefined;
}

/** `RECORD_ID() = 'x'` or `{F} = x`, either way round: what it pins, before the lookup. */
type Term = { kind: 'id'; id: string } | { kind: 'equal'; field: string; value: string | number };

function term(node: Node): Term | undefined {
  const n = unwrap(node);
  if (n.kind !== 'binary' || n.op !== '=') return undefined;
  for (const [a, b] of [
    [n.left, n.right],
    [n.right, n.left],
  ] as const) {
    const side = unwrap(a);
    const value = literal(b);
    if (value === undefined) continue;
    if (side.kind === 'call' && side.name === 'RECORD_ID' && side.args.length === 0)
      // An id is text: against a number, `=` compares text forms, which no record id is.
      return typeof value === 'string' ? { kind: 'id', id: value } : undefined;
    if (side.kind === 'field') return { kind: 'equal', field: side.name, value };
  }
  return undefined;
}

function union(lists: number[][]): number[] {
  return [...new Set(lists.flat())].sort((a, b) => a - b);
}

/** The seqs in every one of the ascending lists, ascending. */
export function intersection(lists: number[][]): number[] {
  const [smallest, ...rest] = [...lists].sort((a, b) => a.length - b.length);
  const others = rest.map((l) => new Set(l));
  return (smallest ?? []).filter((seq) => others.every((s) => s.has(seq)));
}

function pin(node: Node, lookups: PinLookups): Pinned | undefined {
  const n = unwrap(node);
  if (n.kind === 'binary') {
    const t = term(n);
    if (!t) return undefined;
    if (t.kind === 'id') {
      const seqs = lookups.ids([t.id]);
      return seqs && { seqs, exact: true };
    }
    const seqs = lookups.equal(t.field, [t.value]);
    return seqs && { seqs, exact: false };
  }
  if (n.kind !== 'call') return undefined;
  if (n.name === 'OR') return pinOr(n.args, lookups);
  if (n.name === 'AND') return pinAnd(n.args, lookups)?.pinned;
  return undefined;
}

/** An AND pins when one of its terms does: the intersection, exact when every term is. */
function pinAnd(args: Node[], lookups: PinLookups) {
  const parts = args.map((a) => pin(a, lookups));
  const pinned = parts.filter((p): p is Pinned => p !== undefined);
  if (pinned.length === 0) return undefined;
  const seqs = intersection(pinned.map((p) => p.seqs));
  return { pinned: { seqs, exact: parts.every((p) => p?.exact === true) }, parts };
}

/** An OR pins when every term does; its ids are looked up at once, and so are the values of each field. */
function pinOr(args: Node[], lookups: PinLookups): Pinned | undefined {
  const ids: string[] = [];
  const values = new Map<string, (string | number)[]>();
  const lists: number[][] = [];
  let exact = true;
  for (const arg of args) {
    const t = term(arg);
    if (t?.kind === 'id') ids.push(t.id);
    else if (t?.kind === 'equal') values.set(t.field, [...(values.get(t.field) ?? []), t.value]);
    else {
      const p = pin(arg, lookups);
      if (!p) return undefined;
      lists.push(p.seqs);
      exact &&= p.exact;
    }
  }
  if (ids.length > 0) {
    const seqs = lookups.ids(ids);
    if (!seqs) return undefined;
    lists.push(seqs);
  }
  for (const [field, vs] of values) {
    const seqs = lookups.equal(field, vs);
    if (!seqs) return undefined;
    lists.push(seqs);
    exact = false;
  }
  const seqs = union(lists);
  return seqs.length > MAX_PINNED ? undefined : { seqs, exact };
}

/** The plan of a formula's AST, or undefined when it pins nothing (it is scanned). */
export function planLookup(ast: Node, lookups: PinLookups): LookupPlan | undefined {
  const top = unwrap(ast);
  if (top.kind === 'call' && top.name === 'AND') {
    const and = pinAnd(top.args, lookups);
    if (!and) return undefined;
    // The exact terms hold on every candidate (they are in the intersection): the others decide.
    const rest = top.args.filter((_, i) => and.parts[i]?.exact !== true);
    return rest.length === 0
      ? { seqs: and.pinned.seqs }
      : { seqs: and.pinned.seqs, residual: { ...top, args: rest } };
  }
  const pinned = pin(top, lookups);
  if (!pinned) return undefined;
  return pinned.exact ? { seqs: pinned.seqs } : { seqs: pinned.seqs, residual: top };
}
