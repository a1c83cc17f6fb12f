/**
 * The filter builder's model: conditions on fields, joined by AND or OR at the top, with one level of groups
 * inside (a group holds conditions only). Which operators a field offers depends on its kind.
 */

/** How the builder treats a field type; types outside these kinds are not offered. */
export type FieldKind =
  'text' | 'number' | 'date' | 'singleSelect' | 'multipleSelects' | 'checkbox' | 'links';

const KINDS: Record<string, FieldKind> = {
  singleLineText: 'text',
  multilineText: 'text',
  richText: 'text',
  email: 'text',
  url: 'text',
  phoneNumber: 'text',
  number: 'number',
  currency: 'number',
  percent: 'number',
  rating: 'number',
  duration: 'number',
  autoNumber: 'number',
  count: 'number',
  date: 'date',
  dateTime: 'date',
  createdTime: 'date',
  lastModifiedTime: 'date',
  singleSelect: 'singleSelect',
  multipleSelects: 'multipleSelects',
  checkbox: 'checkbox',
  multipleRecordLinks: 'links',
};

export function fieldKind(type: string): FieldKind | undefined {
  return Object.hasOwn(KINDS, type) ? KINDS[type] : undefined;
}

export type TextOp = 'contains' | 'notContains' | 'is' | 'isNot';
export type NumberOp = '=' | '!=' | '<' | '<=' | '>' | '>=';
export type DateOp = 'on' | 'before' | 'after';
export type DaysOp = 'lastDays' | 'nextDays';
export type ChoicesOp = 'anyOf' | 'noneOf' | 'hasAny' | 'hasAll';
/** The day's week (Sunday to Saturday, as WEEKDAY and WEEKNUM count), month or year, in GMT. */
export type PeriodOp = 'thisWeek' | 'thisMonth' | 'thisYear';
export type BareOp = 'empty' | 'notEmpty' | 'checked' | 'unchecked' | PeriodOp;

export type Condition =
  | { field: string; op: TextOp | 'linkHas'; text: string }
  | { field: string; op: NumberOp; number: number }
  /** `date` is a day, YYYY-MM-DD, compared in GMT as formulas compute. */
  | { field: string; op: DateOp; date: string }
  | { field: string; op: DaysOp; days: number }
  /** At least one choice. */
  | { field: string; op: ChoicesOp; choices: string[] }
  | { field: string; op: BareOp };

export type Op = Condition['op'];
export type Join = 'AND' | 'OR';

export interface Group {
  join: Join;
  conditions: Condition[];
}

export type Item = Condition | Group;

export interface Filter {
  join: Join;
  items: Item[];
}

export const isGroup = (item: Item): item is Group => 'conditions' in item;

/** The operators of each kind, in the order the builder lists them, with their labels. */
export const OPERATORS: Record<FieldKind, readonly { op: Op; label: string }[]> = {
  text: [
    { op: 'contains', label: 'contains' },
    { op: 'notContains', label: 'does not contain' },
    { op: 'is', label: 'is' },
    { op: 'isNot', label: 'is not' },
    { op: 'empty', label: 'is empty' },
    { op: 'notEmpty', label: 'is not empty' },
  ],
  number: [
    { op: '=', label: '=' },
    { op: '!=', label: '≠' },
    { op: '<', label: '<' },
    { op: '<=', label: '≤' },
    { op: '>', label: '>' },
    { op: '>=', label: '≥' },
    { op: 'empty', label: 'is empty' },
    { op: 'notEmpty', label: 'is not empty' },
  ],
  date: [
    { op: 'on', label: 'is' },
    { op: 'before', label: 'is before' },
    { op: 'after', label: 'is after' },
    { op: 'lastDays', label: 'is within the last … days' },
    { op: 'nextDays', label: 'is within the next … days' },
    { op: 'thisWeek', label: 'is this week' },
    { op: 'thisMonth', label: 'is this month' },
    { op: 'thisYear', label: 'is this year' },
    { op: 'empty', label: 'is empty' },
    { op: 'notEmpty', label: 'is not empty' },
  ],
  singleSelect: [
    { op: 'anyOf', label: 'is any of' },
    { op: 'noneOf', label: 'is none of' },
    { op: 'empty', label: 'is empty' },
    { op: 'notEmpty', label: 'is not empty' },
  ],
  multipleSelects: [
    { op: 'hasAny', label: 'has any of' },
    { op: 'hasAll', label: 'has all of' },
    { op: 'empty', label: 'is empty' },
    { op: 'notEmpty', label: 'is not empty' },
  ],
  checkbox: [
    { op: 'checked', label: 'is checked' },
    { op: 'unchecked', label: 'is not checked' },
  ],
  links: [
    { op: 'linkHas', label: 'has a record named (contains)' },
    { op: 'empty', label: 'is empty' },
    { op: 'notEmpty', label: 'is not empty' },
  ],
};

export function allows(kind: FieldKind, op: Op): boolean {
  return OPERATORS[kind].some((o) => o.op === op);
}

export const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/**
 * The one tree each filter is written as, so reading back what was written gives the same tree: a group of
 * one condition is that condition, a filter whose only item is a group is that group, and the join of fewer
 * than two items is AND (it means nothing there).
 */
export function canonical(filter: Filter): Filter {
  const items = filter.items.map((item) =>
    isGroup(item) && item.conditions.length === 1 ? (item.conditions[0] as Condition) : item,
  );
  const only = items.length === 1 ? items[0] : undefined;
  if (only && isGroup(only)) return canonical({ join: only.join, items: only.conditions });
  const norm = items.map((item) =>
    isGroup(item)
      ? { join: item.join, conditions: item.conditions.map(normalCondition) }
      : normalCondition(item),
  );
  return { join: norm.length < 2 ? 'AND' : filter.join, items: norm };
}

/** -0 is written as 0. */
function normalCondition(c: Condition): Condition {
  return 'number' in c && Object.is(c.number, -0) ? { ...c, number: 0 } : c;
}
