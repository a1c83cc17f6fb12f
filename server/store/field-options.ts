import { invalidRequest } from '../errors';
import { newId } from '../ids';
import { nameProblem } from './names';

type Options = Record<string, unknown>;

const ISO_DATE = { name: 'iso', format: 'YYYY-MM-DD' };
const DATE_TIME = { dateFormat: ISO_DATE, timeFormat: { name: '24hour', format: 'HH:mm' }, timeZone: 'utc' };

const DEFAULTS: Record<string, Options | undefined> = {
  number: { precision: 0 },
  currency: { precision: 2, symbol: '$' },
  percent: { precision: 0 },
  duration: { durationFormat: 'h:mm' },
  rating: { icon: 'star', max: 5, color: 'yellowBright' },
  checkbox: { icon: 'check', color: 'greenBright' },
  date: { dateFormat: ISO_DATE },
  dateTime: DATE_TIME,
  multipleAttachments: { isReversed: false },
  createdTime: { result: { type: 'dateTime', options: DATE_TIME } },
  lastModifiedTime: {
    isValid: true,
    referencedFieldIds: [],
    result: { type: 'dateTime', options: DATE_TIME },
  },
};

/**
 * The most choices a select field holds, given or added by typecast: every schema read and change carries them
 * all, and 50,000 held the thread 3.4 s when the field was made and over a second at each later change of the
 * table's schema (20,000 added by one typecast write, 1.5 s).
 */
export const MAX_SELECT_CHOICES = 5_000;

function choices(given: Options | undefined): Options {
  const raw = given?.choices ?? [];
  if (!Array.isArray(raw)) throw invalidRequest('options.choices must be an array');
  if (raw.length > MAX_SELECT_CHOICES)
    throw invalidRequest(
      `A select field may have at most ${MAX_SELECT_CHOICES} choices (${raw.length} given)`,
    );
  const seen = new Set<string>();
  const list = raw.map((c: unknown) => {
    const name = typeof c === 'string' ? c : (c as { name?: unknown })?.name;
    if (typeof name !== 'string' || !name.trim()) throw invalidRequest('Every select choice needs a name');
    if (seen.has(name)) throw invalidRequest(`Duplicate select choice: ${JSON.stringify(name)}`);
    const problem = nameProblem(name);
    if (problem) throw invalidRequest(`The select choice ${JSON.stringify(name)} ${problem}`);
    seen.add(name);
    const color = typeof c === 'object' && c !== null ? (c as { color?: unknown }).color : undefined;
    return typeof color === 'string' ? { id: newId('sel'), name, color } : { id: newId('sel'), name };
  });
  return { choices: list };
}

/** The stored options of a new field: the given ones checked, with Airtable's defaults filled in. */
export function defaultFieldOptions(
  type: string,
  given: Options | undefined,
  linkedTableExists: (id: string) => boolean,
): Options | undefined {
  switch (type) {
    case 'singleSelect':
    case 'multipleSelects':
      return choices(given);
    case 'multipleRecordLinks': {
      const linkedTableId = given?.linkedTableId;
      if (typeof linkedTableId !== 'string' || !linkedTableExists(linkedTableId))
        throw invalidRequest('options.linkedTableId must name a table of the same base');
      return {
        linkedTableId,
        isReversed: false,
        prefersSingleRecordLink: given?.prefersSingleRecordLink === true,
      };
    }
    case 'rating': {
      const max = given?.max ?? 5;
      if (typeof max !== 'number' || !Number.isInteger(max) || max < 1 || max > 10)
        throw invalidRequest('options.max of a rating must be an integer from 1 to 10');
      return { ...DEFAULTS.rating, ...given, max };
    }
    case 'number':
    case 'currency':
    case 'percent': {
      const precision = given?.precision ?? DEFAULTS[type]!.precision;
      if (typeof precision !== 'number' || !Number.isInteger(precision) || precision < 0 || precision > 8)
        throw invalidRequest('options.precision must be an integer from 0 to 8');
      return { ...DEFAULTS[type], ...given, precision };
    }
    default: {
      const base = DEFAULTS[type];
      return base || given ? { ...base, ...given } : undefined;
    }
  }
}
