/**
 * Formula text → conditions, for the forms ./write writes (and the few equivalent ones the column menu's
 * "Filter by this field" writes, such as `{Status} = 'Done'`). The formula is parsed with core/formula's
 * parser; anything else is reported as not shown, with the span of the part that is not a condition, and the
 * formula stays as the user wrote it.
 */
import type { Node, Span } from '../ast';
import { parse } from '../parser';
import { print } from '../print';
import { DAY_FORMAT } from './calendar';
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

/** The same node, written the same way. */
const same = (a: Node, b: Node): boolean => print(unwrap(a)) === print(unwrap(b));

/** `x` of `DATETIME_FORMAT(SET_TIMEZONE(x, 'zone'), 'YYYY-MM-DD')`: x's day in a zone (./calendar). */
function zoned(n: Node): Node | undefined {
  const args = call(n, 'DATETIME_FORMAT', 2);
  if (!args || text(args[1]) !== DAY_FORMAT) return undefined;
  const set = call(args[0] as Node, 'SET_TIMEZONE', 2);
  return set && text(set[1]) !== undefined ? (set[0] as Node) : undefined;
}

/** The date field whose day `n` is: the field itself, or its day in a zone. */
function dateField(n: Node | undefined, fields: Fields): string | undefined {
  if (n === undefined) return undefined;
  const f = field(zoned(n) ?? n, fields);
  return f?.kind === 'date' ? f.name : undefined;
}

/** The date field whose day as text `n` is: `DATESTR({F})`, or its day in a zone. */
function dayTextField(n: Node | undefined, fields: Fields): string | undefined {
  if (n === undefined) return undefined;
  const inner = zoned(n) ?? call(n, 'DATESTR', 1)?.[0];
  const f = field(inner, fields);
  return f?.kind === 'date' ? f.name : undefined;
}

/** `TODAY()` (GMT's), or the day of `NOW()` in a zone (a user's). */
function isToday(n: Node | undefined): boolean {
  if (n === undefined) return false;
  const now = zoned(n);
  return now === undefined ? call(n, 'TODAY', 0) !== undefined : call(now, 'NOW', 0) !== undefined;
}

/** `DATETIME_DIFF(today, day, 'days')` (past) or the reverse (future), the day a date field's as text. */
function daysFrom(n: Node, fields: Fields): { name: string; past: boolean } | undefined {
  const args = call(n, 'DATETIME_DIFF', 3);
  if (!args || text(args[2]) !== 'days') return undefined;
  const [a, b] = args as [Node, Node];
  const past = isToday(a) ? dayTextField(b, fields) : undefined;
  if (past !== undefined) return { name: past, past: true };
  const future = isToday(b) ? dayTextField(a, fields) : undefined;
  return future === undefined ? undefined : { name: future, past: false };
}

/**
 * The x of `DATEADD(x, -back, 'days')`, where back is x's day of the week counted from the week's first day
 * (./calendar's weekStart): `WEEKDAY(x)`, `WEEKDAY(x, 'Monday')` or `MOD(WEEKDAY(x) + k, 7)`.
 */
function weekStartOf(n: Node): Node | undefined {
  const args = call(n, 'DATEADD', 3);
  if (!args || text(args[2]) !== 'days') return undefined;
  const minus = unwrap(args[1] as Node);
  if (minus.kind !== 'unary') return undefined;
  const x = args[0] as Node;
  const weekday = (w: Node | undefined, monday: boolean): boolean => {
    const wa = w && call(w, 'WEEKDAY');
    if (!wa || !same(wa[0] as Node, x)) return false;
    return monday ? wa.length === 2 && text(wa[1]) === 'Monday' : wa.length === 1;
  };
  const back = minus.operand;
  if (weekday(back, false) || weekday(back, true)) return x;
  const mod = call(back, 'MOD', 2);
  const sum = mod && unwrap(mod[0] as Node);
  const k = sum?.kind === 'binary' && sum.op === '+' ? number(sum.right) : undefined;
  const ok = sum?.kind === 'binary' && weekday(sum.left, false) && number(mod?.[1]) === 7;
  return ok && k !== undefined && Number.isInteger(k) && k >= 1 && k <= 5 ? x : undefined;
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
      const [x, y] = [weekStartOf(a as Node), weekStartOf(b as Node)];
      const week = dateField(x, fields);
      if (week !== undefined && isToday(y) && text(c) === 'day') return { field: week, op: 'thisWeek' };
      const f = dateField(a, fields);
      if (f === undefined) return undefined;
      if (isToday(b)) {
        if (text(c) === 'month') return { field: f, op: 'thisMonth' };
        if (text(c) === 'year') return { field: f, op: 'thisYear' };
        return undefined;
      }
      const day = text(b);
      if (day === undefined || !DAY.test(day) || text(c) !== 'day') return undefined;
      return { field: f, op: 'on', date: day };
    }
    case 'IS_BEFORE':
    case 'IS_AFTER': {
      const after = node.name === 'IS_AFTER';
      const f = after ? dayTextField(a, fields) : dateField(a, fields);
      const day = text(b);
      if (f === undefined || day === undefined || !DAY.test(day) || node.args.length !== 2) return undefined;
      return { field: f, op: after ? 'after' : 'before', date: day };
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
