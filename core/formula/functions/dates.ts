/** Date and time functions (research §9.4), all through dayjs (see ../datetime). */
import {
  addToDate,
  dateParts,
  dayIndex,
  diffDates,
  formatDate,
  isLocale,
  isTimeZone,
  parseDate,
  sameDate,
  startOfDay,
  toDate,
  unitOf,
  weekNumber,
  type DateParts,
} from '../datetime';
import { COST } from '../budget';
import type { EvalContext, FunctionDef, StrictFunction } from '../runtime';
import { definer } from './args';
import { DAY_MS, FormulaDate, FormulaError, toNumber, toText, type FormulaValue } from '../values';

/** A function of its first n arguments as dates: blank in, blank out; an unreadable date is the error. */
function onDates(
  n: number,
  f: (ds: FormulaDate[], args: FormulaValue[], ctx: EvalContext) => FormulaValue,
): StrictFunction['call'] {
  return (args, _r, ctx) => {
    const ds = args.slice(0, n).map(toDate);
    for (const d of ds) if (d === null || d instanceof FormulaError) return d;
    // A date past what a Date holds (FormulaDate made it NaN) has no parts and no text.
    if (ds.some((d) => Number.isNaN((d as FormulaDate).ms)))
      return new FormulaError('The date is out of range');
    return f(ds as FormulaDate[], args, ctx);
  };
}

function part(key: keyof DateParts): StrictFunction['call'] {
  return onDates(1, ([d], _a, ctx) => dateParts(d as FormulaDate, ctx.timeZone)[key]);
}

function startDay(v: FormulaValue | undefined): number | FormulaError {
  if (v === undefined || v === null) return 0;
  const s = toText(v).toLowerCase();
  if (s === 'sunday') return 0;
  if (s === 'monday') return 1;
  return new FormulaError(`The week can start on "Sunday" or "Monday", not "${toText(v)}"`);
}

/** Holidays as text ("2024-12-25, 2024-12-26") or a list of dates, as day numbers. */
function holidayDays(v: FormulaValue | undefined, ctx: EvalContext): Set<number> | FormulaError {
  const out = new Set<number>();
  if (v === undefined || v === null) return out;
  const list = Array.isArray(v) ? (v as FormulaValue[]) : toText(v).split(',');
  ctx.budget?.spend(list.length * COST.dateParse);
  for (const item of list) {
    if (typeof item === 'string' && item.trim() === '') continue;
    const d = toDate(item as FormulaValue);
    if (d instanceof FormulaError) return d;
    if (d) out.add(dayIndex(d, ctx.timeZone));
  }
  return out;
}

/** Day numbers count from 1970-01-01, a Thursday. */
function isWorkday(day: number, holidays: Set<number>): boolean {
  const weekday = (((day + 4) % 7) + 7) % 7;
  return weekday !== 0 && weekday !== 6 && !holidays.has(day);
}

/** Bounds loops over days so no formula can hang the evaluator. */
const MAX_WORKDAY_SPAN = 1_000_000;

const workday = onDates(1, ([start], args, ctx) => {
  const d = start as FormulaDate;
  const n = toNumber(args[1] as FormulaValue);
  if (n instanceof FormulaError) return n;
  const holidays = holidayDays(args[2], ctx);
  if (holidays instanceof FormulaError) return holidays;
  let todo = Math.trunc(n);
  if (Math.abs(todo) > MAX_WORKDAY_SPAN / 2)
    return new FormulaError('WORKDAY() can move at most 500,000 days');
  // Seven calendar days for every five working ones (a holiday takes a working day's place), each looked at once.
  ctx.budget?.spend(Math.ceil(((Math.abs(todo) + holidays.size) * 7) / 5 + 7) * COST.day);
  const step = todo < 0 ? -1 : 1;
  const first = dayIndex(d, ctx.timeZone);
  let day = first;
  while (todo !== 0) {
    day += step;
    if (isWorkday(day, holidays)) todo -= step;
  }
  return new FormulaDate(startOfDay(d, ctx.timeZone).ms + (day - first) * DAY_MS, d.timeZone, d.locale);
});

/** Working days between the two dates, both ends included (like Excel's NETWORKDAYS); negative when end is earlier. */
const workdayDiff = onDates(2, ([start, end], args, ctx) => {
  const holidays = holidayDays(args[2], ctx);
  if (holidays instanceof FormulaError) return holidays;
  const a = dayIndex(start as FormulaDate, ctx.timeZone);
  const b = dayIndex(end as FormulaDate, ctx.timeZone);
  if (Math.abs(b - a) > MAX_WORKDAY_SPAN)
    return new FormulaError('WORKDAY_DIFF() can count at most 1,000,000 days');
  const [lo, hi] = a <= b ? [a, b] : [b, a];
  ctx.budget?.spend((hi - lo + 1) * COST.day);
  let count = 0;
  for (let d = lo; d <= hi; d++) if (isWorkday(d, holidays)) count++;
  return a <= b ? count : -count;
});

function now(ctx: EvalContext): FormulaDate {
  return new FormulaDate(ctx.now ? ctx.now.getTime() : Date.now());
}

function recordTime(iso: string | undefined): FormulaValue {
  if (!iso) return null;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? new FormulaError(`The record time "${iso}" is not a date`) : new FormulaDate(ms);
}

function withUnit(v: FormulaValue | undefined, fallback: string) {
  return unitOf(v === undefined || v === null ? fallback : toText(v));
}

/** Whole days between now and the date. Airtable's description gives no sign (research §9.4), so neither do we. */
const daysFromNow = onDates(1, ([d], _a, ctx) =>
  Math.abs(diffDates(now(ctx), d as FormulaDate, 'day', ctx.timeZone)),
);

const def = definer('date', false);
/** Functions that read neither the clock, the record nor the context's zone: constant calls fold at compile time. */
const pureDef = definer('date', true);

export const dateFunctions: FunctionDef[] = [
  def('NOW', 0, 0, 'NOW()', 'The current date and time.', (_a, _r, ctx) => now(ctx)),
  def('TODAY', 0, 0, 'TODAY()', "Today's date, at midnight.", (_a, _r, ctx) =>
    startOfDay(now(ctx), ctx.timeZone),
  ),
  def(
    'DATEADD',
    3,
    3,
    'DATEADD(date, number, units)',
    'date moved by number units ("days", "months", ...).',
    onDates(1, ([d], args, ctx) => {
      const n = toNumber(args[1] as FormulaValue);
      if (n instanceof FormulaError) return n;
      const unit = withUnit(args[2], 'days');
      return unit instanceof FormulaError ? unit : addToDate(d as FormulaDate, n, unit, ctx.timeZone);
    }),
  ),
  def(
    'DATETIME_DIFF',
    2,
    3,
    'DATETIME_DIFF(date1, date2, [units])',
    'date1 minus date2 in whole units (default seconds).',
    onDates(2, ([a, b], args, ctx) => {
      const unit = withUnit(args[2], 'seconds');
      return unit instanceof FormulaError
        ? unit
        : diffDates(a as FormulaDate, b as FormulaDate, unit, ctx.timeZone);
    }),
  ),
  def(
    'DATETIME_FORMAT',
    1,
    2,
    'DATETIME_FORMAT(date, [output_format])',
    'date as text in a Moment-style format such as "YYYY-MM-DD" (ISO 8601 when left out).',
    onDates(1, ([d], args, ctx) =>
      formatDate(d as FormulaDate, args[1] == null ? undefined : toText(args[1]), ctx.timeZone, ctx.locale),
    ),
  ),
  pureDef(
    'DATETIME_PARSE',
    1,
    3,
    'DATETIME_PARSE(date, [input_format], [locale])',
    'Reads text as a date, in an optional Moment-style format.',
    (args) => {
      const [v, format, locale] = args;
      if (v instanceof FormulaDate || v === null) return v as FormulaValue;
      if (locale != null && !isLocale(toText(locale)))
        return new FormulaError(`Unknown locale "${toText(locale)}"`);
      return parseDate(
        toText(v as FormulaValue),
        format == null ? undefined : toText(format),
        locale == null ? undefined : toText(locale),
      );
    },
  ),
  def(
    'DATESTR',
    1,
    1,
    'DATESTR(date)',
    'date as YYYY-MM-DD text.',
    onDates(1, ([d], _a, ctx) => formatDate(d as FormulaDate, 'YYYY-MM-DD', ctx.timeZone)),
  ),
  def(
    'TIMESTR',
    1,
    1,
    'TIMESTR(timestamp)',
    'The time of timestamp as HH:mm:ss text.',
    onDates(1, ([d], _a, ctx) => formatDate(d as FormulaDate, 'HH:mm:ss', ctx.timeZone)),
  ),
  def('YEAR', 1, 1, 'YEAR(date)', 'The year of date.', part('year')),
  def('MONTH', 1, 1, 'MONTH(date)', 'The month of date, 1 to 12.', part('month')),
  def('DAY', 1, 1, 'DAY(date)', 'The day of the month of date, 1 to 31.', part('day')),
  def('HOUR', 1, 1, 'HOUR(date)', 'The hour of date, 0 to 23.', part('hour')),
  def('MINUTE', 1, 1, 'MINUTE(date)', 'The minute of date, 0 to 59.', part('minute')),
  def('SECOND', 1, 1, 'SECOND(date)', 'The second of date, 0 to 59.', part('second')),
  def(
    'WEEKDAY',
    1,
    2,
    'WEEKDAY(date, [startDayOfWeek])',
    'Day of the week, 0 to 6: Sunday is 0, or Monday with "Monday".',
    onDates(1, ([d], args, ctx) => {
      const s = startDay(args[1]);
      return s instanceof FormulaError ? s : (dateParts(d as FormulaDate, ctx.timeZone).weekday - s + 7) % 7;
    }),
  ),
  def(
    'WEEKNUM',
    1,
    2,
    'WEEKNUM(date, [startDayOfWeek])',
    'Week of the year; weeks start on Sunday, or Monday with "Monday".',
    onDates(1, ([d], args, ctx) => {
      const s = startDay(args[1]);
      return s instanceof FormulaError ? s : weekNumber(d as FormulaDate, s, ctx.timeZone);
    }),
  ),
  def(
    'WORKDAY',
    2,
    3,
    'WORKDAY(startDate, numDays, [holidays])',
    'The date numDays working days after startDate, skipping weekends and holidays.',
    workday,
  ),
  def(
    'WORKDAY_DIFF',
    2,
    3,
    'WORKDAY_DIFF(startDate, endDate, [holidays])',
    'Working days from startDate to endDate, both included.',
    workdayDiff,
  ),
  pureDef(
    'IS_BEFORE',
    2,
    2,
    'IS_BEFORE(date1, date2)',
    'True if date1 is before date2.',
    onDates(2, ([a, b]) => (a as FormulaDate).ms < (b as FormulaDate).ms),
  ),
  pureDef(
    'IS_AFTER',
    2,
    2,
    'IS_AFTER(date1, date2)',
    'True if date1 is after date2.',
    onDates(2, ([a, b]) => (a as FormulaDate).ms > (b as FormulaDate).ms),
  ),
  def(
    'IS_SAME',
    2,
    3,
    'IS_SAME(date1, date2, [unit])',
    'True if the dates are the same, compared down to unit ("day", "month", ...).',
    onDates(2, ([a, b], args, ctx) => {
      if (args[2] == null) return sameDate(a as FormulaDate, b as FormulaDate, undefined);
      const unit = unitOf(toText(args[2]));
      return unit instanceof FormulaError
        ? unit
        : sameDate(a as FormulaDate, b as FormulaDate, unit, ctx.timeZone);
    }),
  ),
  pureDef(
    'SET_LOCALE',
    2,
    2,
    'SET_LOCALE(date, locale)',
    'date to be formatted in locale (for DATETIME_FORMAT).',
    onDates(1, ([d], args) => {
      const loc = toText(args[1] as FormulaValue);
      if (!isLocale(loc)) return new FormulaError(`Unknown locale "${loc}"`);
      return new FormulaDate((d as FormulaDate).ms, (d as FormulaDate).timeZone, loc.toLowerCase());
    }),
  ),
  pureDef(
    'SET_TIMEZONE',
    2,
    2,
    'SET_TIMEZONE(date, timezone)',
    'date to be shown in an IANA time zone such as "Europe/Paris" (for DATETIME_FORMAT).',
    onDates(1, ([d], args) => {
      const tz = toText(args[1] as FormulaValue);
      if (!isTimeZone(tz))
        return new FormulaError(`Unknown time zone "${tz}": use an IANA name such as "America/New_York"`);
      return new FormulaDate((d as FormulaDate).ms, tz, (d as FormulaDate).locale);
    }),
  ),
  def('TONOW', 1, 1, 'TONOW(date)', 'Whole days between date and now.', daysFromNow),
  def('FROMNOW', 1, 1, 'FROMNOW(date)', 'Whole days between now and date.', daysFromNow),
  def('CREATED_TIME', 0, 0, 'CREATED_TIME()', 'When the record was created.', (_a, r) =>
    recordTime(r.createdTime),
  ),
  {
    name: 'LAST_MODIFIED_TIME',
    family: 'date',
    minArgs: 0,
    maxArgs: Infinity,
    signature: 'LAST_MODIFIED_TIME([{field1}, {field2}, ...])',
    // The service keeps one modification time per record, so a field list narrows nothing here.
    doc: 'When the record was last changed.',
    lazy: (_args, r) => recordTime(r.lastModifiedTime ?? r.createdTime),
  },
];
