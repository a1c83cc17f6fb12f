/**
 * Conditions → formula text. Every value goes through the escaping builders (quoteString, fieldRef, literal),
 * so no text a user types can change the formula's structure. The forms follow Airtable's semantics (research
 * §5, §9, §10): selects and links are text, text and links are searched ignoring case (LOWER on both sides),
 * a 0 equals BLANK() so numbers test emptiness by their text, and dates compare by their day in GMT.
 */
import { fieldRef, literal, quoteString } from '../build';
import { canonical, fieldKind, isGroup, type Condition, type Filter, type Item } from './conditions';
import { invariant } from '../../invariant';

export interface BuilderField {
  name: string;
  type: string;
}

/** Where a multiple select's choices are joined, and what each searched choice is wrapped in. */
export const CHOICE_SEPARATOR = ',';

/** `FIND(',a,', ',' & ARRAYJOIN({F}, ',') & ',')`: the whole choice, never a part of a longer one. */
function hasChoice(ref: string, choice: string): string {
  const sep = quoteString(CHOICE_SEPARATOR);
  const wrapped = quoteString(CHOICE_SEPARATOR + choice + CHOICE_SEPARATOR);
  return `FIND(${wrapped}, ${sep} & ARRAYJOIN(${ref}, ${sep}) & ${sep})`;
}

/**
 * `FIND(LOWER('x'), LOWER(hay))`: contains ignoring case, as users of grids expect (FIND alone is
 * case-sensitive). The typed text stays as typed inside LOWER, so it reads back unchanged.
 */
function containsText(text: string, hay: string): string {
  return `FIND(LOWER(${quoteString(text)}), LOWER(${hay}))`;
}

/** Days between today and the field's day: `DATETIME_DIFF(TODAY(), DATESTR({F}), 'days')` or the reverse. */
function daysFrom(ref: string, past: boolean): string {
  const day = `DATESTR(${ref})`;
  return past ? `DATETIME_DIFF(TODAY(), ${day}, 'days')` : `DATETIME_DIFF(${day}, TODAY(), 'days')`;
}

/** The Sunday that starts a date's week: `DATEADD(d, -WEEKDAY(d), 'days')`. */
export function weekStart(date: string): string {
  return `DATEADD(${date}, -WEEKDAY(${date}), 'days')`;
}

/**
 * In the same week, month or year as today, in GMT as formulas compute (a blank date is never). A week is the
 * day's Sunday-to-Saturday: the same Sunday starts both (documented functions only: IS_SAME's units are
 * Moment's, whose week depends on a locale the service does not state).
 */
function periodTest(ref: string, op: 'thisWeek' | 'thisMonth' | 'thisYear'): string {
  if (op === 'thisWeek') return `IS_SAME(${weekStart(ref)}, ${weekStart('TODAY()')}, 'day')`;
  return `IS_SAME(${ref}, TODAY(), ${quoteString(op === 'thisMonth' ? 'month' : 'year')})`;
}

function emptyTest(ref: string, type: string): string {
  const kind = fieldKind(type);
  // BLANK() equals 0 and an empty list is not BLANK(): those kinds test the text they turn into.
  return kind === 'number' || kind === 'multipleSelects' || kind === 'links'
    ? `LEN(${ref} & '') = 0`
    : `${ref} = BLANK()`;
}

export function writeCondition(c: Condition, type: string): string {
  const ref = fieldRef(c.field);
  switch (c.op) {
    case 'contains':
      return containsText(c.text, ref);
    case 'notContains':
      return `NOT(${containsText(c.text, ref)})`;
    case 'is':
      return `${ref} = ${quoteString(c.text)}`;
    case 'isNot':
      return `${ref} != ${quoteString(c.text)}`;
    case 'linkHas':
      // LOWER of the joined text, not of the list: LOWER on a list is not documented by Airtable.
      return containsText(c.text, `ARRAYJOIN(${ref})`);
    case '=':
    case '!=':
    case '<':
    case '<=':
    case '>':
    case '>=':
      return `${ref} ${c.op} ${literal(c.number)}`;
    case 'on':
      return `IS_SAME(${ref}, ${quoteString(c.date)}, 'day')`;
    case 'before':
      return `IS_BEFORE(${ref}, ${quoteString(c.date)})`;
    case 'after':
      // By day: a date-time later on that same day is not after it.
      return `IS_AFTER(DATESTR(${ref}), ${quoteString(c.date)})`;
    case 'lastDays':
    case 'nextDays': {
      const diff = daysFrom(ref, c.op === 'lastDays');
      // DATETIME_DIFF of an empty date is 0, which would count as today.
      return `AND(NOT(${ref} = BLANK()), ${diff} >= 0, ${diff} <= ${literal(c.days)})`;
    }
    case 'anyOf':
      return `OR(${c.choices.map((x) => `${ref} = ${quoteString(x)}`).join(', ')})`;
    case 'noneOf':
      return `NOT(OR(${c.choices.map((x) => `${ref} = ${quoteString(x)}`).join(', ')}))`;
    case 'hasAny':
      return `OR(${c.choices.map((x) => hasChoice(ref, x)).join(', ')})`;
    case 'hasAll':
      return `AND(${c.choices.map((x) => hasChoice(ref, x)).join(', ')})`;
    case 'thisWeek':
    case 'thisMonth':
    case 'thisYear':
      return periodTest(ref, c.op);
    case 'empty':
      return emptyTest(ref, type);
    case 'notEmpty':
      return `NOT(${emptyTest(ref, type)})`;
    case 'checked':
      return ref;
    case 'unchecked':
      return `NOT(${ref})`;
  }
}

/**
 * The formula for a filter ('' when it has no conditions). Throws when a condition names a field not in
 * `fields` or lists no choices: the builder checks its rows before writing.
 */
export function writeFilter(filter: Filter, fields: readonly BuilderField[]): string {
  const types = new Map(fields.map((f) => [f.name, f.type]));
  const one = (c: Condition) => {
    const type = types.get(c.field);
    invariant(type !== undefined, `No field named ${JSON.stringify(c.field)}`);
    invariant(!('choices' in c) || c.choices.length > 0, 'A condition needs at least one choice');
    return writeCondition(c, type);
  };
  const item = (i: Item) => (isGroup(i) ? `${i.join}(${i.conditions.map(one).join(', ')})` : one(i));
  const { join, items } = canonical(filter);
  if (items.length === 0) return '';
  if (items.length === 1) return item(items[0] as Item);
  return `${join}(${items.map(item).join(', ')})`;
}
