/** The function catalogue, by upper-case name. */
import type { FunctionDef } from '../runtime';
import { arrayFunctions } from './arrays';
import { dateFunctions } from './dates';
import { logicalFunctions } from './logical';
import { numericFunctions } from './numeric';
import { recordFunctions } from './record';
import { regexFunctions } from './regex';
import { textFunctions } from './text';

export const FUNCTIONS: ReadonlyMap<string, FunctionDef> = new Map(
  [
    ...textFunctions,
    ...logicalFunctions,
    ...numericFunctions,
    ...dateFunctions,
    ...arrayFunctions,
    ...recordFunctions,
    ...regexFunctions,
  ].map((f) => [f.name, f]),
);

export const FUNCTION_NAMES: readonly string[] = [...FUNCTIONS.keys()].sort();

/** Names from other spreadsheets, with the Airtable way to get the same result (research §8). */
export const FOREIGN_FUNCTIONS: Readonly<Record<string, string>> = {
  IFERROR: 'use IF(ISERROR(x), fallback, x)',
  ISBLANK: 'compare with BLANK(): x = BLANK()',
  CONCAT: 'use CONCATENATE() or &',
  DATEDIFF: 'use DATETIME_DIFF(date1, date2, "days")',
  SUMIF: 'not available in formulas: use a rollup field',
  COUNTIF: 'not available in formulas: use a rollup or count field',
  VLOOKUP: 'not available in formulas: use a linked record and a lookup field',
  LENGTH: 'use LEN()',
  SUBSTR: 'use MID()',
  CONTAINS: 'use FIND(needle, haystack) > 0',
  ISNUMBER: 'there is no type test: compare VALUE(x) or use REGEX_MATCH()',
  ROUNDOFF: 'use ROUND()',
  STRING: 'use x & ""',
  TEXT: 'use DATETIME_FORMAT() for dates or x & "" for numbers',
  DATE: 'use DATETIME_PARSE("2024-05-01")',
  NOT_EQUAL: 'use !=',
};
