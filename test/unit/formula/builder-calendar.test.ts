/**
 * The filter builder's days in the user's calendar (core/formula/builder/calendar): "this week / month /
 * year", "within the last / next N days" and "is / before / after a day" keep the records whose day, as the
 * user reads it in their time zone, is in that period, weeks from the locale's first day. Each formula is
 * evaluated by the engine the local server runs (GMT, as Airtable computes), at instants around a week,
 * month and year boundary in zones far from GMT; what it should keep is worked out here with Intl alone.
 */
import { describe, expect, it } from 'vitest';
import { compileFormula } from '../../../core/formula';
import {
  readFilter,
  writeFilter,
  type BuilderField,
  type Calendar,
  type Condition,
  type Filter,
} from '../../../core/formula/builder';
import { firstDayOfWeek } from '../../../renderer/src/formula/builder/calendar';

const FIELDS: BuilderField[] = [
  { name: 'Due', type: 'date' },
  { name: 'When', type: 'dateTime' },
  { name: 'Made', type: 'createdTime' },
];

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** An instant's day in a zone, by Intl's own calendar (not the code under test). */
const localDay = (ms: number, timeZone: string) =>
  new Intl.DateTimeFormat('sv-SE', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    ms,
  );
const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY;
/** The first day of the week holding `day` (a day number), weeks from `firstDay` (0 Sunday). */
const weekOf = (n: number, firstDay: number) => n - ((((n + 4) % 7) - firstDay + 7) % 7);

function expected(c: Condition, value: number | string | undefined, now: number, cal: Calendar): boolean {
  if (value === undefined) return false;
  const day = typeof value === 'string' ? value : localDay(value, cal.timeZone);
  const today = localDay(now, cal.timeZone);
  const [d, t] = [dayNumber(day), dayNumber(today)];
  switch (c.op) {
    case 'thisWeek':
      return weekOf(d, cal.firstDay) === weekOf(t, cal.firstDay);
    case 'thisMonth':
      return day.slice(0, 7) === today.slice(0, 7);
    case 'thisYear':
      return day.slice(0, 4) === today.slice(0, 4);
    case 'lastDays':
      return t - d >= 0 && t - d <= c.days;
    case 'nextDays':
      return d - t >= 0 && d - t <= c.days;
    case 'on':
      return day === c.date;
    case 'before':
      return day < c.date;
    case 'after':
      return day > c.date;
    default:
      throw new Error(c.op);
  }
}

/** Instants every 5 hours over 8 days either side of `now`: each side of the local midnights near it. */
const around = (now: number) => Array.from({ length: 77 }, (_, i) => now + (i - 38) * 5 * HOUR + 7 * 60_000);

function kept(formula: string, field: string, values: (number | string | undefined)[], now: number) {
  const compiled = compileFormula(formula, FIELDS);
  if (!compiled.ok) throw new Error(`${formula}: ${compiled.diagnostics[0]?.message}`);
  return values.map((v) => {
    const cell = typeof v === 'number' ? new Date(v).toISOString() : v;
    const fields = cell === undefined ? {} : { [field]: cell };
    return compiled.formula.matches(
      { id: 'rec1', createdTime: new Date(now).toISOString(), fields },
      { now: new Date(now) },
    );
  });
}

const CALENDARS: Calendar[] = [
  { timeZone: 'Pacific/Kiritimati', firstDay: 1 }, // UTC+14, weeks from Monday (en-GB)
  { timeZone: 'Pacific/Pago_Pago', firstDay: 0 }, // UTC-11, weeks from Sunday (en-US)
  { timeZone: 'Asia/Tehran', firstDay: 6 }, // UTC+3:30, weeks from Saturday (fa-IR)
  { timeZone: 'America/St_Johns', firstDay: 1 }, // UTC-3:30 (-2:30 in summer)
];

/** Nows just past a local midnight that starts a week, a month and a year somewhere, and one in summer time. */
const NOWS = [
  '2026-11-29T15:00:00Z', // Sunday in GMT, Monday in Kiritimati
  '2026-12-31T12:30:00Z', // the new year in Kiritimati, not in GMT
  '2027-01-01T09:00:00Z', // still 2026 in Pago Pago
  '2026-06-30T23:30:00Z', // July in Tehran, June in GMT; summer time in St John's
].map(Date.parse);

const CONDITIONS = (field: string): Condition[] => [
  { field, op: 'thisWeek' },
  { field, op: 'thisMonth' },
  { field, op: 'thisYear' },
  { field, op: 'lastDays', days: 3 },
  { field, op: 'nextDays', days: 0 },
];

describe("the filter builder's days in the user's calendar", () => {
  it("keeps a date-time by its day in the user's zone, weeks from the locale's first day", () => {
    for (const cal of CALENDARS) {
      // GMT's days (the formulas written without a calendar) keep other records here: the cases tell them apart.
      let gmtWrong = 0;
      for (const now of NOWS)
        for (const c of [...CONDITIONS('When'), { field: 'Made', op: 'thisWeek' } as const]) {
          const filter: Filter = { join: 'AND', items: [c] };
          const formula = writeFilter(filter, FIELDS, cal);
          expect(readFilter(formula, FIELDS), formula).toEqual({ ok: true, filter });
          const values = around(now);
          const want = values.map((v) => expected(c, v, now, cal));
          const at = `${cal.timeZone} ${new Date(now).toISOString()} ${formula}`;
          expect(kept(formula, c.field, values, now), at).toEqual(want);
          if (
            JSON.stringify(kept(writeFilter(filter, FIELDS), c.field, values, now)) !== JSON.stringify(want)
          )
            gmtWrong++;
        }
      expect(gmtWrong, cal.timeZone).toBeGreaterThan(10);
    }
  });

  it("keeps a date (no time) by its own day, today the user's, and never a blank one", () => {
    for (const cal of CALENDARS)
      for (const now of NOWS) {
        const days = Array.from({ length: 21 }, (_, i) => localDay(now + (i - 10) * DAY, 'UTC'));
        for (const c of CONDITIONS('Due')) {
          const formula = writeFilter({ join: 'AND', items: [c] }, FIELDS, cal);
          expect(readFilter(formula, FIELDS)).toEqual({ ok: true, filter: { join: 'AND', items: [c] } });
          const values = [...days, undefined];
          expect(kept(formula, 'Due', values, now), formula).toEqual(
            values.map((v) => expected(c, v, now, cal)),
          );
        }
      }
  });

  it('is, before and after a day: the day the user reads a date-time on', () => {
    const now = NOWS[0] as number;
    for (const cal of CALENDARS)
      for (const op of ['on', 'before', 'after'] as const) {
        const values = around(now);
        const date = localDay(now, cal.timeZone);
        const c: Condition = { field: 'When', op, date };
        const formula = writeFilter({ join: 'AND', items: [c] }, FIELDS, cal);
        expect(readFilter(formula, FIELDS)).toEqual({ ok: true, filter: { join: 'AND', items: [c] } });
        expect(kept(formula, 'When', values, now), formula).toEqual(
          values.map((v) => expected(c, v, now, cal)),
        );
      }
  });

  it("takes the week's first day from the locale", () => {
    expect(firstDayOfWeek('en-US')).toBe(0);
    expect(firstDayOfWeek('en-GB')).toBe(1);
    expect(firstDayOfWeek('de')).toBe(1);
    expect(firstDayOfWeek('fa-IR')).toBe(6);
    expect(firstDayOfWeek('not a locale!')).toBe(1);
  });
});
