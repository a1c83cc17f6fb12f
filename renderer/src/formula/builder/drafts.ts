/**
 * The builder's rows as the user edits them: values are the text in the inputs until the formula is written,
 * when each row becomes a condition of core/formula/builder or says what it still needs.
 */
import {
  DAY,
  OPERATORS,
  fieldKind,
  isGroup,
  type Condition,
  type FieldKind,
  type Filter,
  type Item,
  type Join,
  type Op,
} from '../../../../core/formula/builder';

export interface BuilderFieldInfo {
  name: string;
  type: string;
  /** A select's choices, when the table's schema gives them. */
  choices?: readonly string[];
}

export interface DraftCondition {
  key: number;
  field: string;
  op: Op;
  /** Text, a number, a day (YYYY-MM-DD) or a count of days, as typed. */
  value: string;
  choices: string[];
}

export interface DraftGroup {
  key: number;
  join: Join;
  conditions: DraftCondition[];
}

export type DraftItem = DraftCondition | DraftGroup;

export interface Draft {
  join: Join;
  items: DraftItem[];
}

export const isDraftGroup = (item: DraftItem): item is DraftGroup => 'conditions' in item;

let nextKey = 1;
const key = () => nextKey++;

export function kindOf(fields: readonly BuilderFieldInfo[], name: string): FieldKind | undefined {
  const f = fields.find((x) => x.name === name);
  return f ? fieldKind(f.type) : undefined;
}

/** A new row on `field`, with its kind's first operator. */
export function newCondition(fields: readonly BuilderFieldInfo[], field?: string): DraftCondition {
  const usable = fields.filter((f) => fieldKind(f.type) !== undefined);
  const name = field ?? usable[0]?.name ?? '';
  const kind = kindOf(fields, name);
  return {
    key: key(),
    field: name,
    op: kind ? (OPERATORS[kind][0]?.op ?? 'empty') : 'empty',
    value: '',
    choices: [],
  };
}

export function newGroup(fields: readonly BuilderFieldInfo[]): DraftGroup {
  return { key: key(), join: 'OR', conditions: [newCondition(fields)] };
}

function toDraftCondition(c: Condition): DraftCondition {
  const value =
    'text' in c
      ? c.text
      : 'number' in c
        ? String(c.number)
        : 'date' in c
          ? c.date
          : 'days' in c
            ? String(c.days)
            : '';
  return { key: key(), field: c.field, op: c.op, value, choices: 'choices' in c ? [...c.choices] : [] };
}

export function toDraft(filter: Filter): Draft {
  return {
    join: filter.join,
    items: filter.items.map((item) =>
      isGroup(item)
        ? { key: key(), join: item.join, conditions: item.conditions.map(toDraftCondition) }
        : toDraftCondition(item),
    ),
  };
}

/** Digits as typed, or as JavaScript writes a number read from a formula (`1e+21`). */
const NUMBER = /^\s*-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i;
const MAX_DAYS = 36_500;

/** The condition a row stands for, or what it still needs (a message). */
export function toCondition(d: DraftCondition, fields: readonly BuilderFieldInfo[]): Condition | string {
  const kind = kindOf(fields, d.field);
  if (!kind) return 'Choose a field.';
  if (!OPERATORS[kind].some((o) => o.op === d.op)) return 'Choose an operator.';
  const field = d.field;
  switch (d.op) {
    case 'contains':
    case 'notContains':
    case 'linkHas':
      return d.value === '' ? 'Type the text to look for.' : { field, op: d.op, text: d.value };
    case 'is':
    case 'isNot':
      return { field, op: d.op, text: d.value };
    case '=':
    case '!=':
    case '<':
    case '<=':
    case '>':
    case '>=':
      return NUMBER.test(d.value)
        ? { field, op: d.op, number: Number(d.value) }
        : 'Type a number, such as 12.5.';
    case 'on':
    case 'before':
    case 'after':
      return DAY.test(d.value) ? { field, op: d.op, date: d.value } : 'Choose a day.';
    case 'lastDays':
    case 'nextDays': {
      const n = /^\s*\d+\s*$/.test(d.value) ? Number(d.value) : NaN;
      return n <= MAX_DAYS ? { field, op: d.op, days: n } : `Type a number of days, 0 to ${MAX_DAYS}.`;
    }
    case 'anyOf':
    case 'noneOf':
    case 'hasAny':
    case 'hasAll':
      return d.choices.length > 0 ? { field, op: d.op, choices: d.choices } : 'Choose at least one value.';
    default:
      return { field, op: d.op };
  }
}

/** The filter the rows stand for, or each row's problem, numbered as the rows are labelled. */
export function toFilter(
  draft: Draft,
  fields: readonly BuilderFieldInfo[],
): { filter: Filter; problems: string[] } {
  const problems: string[] = [];
  const one = (d: DraftCondition, label: string): Condition | undefined => {
    const c = toCondition(d, fields);
    if (typeof c === 'string') problems.push(`${label}: ${c}`);
    return typeof c === 'string' ? undefined : c;
  };
  const items = draft.items.flatMap((item, i): Item[] => {
    if (!isDraftGroup(item)) {
      const c = one(item, `Condition ${i + 1}`);
      return c ? [c] : [];
    }
    const conditions = item.conditions.flatMap((d, j) => {
      const c = one(d, `Group ${i + 1}, condition ${j + 1}`);
      return c ? [c] : [];
    });
    return conditions.length > 0 ? [{ join: item.join, conditions }] : [];
  });
  return { filter: { join: draft.join, items }, problems };
}
