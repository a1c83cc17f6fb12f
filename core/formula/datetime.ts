/**
 * Dates through dayjs, whose format tokens are Moment's, like Airtable's DATETIME_FORMAT / DATETIME_PARSE.
 * Formulas compute in GMT unless a time zone is given (SET_TIMEZONE, or the evaluation context's zone).
 */
import dayjs, { type Dayjs, type ManipulateType, type OpUnitType, type QUnitType } from 'dayjs';
import utc from 'dayjs/plugin/utc';
import timezone from 'dayjs/plugin/timezone';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import advancedFormat from 'dayjs/plugin/advancedFormat';
import weekOfYear from 'dayjs/plugin/weekOfYear';
import isoWeek from 'dayjs/plugin/isoWeek';
import quarterOfYear from 'dayjs/plugin/quarterOfYear';
import localizedFormat from 'dayjs/plugin/localizedFormat';
import 'dayjs/locale/de';
import 'dayjs/locale/es';
import 'dayjs/locale/fr';
import 'dayjs/locale/it';
import 'dayjs/locale/ja';
import 'dayjs/locale/nl';
import 'dayjs/locale/pt';
import 'dayjs/locale/ru';
import 'dayjs/locale/zh-cn';
import { DAY_MS, FormulaDate, FormulaError, type FormulaValue } from './values';

dayjs.extend(utc);
dayjs.extend(timezone);
dayjs.extend(customParseFormat);
dayjs.extend(advancedFormat);
dayjs.extend(weekOfYear);
dayjs.extend(isoWeek);
dayjs.extend(quarterOfYear);
dayjs.extend(localizedFormat);

export const LOCALES: readonly string[] = ['en', 'de', 'es', 'fr', 'it', 'ja', 'nl', 'pt', 'ru', 'zh-cn'];

/** Forms read without a format, after ISO 8601 (Moment's lenient parse accepts these; research §9.4). */
const LENIENT_FORMATS = [
  'M/D/YYYY',
  'M/D/YYYY h:mm a',
  'M/D/YYYY h:mma',
  'M/D/YYYY H:mm',
  'M/D/YYYY H:mm:ss',
  'YYYY/M/D',
  'YYYY-MM-DD HH:mm:ss',
  'YYYY-MM-DD HH:mm',
  'YYYY-MM-DD h:mm a',
  'MMMM D, YYYY',
  'MMMM D YYYY',
  'MMM D, YYYY',
  'MMM D YYYY',
  'D MMMM YYYY',
  'D MMM YYYY',
  'MMMM D, YYYY h:mm a',
];

const ISO = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)?(?:Z|[+-]\d{2}:?\d{2})?$/i;

function zoned(ms: number, timeZone: string | undefined): Dayjs {
  return !timeZone || timeZone === 'UTC' || timeZone === 'GMT' ? dayjs.utc(ms) : dayjs.utc(ms).tz(timeZone);
}

/**
 * One Intl formatter a zone, for days ('YYYY-MM-DD'), kept (bounded): making one costs about 140 µs, and a
 * filter in the user's calendar (core/formula/builder/calendar) checks and formats zones for every record.
 */
const DAY_FORMATTERS = new Map<string, Intl.DateTimeFormat | undefined>();
const MAX_ZONES = 500;

function dayFormatter(tz: string): Intl.DateTimeFormat | undefined {
  if (DAY_FORMATTERS.has(tz)) return DAY_FORMATTERS.get(tz);
  let made: Intl.DateTimeFormat | undefined;
  try {
    made = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      calendar: 'gregory',
      numberingSystem: 'latn',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
  } catch {
    made = undefined;
  }
  if (DAY_FORMATTERS.size >= MAX_ZONES) DAY_FORMATTERS.clear();
  DAY_FORMATTERS.set(tz, made);
  return made;
}

export function isTimeZone(tz: string): boolean {
  return dayFormatter(tz) !== undefined;
}

/** Years 1000 to 9999: four digits, as 'YYYY' writes them. */
const FOUR_DIGIT_YEARS = [Date.UTC(1000, 0, 2), Date.UTC(9999, 11, 30)] as const;

/** An instant's day in a zone, 'YYYY-MM-DD' (undefined for an unknown zone or a year without four digits). */
export function dayInZone(ms: number, tz: string): string | undefined {
  const f = dayFormatter(tz);
  if (!f || !(ms >= FOUR_DIGIT_YEARS[0] && ms <= FOUR_DIGIT_YEARS[1])) return undefined;
  let y = '';
  let m = '';
  let d = '';
  for (const p of f.formatToParts(ms)) {
    if (p.type === 'year') y = p.value;
    else if (p.type === 'month') m = p.value;
    else if (p.type === 'day') d = p.value;
  }
  return y.length === 4 ? `${y}-${m}-${d}` : undefined;
}

export function isLocale(locale: string): boolean {
  return LOCALES.includes(locale.toLowerCase());
}

/** Reads text as a date: ISO 8601 first, then a format if given (Moment tokens), else the common US/long forms. */
/**
 * The longest text read as a date, and the longest date format: no date or format comes near, and dayjs reads
 * a format token by token over what is left of the text (80,000 tokens over 880,000 characters held the
 * server's thread for minutes, within one record's evaluation).
 */
export const MAX_DATE_TEXT = 500;

export function parseDate(text: string, format?: string, locale?: string): FormulaDate | FormulaError {
  const t = text.trim();
  if (t.length > MAX_DATE_TEXT)
    return new FormulaError(`A text of ${t.length} characters is too long to be a date`);
  if (format !== undefined && format.length > MAX_DATE_TEXT)
    return new FormulaError(`A date format of ${format.length} characters is too long`);
  if (format === undefined || format === '') {
    if (ISO.test(t)) {
      const hasZone = /(?:Z|[+-]\d{2}:?\d{2})$/i.test(t) && t.length > 10;
      const ms = hasZone ? Date.parse(t) : dayjs.utc(t.replace(' ', 'T')).valueOf();
      if (!Number.isNaN(ms)) return new FormulaDate(ms);
    }
    for (const f of LENIENT_FORMATS) {
      const d = dayjs.utc(t, f, true);
      if (d.isValid()) return new FormulaDate(d.valueOf());
    }
    return new FormulaError(`"${text}" is not a date this formula can read: give DATETIME_PARSE() a format`);
  }
  // dayjs.utc takes a locale as its third argument like dayjs() does; only its type says `strict`.
  const utcWithLocale = dayjs.utc as unknown as (date: string, format: string, locale?: string) => Dayjs;
  const d = utcWithLocale(t, format, locale?.toLowerCase());
  if (!d.isValid()) return new FormulaError(`"${text}" does not match the date format "${format}"`);
  return new FormulaDate(d.valueOf());
}

/**
 * Texts read as dates, remembered (results are immutable): a constant such as `{Due} < "2024-07-01"` or
 * `IS_BEFORE({Due}, "2024-07-01")` is then parsed once, not for every record.
 */
const textDates = new Map<string, FormulaDate | FormulaError>();
const TEXT_DATES_LIMIT = 256;

function textDate(text: string): FormulaDate | FormulaError {
  let d = textDates.get(text);
  if (d === undefined) {
    d = parseDate(text);
    if (textDates.size >= TEXT_DATES_LIMIT) textDates.clear();
    textDates.set(text, d);
  }
  return d;
}

/** The date form of a value: dates as they are, text parsed, blank stays blank. */
export function toDate(v: FormulaValue): FormulaDate | FormulaError | null {
  if (v instanceof FormulaDate || v instanceof FormulaError || v === null) return v;
  if (typeof v === 'string') return v.trim() === '' ? null : textDate(v);
  if (Array.isArray(v))
    return v.length === 1 ? toDate(v[0] as FormulaValue) : new FormulaError('A list is not a date');
  return new FormulaError(`${String(v)} is not a date: use DATETIME_PARSE() on text`);
}

export function formatDate(
  d: FormulaDate,
  format: string | undefined,
  timeZone?: string,
  locale?: string,
): string | FormulaError {
  if (format !== undefined && format.length > MAX_DATE_TEXT)
    return new FormulaError(`A date format of ${format.length} characters is too long`);
  const zone = d.timeZone ?? timeZone;
  const loc = (d.locale ?? locale ?? 'en').toLowerCase();
  if (!isLocale(loc)) return new FormulaError(`Unknown locale "${loc}": use one of ${LOCALES.join(', ')}`);
  if (!format && (!zone || zone === 'UTC')) return new Date(d.ms).toISOString();
  // A day in a zone (a filter's local day) without dayjs's zone conversion, about 10 times slower.
  const day = format === 'YYYY-MM-DD' && zone ? dayInZone(d.ms, zone) : undefined;
  if (day !== undefined) return day;
  return zoned(d.ms, zone)
    .locale(loc)
    .format(format || 'YYYY-MM-DDTHH:mm:ss.SSSZ');
}

/** Unit names of DATEADD / DATETIME_DIFF / IS_SAME (Moment's, research §9.4); `m` is minutes, `M` months. */
const UNITS: Record<string, ManipulateType> = {
  milliseconds: 'millisecond',
  millisecond: 'millisecond',
  ms: 'millisecond',
  seconds: 'second',
  second: 'second',
  s: 'second',
  minutes: 'minute',
  minute: 'minute',
  m: 'minute',
  hours: 'hour',
  hour: 'hour',
  h: 'hour',
  days: 'day',
  day: 'day',
  d: 'day',
  weeks: 'week',
  week: 'week',
  w: 'week',
  months: 'month',
  month: 'month',
  M: 'month',
  quarters: 'quarter' as ManipulateType,
  quarter: 'quarter' as ManipulateType,
  Q: 'quarter' as ManipulateType,
  years: 'year',
  year: 'year',
  y: 'year',
};

/** An unknown unit is an error rather than a silent default: Airtable's own article contradicts itself on it. */
export function unitOf(name: string): ManipulateType | FormulaError {
  const u = UNITS[name] ?? UNITS[name.toLowerCase()];
  return (
    u ??
    new FormulaError(
      `Unknown unit "${name}": use one of milliseconds, seconds, minutes, hours, days, weeks, months, quarters, years`,
    )
  );
}

const CLOCK_UNITS: ReadonlySet<string> = new Set(['millisecond', 'second', 'minute', 'hour']);
const WALL_CLOCK = 'YYYY-MM-DDTHH:mm:ss.SSS';

/**
 * Hours and smaller move the instant; days and larger move the calendar in the zone, so "1 day" across a
 * daylight-saving change keeps the time of day (dayjs's own add on a zoned date keeps the old offset instead).
 */
export function addToDate(
  d: FormulaDate,
  count: number,
  unit: ManipulateType,
  timeZone?: string,
): FormulaDate {
  const zone = d.timeZone ?? timeZone;
  let ms: number;
  if (CLOCK_UNITS.has(unit) || !zone || zone === 'UTC' || zone === 'GMT') {
    ms = dayjs.utc(d.ms).add(count, unit).valueOf();
  } else {
    const wall = dayjs.utc(zoned(d.ms, zone).format(WALL_CLOCK)).add(count, unit);
    ms = dayjs.tz(wall.format(WALL_CLOCK), zone).valueOf();
  }
  return new FormulaDate(ms, d.timeZone, d.locale);
}

/** a − b in whole units, truncated toward zero like Moment's diff. */
export function diffDates(a: FormulaDate, b: FormulaDate, unit: ManipulateType, timeZone?: string): number {
  return zoned(a.ms, timeZone).diff(zoned(b.ms, timeZone), unit as QUnitType | OpUnitType);
}

export function sameDate(
  a: FormulaDate,
  b: FormulaDate,
  unit: ManipulateType | undefined,
  timeZone?: string,
): boolean {
  if (!unit || unit === 'millisecond') return a.ms === b.ms;
  return zoned(a.ms, timeZone).isSame(zoned(b.ms, timeZone), unit as OpUnitType);
}

export interface DateParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: number;
}

export function dateParts(d: FormulaDate, timeZone?: string): DateParts {
  const z = zoned(d.ms, d.timeZone ?? timeZone);
  return {
    year: z.year(),
    month: z.month() + 1,
    day: z.date(),
    hour: z.hour(),
    minute: z.minute(),
    second: z.second(),
    weekday: z.day(),
  };
}

/** Week of the year; weeks start on `startDay` (0 = Sunday), week 1 contains January 1st (Excel's WEEKNUM). */
export function weekNumber(d: FormulaDate, startDay: number, timeZone?: string): number {
  const z = zoned(d.ms, d.timeZone ?? timeZone);
  const jan1 = Date.UTC(z.year(), 0, 1);
  const dayOfYear = (Date.UTC(z.year(), z.month(), z.date()) - jan1) / DAY_MS;
  const offset = (new Date(jan1).getUTCDay() - startDay + 7) % 7;
  return Math.floor((dayOfYear + offset) / 7) + 1;
}

/** Midnight at the start of the date's day in the zone. */
export function startOfDay(d: FormulaDate, timeZone?: string): FormulaDate {
  return new FormulaDate(
    zoned(d.ms, d.timeZone ?? timeZone)
      .startOf('day')
      .valueOf(),
    d.timeZone,
    d.locale,
  );
}

export function dayIndex(d: FormulaDate, timeZone?: string): number {
  const z = zoned(d.ms, d.timeZone ?? timeZone);
  return Math.round(Date.UTC(z.year(), z.month(), z.date()) / DAY_MS);
}
