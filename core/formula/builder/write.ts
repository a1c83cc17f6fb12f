/**
 * Conditions → formula text. Every value goes through the escaping builders (quoteString, fieldRef, literal),
 * so no text a user types can change the formula's structure. The forms follow Airtable's semantics (research
 * §5, §9, §10): selects and links are text, text and links are searched ignoring case (LOWER on both sides),
 * a 0 equals BLANK() so numbers test emptiness by their text, and dates compare by their day: in the user's
 * calendar when one is given (./calendar), else in GMT as formulas compute.
 */
import { fieldRef, literal, quoteString } from '../build';
import { dayOf, todayOf, weekStart, type Calendar } from './calendar';
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

/** A date's day as text: its own for a date field, the user's for a date-time, GMT's without a calendar. */
function dayText(ref: string, type: string, cal: Calendar | undefined): string {
  const day = dayOf(ref, type, cal);
  return day === ref ? `DATESTR(${ref})` : day;
}

/** Days between today and the field's day: `DATETIME_DIFF(TODAY(), DATESTR({F}), 'days')` or the reverse. */
function daysFrom(ref: string, type: string, past: boolean, cal: Calendar | undefined): string {
  const day = dayText(ref, type, cal);
  const today = todayOf(cal);
  return past ? `DATETIME_DIFF(${today}, ${day}, 'days')` : `DATETIME_DIFF(${day}, ${today}, 'days')`;
}

/**
 * In the same week, month or year as today (a blank date is never). A week is the user's (its first day the
 * calendar's, Sunday without one): the same first day starts both (documented functions only: IS_SAME's
 * units are Moment's, whose week depends on a locale the service does not state).
 */
function periodTest(
  ref: string,
  type: string,
  op: 'thisWeek' | 'thisMonth' | 'thisYear',
  cal: Calendar | undefined,
): string {
  const day = dayOf(ref, type, cal);
  const today = todayOf(cal);
  if (op === 'thisWeek')
    return `IS_SAME(${weekStart(day, cal?.firstDay)}, ${weekStart(today, cal?.firstDay)}, 'day')`;
  return `IS_SAME(${day}, ${today}, ${quoteString(op === 'thisMonth' ? 'month' : 'year')})`;
}

function emptyTest(ref: string, type: string): string {
  const kind = fieldKind(type);
  // BLANK() equals 0 and an empty list is not BLANK(): those kinds test the text they turn into.
  return kind === 'number' || kind === 'multipleSelects' || kind === 'links'
    ? `LEN(${ref} & '') = 0`
    : `${ref} = BLANK()`;
}

export function writeCondition(c: Condition, type: string, cal?: Calendar): string {
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
      return `IS_SAME(${dayOf(ref, type, cal)}, ${quoteString(c.date)}, 'day')`;
    case 'before':
      return `IS_BEFORE(${dayOf(ref, type, cal)}, ${quoteString(c.date)})`;
    case 'after':
      // By day: a date-time later on that same day is not after it.
      return `IS_AFTER(${dayText(ref, type, cal)}, ${quoteString(c.date)})`;
    case 'lastDays':
    case 'nextDays': {
      const diff = daysFrom(ref, type, c.op === 'lastDays', cal);
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
      return periodTest(ref, type, c.op, cal);
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
 * The formula for a filter ('' when it has no conditions), its days in `cal` when given (the app always gives
 * the user's), else in GMT. Throws when a condition names a field not in `fields` or lists no choices: the
 * builder checks its rows before writing.
 */
export function writeFilter(filter: Filter, fields: readonly BuilderField[], cal?: Calendar): string {
  const types = new Map(fields.map((f) => [f.name, f.type]));
  const one = (c: Condition) => {
    const type = types.get(c.field);
    invariant(type !== undefined, `No field named ${JSON.stringify(c.field)}`);
    invariant(!('choices' in c) || c.choices.length > 0, 'A condition needs at least one choice');
    return writeCondition(c, type, cal);
  };
  const item = (i: Item) => (isGroup(i) ? `${i.join}(${i.conditions.map(one).join(', ')})` : one(i));
  const { join, items } = canonical(filter);
  if (items.length === 0) return '';
  if (items.length === 1) return item(items[0] as Item);
  return `${join}(${items.map(item).join(', ')})`;
}
