/**
 * Dates as cellFormat=string writes them (and Airtable's own CSV export): in the field's date format
 * (`options.dateFormat.format`, Moment tokens: `l`, `LL`, `M/D/YYYY`, `D/M/YYYY`, `YYYY-MM-DD`) and, for a
 * date-time, its time format (`h:mma` or `HH:mm`) after a space. `l` and `LL` follow the user's locale.
 */

interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const pad = (n: number) => String(n).padStart(2, '0');

function partsIn(date: Date, timeZone: string): Parts {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    hourCycle: 'h23',
  }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  return {
    year: part('year'),
    month: part('month'),
    day: part('day'),
    hour: part('hour'),
    minute: part('minute'),
  };
}

const formatOf = (option: unknown): unknown =>
  typeof option === 'object' && option !== null ? (option as { format?: unknown }).format : undefined;

function datePart(date: Date, p: Parts, format: unknown, timeZone: string, locale: string): string {
  switch (format) {
    case 'M/D/YYYY':
      return `${p.month}/${p.day}/${p.year}`;
    case 'D/M/YYYY':
      return `${p.day}/${p.month}/${p.year}`;
    case 'YYYY-MM-DD':
      return `${p.year}-${pad(p.month)}-${pad(p.day)}`;
    case 'LL':
      return new Intl.DateTimeFormat(locale, { timeZone, dateStyle: 'long' }).format(date);
    default:
      return new Intl.DateTimeFormat(locale, {
        timeZone,
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
      }).format(date);
  }
}

function timePart(p: Parts, format: unknown): string {
  if (format === 'h:mma') return `${p.hour % 12 || 12}:${pad(p.minute)}${p.hour < 12 ? 'am' : 'pm'}`;
  return `${pad(p.hour)}:${pad(p.minute)}`;
}

/** A date field's `YYYY-MM-DD`, which names a day in no time zone. */
export function dateText(
  value: string,
  options: Record<string, unknown> | undefined,
  locale: string,
): string {
  const date = new Date(`${value}T00:00:00Z`);
  return datePart(date, partsIn(date, 'UTC'), formatOf(options?.dateFormat), 'UTC', locale);
}

/** A moment, shown in the request's time zone. */
export function dateTimeText(
  value: string,
  options: Record<string, unknown> | undefined,
  timeZone: string,
  locale: string,
): string {
  const date = new Date(value);
  const p = partsIn(date, timeZone);
  const day = datePart(date, p, formatOf(options?.dateFormat), timeZone, locale);
  return `${day} ${timePart(p, formatOf(options?.timeFormat))}`;
}
