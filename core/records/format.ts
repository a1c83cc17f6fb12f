/**
 * Display text shared by the app and the local server: durations in their field's format, ratings out of
 * their maximum, field type names as people read them, and counted nouns.
 */

/** Airtable's duration formats: hours and minutes, with seconds, with tenths, hundredths or thousandths. */
const DURATION_DECIMALS: Readonly<Record<string, number>> = {
  'h:mm:ss': 0,
  'h:mm:ss.S': 1,
  'h:mm:ss.SS': 2,
  'h:mm:ss.SSS': 3,
};

/**
 * Seconds as the field's `durationFormat` shows them (`h:mm` when absent or unknown, as on Airtable): rounded
 * to the format's last unit first, so 59.96 s in `h:mm:ss.S` is `0:01:00.0`, not `0:00:60.0`.
 */
export function formatDuration(seconds: number, durationFormat?: unknown): string {
  const sign = seconds < 0 ? '-' : '';
  const decimals = typeof durationFormat === 'string' ? DURATION_DECIMALS[durationFormat] : undefined;
  const pad = (n: number) => String(n).padStart(2, '0');
  if (decimals === undefined) {
    const minutes = Math.round(Math.abs(seconds) / 60);
    return `${sign}${Math.floor(minutes / 60)}:${pad(minutes % 60)}`;
  }
  const scale = 10 ** decimals;
  const units = Math.round(Math.abs(seconds) * scale);
  const whole = Math.floor(units / scale);
  const fraction = decimals > 0 ? `.${String(units % scale).padStart(decimals, '0')}` : '';
  return `${sign}${Math.floor(whole / 3600)}:${pad(Math.floor(whole / 60) % 60)}:${pad(whole % 60)}${fraction}`;
}

/** A rating field's maximum: `options.max` between 1 and 10, else Airtable's default of 5. */
export function ratingMax(options: Readonly<Record<string, unknown>> | null | undefined): number {
  const max = options?.['max'];
  return typeof max === 'number' && Number.isInteger(max) && max >= 1 && max <= 10 ? max : 5;
}

/** Filled stars for the value, empty ones up to the maximum: 2 of 5 is ★★☆☆☆. */
export function formatRating(value: number, max: number): string {
  const filled = Math.max(0, Math.min(max, Math.round(value)));
  return '★'.repeat(filled) + '☆'.repeat(max - filled);
}

const TYPE_NAMES: Readonly<Record<string, string>> = {
  singleLineText: 'Single line text',
  multilineText: 'Long text',
  richText: 'Rich text',
  email: 'Email',
  url: 'URL',
  phoneNumber: 'Phone number',
  number: 'Number',
  currency: 'Currency',
  percent: 'Percent',
  duration: 'Duration',
  rating: 'Rating',
  checkbox: 'Checkbox',
  date: 'Date',
  dateTime: 'Date and time',
  singleSelect: 'Single select',
  multipleSelects: 'Multiple select',
  singleCollaborator: 'User',
  multipleCollaborators: 'Users',
  multipleRecordLinks: 'Link to another record',
  multipleAttachments: 'Attachment',
  multipleLookupValues: 'Lookup',
  lookup: 'Lookup',
  rollup: 'Rollup',
  count: 'Count',
  formula: 'Formula',
  autoNumber: 'Autonumber',
  barcode: 'Barcode',
  button: 'Button',
  createdTime: 'Created time',
  lastModifiedTime: 'Last modified time',
  createdBy: 'Created by',
  lastModifiedBy: 'Last modified by',
  externalSyncSource: 'Sync source',
  aiText: 'AI text',
};

/** A field type as people name it ("Single line text"); a type the app does not know is spelt out from its id. */
export function fieldTypeName(type: string): string {
  const known = TYPE_NAMES[type];
  if (known !== undefined) return known;
  const words = type.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** "1 record", "2 records", "1,234 records". */
export function plural(n: number, noun: string): string {
  return `${n.toLocaleString()} ${noun}${n === 1 ? '' : 's'}`;
}
