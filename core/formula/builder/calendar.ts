/**
 * The user's calendar in the formulas the builder writes. Formulas compute dates in GMT (TODAY() is GMT's
 * day), so "this week" written as plain TODAY() arithmetic was Sunday to Saturday in GMT for everyone. With a
 * calendar, a date-time's day is its day in the user's time zone (`DATETIME_FORMAT(SET_TIMEZONE(…), …)`, the
 * only documented way to read a date in a zone; WEEKDAY, IS_SAME and DATEADD ignore SET_TIMEZONE), today is
 * the user's today, and a week starts on the user's first day. Those local days are 'YYYY-MM-DD' text, which
 * the date functions read as that day at midnight GMT, so the rest of the arithmetic stays in GMT on local days.
 *
 * The zone is the user's, not the field's `timeZone` option: the grid shows every date-time in the user's zone,
 * and a filter must agree with the days the user sees. A date field (no time) holds a calendar day that no
 * zone shifts, so only its "today" is the user's.
 */
import { quoteString } from '../build';
import { dayInZone as zonedDay } from '../datetime';
import { invariant } from '../../invariant';

export interface Calendar {
  /** An IANA time zone, e.g. "Pacific/Auckland". */
  timeZone: string;
  /** The week's first day: 0 Sunday, 1 Monday, … 6 Saturday. */
  firstDay: number;
}

/** The format of a local day: the text the date functions read back as that day. */
export const DAY_FORMAT = 'YYYY-MM-DD';

/** Date-time kinds, whose day depends on the zone (a `date` field's does not). */
const WITH_TIME = new Set(['dateTime', 'createdTime', 'lastModifiedTime']);

const inZone = (date: string, cal: Calendar) =>
  `DATETIME_FORMAT(SET_TIMEZONE(${date}, ${quoteString(cal.timeZone)}), ${quoteString(DAY_FORMAT)})`;

/** The field's day as the user reads it: a date field's own day, a date-time's day in the user's zone. */
export function dayOf(ref: string, type: string, cal: Calendar | undefined): string {
  return cal !== undefined && WITH_TIME.has(type) ? inZone(ref, cal) : ref;
}

/** Today: the user's (a local day), or GMT's `TODAY()` without a calendar. */
export function todayOf(cal: Calendar | undefined): string {
  return cal === undefined ? 'TODAY()' : inZone('NOW()', cal);
}

/**
 * The first day of the week holding `date`: `DATEADD(d, -WEEKDAY(d), 'days')` for weeks from Sunday,
 * `-WEEKDAY(d, 'Monday')` from Monday (WEEKDAY takes only those two), `-MOD(WEEKDAY(d) + k, 7)` otherwise.
 */
export function weekStart(date: string, firstDay = 0): string {
  invariant(
    Number.isInteger(firstDay) && firstDay >= 0 && firstDay <= 6,
    `A week cannot start on day ${firstDay}`,
  );
  const back =
    firstDay === 0
      ? `WEEKDAY(${date})`
      : firstDay === 1
        ? `WEEKDAY(${date}, 'Monday')`
        : `MOD(WEEKDAY(${date}) + ${7 - firstDay}, 7)`;
  return `DATEADD(${date}, -${back}, 'days')`;
}

/** An instant's day in a zone, 'YYYY-MM-DD' (undefined when the text is no instant). */
export function dayInZone(instant: string, timeZone: string): string | undefined {
  const ms = Date.parse(instant);
  return Number.isNaN(ms) ? undefined : zonedDay(ms, timeZone);
}
