/**
 * The user's calendar for the formulas the filter builder and "Filter by this field" write
 * (core/formula/builder/calendar): the time zone the grid shows date-times in, and the first day of the
 * week in the user's locale (Intl.Locale's week info; where the runtime lacks it, the regions that start on
 * Sunday or Saturday are known, and every other starts on Monday as ISO 8601 does).
 */
import type { Calendar } from '../../../../core/formula/builder';

const SUNDAY_REGIONS = new Set([
  'US',
  'CA',
  'MX',
  'BR',
  'JP',
  'KR',
  'TW',
  'HK',
  'CN',
  'IL',
  'IN',
  'PH',
  'ZA',
  'SA',
  'PE',
  'CO',
  'VE',
  'AR',
]);
const SATURDAY_REGIONS = new Set([
  'AE',
  'AF',
  'BH',
  'DJ',
  'DZ',
  'EG',
  'IQ',
  'IR',
  'JO',
  'KW',
  'LY',
  'OM',
  'QA',
  'SD',
  'SY',
]);

interface WeekInfo {
  /** 1 Monday … 7 Sunday. */
  firstDay: number;
}
type WithWeekInfo = Intl.Locale & { getWeekInfo?: () => WeekInfo; weekInfo?: WeekInfo };

/** 0 Sunday … 6 Saturday for a BCP 47 tag. */
export function firstDayOfWeek(tag: string): number {
  let locale: WithWeekInfo;
  try {
    locale = new Intl.Locale(tag).maximize() as WithWeekInfo;
  } catch {
    return 1;
  }
  const info = locale.getWeekInfo?.() ?? locale.weekInfo;
  if (info && Number.isInteger(info.firstDay) && info.firstDay >= 1 && info.firstDay <= 7)
    return info.firstDay % 7;
  const region = locale.region ?? '';
  return SUNDAY_REGIONS.has(region) ? 0 : SATURDAY_REGIONS.has(region) ? 6 : 1;
}

/** The user's calendar now (the zone and locale can change while the app runs). */
export function userCalendar(): Calendar {
  const { timeZone, locale } = Intl.DateTimeFormat().resolvedOptions();
  return { timeZone: timeZone || 'UTC', firstDay: firstDayOfWeek(navigator.language || locale) };
}
