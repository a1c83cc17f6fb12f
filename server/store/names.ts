/**
 * Names a person reads (bases, tables, fields, views, select options): no control characters (NUL breaks
 * SQL text and C strings, newlines break one-line displays) and no bidirectional embedding, override or
 * isolate characters (U+202A–U+202E, U+2066–U+2069), which make a name display as something else.
 */
const CONTROL = /\p{Cc}/u;
const BIDI = /[\u202A-\u202E\u2066-\u2069]/u;

/** What is wrong with a name ("contains a control character"), or undefined when it is acceptable. */
export function nameProblem(name: string): string | undefined {
  if (CONTROL.test(name)) return 'contains a control character';
  if (BIDI.test(name)) return 'contains a bidirectional override character';
  return undefined;
}
