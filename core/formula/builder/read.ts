/**
 * Formula text → conditions, for the forms ./write writes (and the few equivalent ones the column menu's
 * "Filter by this field" writes, such as `{Status} = 'Done'`). The formula is parsed with core/formula's
 * parser; anything else is reported as not shown, with the span of the part that is not a condition, and the
 * formula stays as the user wrote it.
 */
import type { Node, Span } from '../ast';
import { parse } from '../parser';
import {
  DAY,
  allows,
  canonical,
  fieldKind,
  type Condition,
  type FieldKind,
  type Filter,
  type Group,
  type Item,
  type Join,
  type NumberOp,
} from './conditions';
import { CHOICE_SEPARATOR, type BuilderField } from './write';

export type ReadResult = { ok: true; filter: Filter } | { ok: false; reason: string; span?: Span };

type Fields = ReadonlyMap<string, FieldKind>;

const unwrap = (n: Node): Node => (n.kind === 'group' ? unwrap(n.expr) : n);

function call(n: Node, name: string, arity?: number): Node[] | undefined {
  const node = unwrap(n);
  if (node.kind !== 'call' || node.name !== name) return undefined;
  return arity === undefined || node.args.length === arity ? node.args : undefined;
}

/** The argument of `LOWER(x)`. */
const lower = (n: Node | undefined): Node | undefined => (n ? call(n, 'LOWER', 1)?.[0] : undefined);

function text(n: Node | undefined): string | undefined {
  const node = n && unwrap(n);
  return node?.kind === 'string' ? node.value : undefined;
}

function number(n: Node | undefined): number | undefined {
  const node = n && unwrap(n);
  if (node?.kind === 'number') return node.value;
  if (node?.kind === 'unary') {
    const inner = unwrap(node.operand);
    return inner.kind === 'number' ? -inner.value : undefined;
  }
  return undefined;
}

/** The field `n` refers to, with its kind, when the table has it and the builder knows its kind. */
function field(n: Node | undefined, fields: Fields): { name: string; kind: FieldKind } | undefined {
  const node = n && unwrap(n);
  if (node?.kind !== 'field') return undefined;
  const kind = fields.get(node.name);
  return kind === undefined ? undefined : { name: node.name, kind };
}

const is = (kind: FieldKind, op: Condition['op']) => allows(kind, op);

/** `{F} & ''` inside `LEN(…) = 0`. */
function textOf(n: Node, fields: Fields) {
  const node = unwrap(n);
  if (node.kind !== 'binary' || node.op !== '&' || text(node.right) !== '') return undefined;
  return field(node.left, fields);
}

/** `FIND(',a,', ',' & ARRAYJOIN({F}, ',') & ',')` → the field and `a`. */
function choiceTest(n: Node, fields: Fields): { name: string; choice: string } | undefined {
  const args = call(n, 'FIND', 2);
  const wrapped = text(args?.[0]);
  const sep = CHOICE_SEPARATOR;
  if (!args || wrapped === undefined || wrapped.length < 2 * sep.length) return undefined;
  if (!wrapped.startsWith(sep) || !wrapped.endsWith(sep)) return undefined;
  const outer = unwrap(args[1] as Node);
  if (outer.kind !== 'binary' || outer.op !== '&' || text(outer.right) !== sep) return undefined;
  const inner = unwrap(outer.left);
  if (inner.kind !== 'binary' || inner.op !== '&' || text(inner.left) !== sep) return undefined;
  const joined = call(inner.right, 'ARRAYJOIN', 2);
  const f = field(joined?.[0], fields);
  if (!f || f.kind !== 'multipleSelects' || text(joined?.[1]) !== sep) return undefined;
  return { name: f.name, choice: wrapped.slice(sep.length, -sep.length) };
}

/** `DATETIME_DIFF(TODAY(), DATESTR({F}), 'days')` (past) or the reverse (future). */
function daysFrom(n: Node, fields: Fields): { name: string; past: boolean } | undefined {
  const args = call(n, 'DATETIME_DIFF', 3);
  if (!args || text(args[2]) !== 'days') return undefined;
  const today = (x: Node) => call(x, 'TODAY', 0) !== undefined;
  const day = (x: Node) => {
    const f = field(call(x, 'DATESTR', 1)?.[0], fields);
    return f?.kind === 'date' ? f.name : undefined;
  };
  const [a, b] = args as [Node, Node];
  if (today(a) && day(b) !== undefined) return { name: day(b) as string, past: true };
  if (today(b) && day(a) !== undefined) return { name: day(a) as string, past: false };
  return undefined;
}

/** `DATEADD(x, -WEEKDAY(x), 'days')`: the Sunday starting x's week, and x. */
function weekStartOf(n: Node): Node | undefined {
  const args = call(n, 'DATEADD', 3);
  if (!args || text(args[2]) !== 'days') return undefined;
  const minus = unwrap(args[1] as Node);
  if (minus.kind !== 'unary') return undefined;
  const day = call(minus.operand, 'WEEKDAY', 1)?.[0];
  return day !== undefined && same(day, args[0] as Node) ? (args[0] as Node) : undefined;
}

/** The date field whose week start `n` is. */
function weekOf(n: Node, fields: Fields): string | undefined {
  const f = field(weekStartOf(n), fields);
  return f?.kind === 'date' ? f.name : undefined;
}

/** `DATEADD(TODAY(), -WEEKDAY(TODAY()), 'days')`. */
function isTodayWeek(n: Node): boolean {
  const d = weekStartOf(n);
  return d !== undefined && call(d, 'TODAY', 0) !== undefined;
}

/** The same field, or the same call with no arguments (`TODAY()`), on both sides. */
function same(a: Node, b: Node): boolean {
  const x = unwrap(a);
  const y = unwrap(b);
  if (x.kind === 'field' && y.kind === 'field') return x.name === y.name;
  return (
    x.kind === 'call' && y.kind === 'call' && x.name === y.name && x.args.length === 0 && y.args.length === 0
  );
}

/** All of `args` test one field in the same way; `each` reads one and gives its field and value. */
function sameField<T>(
  args: Node[],
  each: (n: Node) => { name: string; value: T } | undefined,
): { name: string; values: T[] } | undefined {
  const read = args.map(each);
  const first = read[0];
  if (!first || read.some((r) => r === undefined || r.name !== first.name)) return undefined;
  return { name: first.name, values: read.map((r) => (r as { value: T }).value) };
}

function selectEquals(n: Node, fields: Fields) {
  const node = unwrap(n);
  if (node.kind !== 'binary' || node.op !== '=') return undefined;
  const f = field(node.left, fields);
  const value = text(node.right);
  return f?.kind === 'singleSelect' && value !== undefined ? { name: f.name, value } : undefined;
}

const NUMBER_OPS: ReadonlySet<string> = new Set(['=', '!=', '<', '<=', '>', '>=']);

function readBinary(node: Extract<Node, { kind: 'binary' }>, fields: Fields): Condition | undefined {
  const len = call(node.left, 'LEN', 1);
  if (len && node.op === '=' && number(node.right) === 0) {
    const f = textOf(len[0] as Node, fields);
    if (f && (f.kind === 'number' || f.kind === 'multipleSelects' || f.kind === 'links'))
      return { field: f.name, op: 'empty' };
    return undefined;
  }
  const f = field(node.left, fields);
  if (!f) return undefined;
  if (node.op === '=' && call(node.right, 'BLANK', 0) && f.kind !== 'number' && is(f.kind, 'empty'))
    return { field: f.name, op: 'empty' };
  const t = text(node.right);
  if (t !== undefined && f.kind === 'text' && (node.op === '=' || node.op === '!='))
    return { field: f.name, op: node.op === '=' ? 'is' : 'isNot', text: t };
  if (t !== undefined && f.kind === 'singleSelect' && node.op === '=')
    return { field: f.name, op: 'anyOf', choices: [t] };
  const n = number(node.right);
  if (n !== undefined && f.kind === 'number' && NUMBER_OPS.has(node.op))
    return { field: f.name, op: node.op as NumberOp, number: n };
  return undefined;
}

function readCall(node: Extract<Node, { kind: 'call' }>, fields: Fields): Condition | undefined {
  const [a, b, c] = node.args;
  switch (node.name) {
    case 'NOT': {
      if (node.args.length !== 1) return undefined;
      const f = field(a, fields);
      if (f?.kind === 'checkbox') return { field: f.name, op: 'unchecked' };
      const inner = readCondition(a as Node, fields);
      if (inner?.op === 'contains') return { ...inner, op: 'notContains' };
      if (inner?.op === 'anyOf') return { ...inner, op: 'noneOf' };
      if (inner?.op === 'empty') return { ...inner, op: 'notEmpty' };
      return undefined;
    }
    case 'FIND': {
      // Only the case-insensitive forms ./write writes: a plain FIND is a case-sensitive test, not "contains".
      const needle = text(lower(a));
      const hay = lower(b);
      if (node.args.length !== 2 || needle === undefined || !hay) return undefined;
      const f = field(hay, fields);
      if (f?.kind === 'text') return { field: f.name, op: 'contains', text: needle };
      const link = field(call(hay, 'ARRAYJOIN', 1)?.[0], fields);
      if (link?.kind === 'links') return { field: link.name, op: 'linkHas', text: needle };
      return undefined;
    }
    case 'IS_SAME': {
      if (node.args.length !== 3) return undefined;
      const week = weekOf(a as Node, fields);
      if (week !== undefined && isTodayWeek(b as Node) && text(c) === 'day')
        return { field: week, op: 'thisWeek' };
      const f = field(a, fields);
      if (f?.kind !== 'date') return undefined;
      if (call(b as Node, 'TODAY', 0) !== undefined) {
        if (text(c) === 'month') return { field: f.name, op: 'thisMonth' };
        if (text(c) === 'year') return { field: f.name, op: 'thisYear' };
        return undefined;
      }
      const day = text(b);
      if (day === undefined || !DAY.test(day) || text(c) !== 'day') return undefined;
      return { field: f.name, op: 'on', date: day };
    }
    case 'IS_BEFORE':
    case 'IS_AFTER': {
      const after = node.name === 'IS_AFTER';
      const f = field(after ? call(a as Node, 'DATESTR', 1)?.[0] : a, fields);
      const day = text(b);
      if (f?.kind !== 'date' || day === undefined || !DAY.test(day) || node.args.length !== 2)
        return undefined;
      return { field: f.name, op: after ? 'after' : 'before', date: day };
    }
    case 'OR': {
      const selects = sameField(node.args, (n) => selectEquals(n, fields));
      if (selects) return { field: selects.name, op: 'anyOf', choices: selects.values };
      const tags = sameField(node.args, (n) => {
        const t = choiceTest(n, fields);
        return t && { name: t.name, value: t.choice };
      });
      return tags && { field: tags.name, op: 'hasAny', choices: tags.values };
    }
    case 'AND': {
      const tags = sameField(node.args, (n) => {
        const t = choiceTest(n, fields);
        return t && { name: t.name, value: t.choice };
      });
      if (tags) return { field: tags.name, op: 'hasAll', choices: tags.values };
      return node.args.length === 3 ? readDays(a as Node, b as Node, c as Node, fields) : undefined;
    }
    default:
      return undefined;
  }
}

/** `AND(NOT({F} = BLANK()), diff >= 0, diff <= N)` with the same field throughout. */
function readDays(guard: Node, lower: Node, upper: Node, fields: Fields): Condition | undefined {
  const filled = readCondition(guard, fields);
  const lo = unwrap(lower);
  const hi = unwrap(upper);
  if (lo.kind !== 'binary' || lo.op !== '>=' || number(lo.right) !== 0) return undefined;
  if (hi.kind !== 'binary' || hi.op !== '<=') return undefined;
  const from = daysFrom(lo.left, fields);
  const to = daysFrom(hi.left, fields);
  const days = number(hi.right);
  if (!from || !to || from.name !== to.name || from.past !== to.past) return undefined;
  if (filled?.op !== 'notEmpty' || filled.field !== from.name) return undefined;
  if (days === undefined || !Number.isInteger(days) || days < 0) return undefined;
  return { field: from.name, op: from.past ? 'lastDays' : 'nextDays', days };
}

function readCondition(n: Node, fields: Fields): Condition | undefined {
  const node = unwrap(n);
  if (node.kind === 'field') {
    const f = field(node, fields);
    return f?.kind === 'checkbox' ? { field: f.name, op: 'checked' } : undefined;
  }
  if (node.kind === 'binary') return readBinary(node, fields);
  if (node.kind === 'call') return readCall(node, fields);
  return undefined;
}

function joinOf(n: Node): { join: Join; args: Node[] } | undefined {
  const node = unwrap(n);
  if (node.kind !== 'call' || (node.name !== 'AND' && node.name !== 'OR') || node.args.length === 0)
    return undefined;
  return { join: node.name, args: node.args };
}

const notShown = (node: Node, why: string): ReadResult => ({
  ok: false,
  reason: why,
  span: { start: node.start, end: node.end },
});

/** The conditions a formula stands for, or why the builder cannot show it. Never throws. */
export function readFilter(formula: string, builderFields: readonly BuilderField[]): ReadResult {
  if (formula.trim() === '') return { ok: true, filter: { join: 'AND', items: [] } };
  const parsed = parse(formula);
  if (!parsed.ok)
    return { ok: false, reason: parsed.diagnostics[0]?.message ?? 'The formula does not parse.' };
  const fields: Fields = new Map(
    builderFields.flatMap((f) => {
      const kind = fieldKind(f.type);
      return kind ? [[f.name, kind] as const] : [];
    }),
  );
  const whole = readCondition(parsed.ast, fields);
  if (whole) return { ok: true, filter: canonical({ join: 'AND', items: [whole] }) };
  const top = joinOf(parsed.ast);
  if (!top)
    return notShown(
      parsed.ast,
      `${source(formula, parsed.ast)} is not a condition, nor an AND or OR of conditions.`,
    );
  const items: Item[] = [];
  for (const arg of top.args) {
    const c = readCondition(arg, fields);
    if (c) {
      items.push(c);
      continue;
    }
    const group = joinOf(arg);
    if (!group) return notShown(arg, `${source(formula, arg)} is not a condition the builder can show.`);
    const conditions: Condition[] = [];
    for (const inner of group.args) {
      const ic = readCondition(inner, fields);
      if (!ic)
        return notShown(
          inner,
          `${source(formula, inner)} is not a condition the builder can show (groups hold conditions only, one level deep).`,
        );
      conditions.push(ic);
    }
    items.push({ join: group.join, conditions } satisfies Group);
  }
  return { ok: true, filter: canonical({ join: top.join, items }) };
}

/** The source of a node, shortened for a message. */
function source(formula: string, n: Node): string {
  const s = formula.slice(n.start, n.end).replace(/\s+/g, ' ');
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}
