/** Array functions (research §9.5), for lookups, multiple selects and links. A single value acts as a one-item list. */
import type { FunctionDef } from '../runtime';
import { FormulaDate, FormulaError, flatten, toNumber, toText, type FormulaValue } from '../values';
import { MAX_TEXT_LENGTH, asArray } from './args';

function uniqueKey(v: FormulaValue): unknown {
  return v instanceof FormulaDate ? `date:${v.ms}` : v;
}

function slice(args: FormulaValue[]): FormulaValue {
  const list = asArray(args[0] as FormulaValue);
  const start = toNumber(args[1] as FormulaValue);
  const end = args[2] === undefined ? list.length : toNumber(args[2]);
  if (start instanceof FormulaError) return start;
  if (end instanceof FormulaError) return end;
  // 1-based with the end included; negatives count from the end (-1 is the last item).
  const from = start < 0 ? list.length + start : start - 1;
  const to = end < 0 ? list.length + end + 1 : end;
  return list.slice(Math.max(0, from), Math.max(0, to));
}

export const arrayFunctions: FunctionDef[] = [
  {
    name: 'ARRAYCOMPACT',
    family: 'array',
    minArgs: 1,
    maxArgs: 1,
    pure: true,
    signature: 'ARRAYCOMPACT(values)',
    doc: 'The values without empty text and blanks.',
    call: ([v]) => asArray(v as FormulaValue).filter((x) => x !== null && x !== ''),
  },
  {
    name: 'ARRAYFLATTEN',
    family: 'array',
    minArgs: 1,
    maxArgs: 1,
    pure: true,
    signature: 'ARRAYFLATTEN(values)',
    doc: 'The values with nested lists flattened into one list.',
    call: ([v]) => flatten(asArray(v as FormulaValue)),
  },
  {
    name: 'ARRAYJOIN',
    family: 'array',
    minArgs: 1,
    maxArgs: 2,
    pure: true,
    signature: 'ARRAYJOIN(values, [separator])',
    // ", " by default, the separator rollups show (open question 11).
    doc: 'The values joined into one text with separator (default ", ").',
    call: ([v, sep]) => {
      const texts = flatten(asArray(v as FormulaValue))
        .filter((x) => x !== null)
        .map(toText);
      const separator = sep === undefined || sep === null ? ', ' : toText(sep);
      // A long separator between many items is checked before it is built, not after.
      let size = separator.length * Math.max(0, texts.length - 1);
      for (const t of texts) size += t.length;
      if (size > MAX_TEXT_LENGTH)
        return new FormulaError(
          `The result of ARRAYJOIN() is too large to compute (over ${MAX_TEXT_LENGTH} characters)`,
        );
      return texts.join(separator);
    },
  },
  {
    name: 'ARRAYUNIQUE',
    family: 'array',
    minArgs: 1,
    maxArgs: 1,
    pure: true,
    signature: 'ARRAYUNIQUE(values)',
    doc: 'The distinct values, in the order they first appear.',
    call: ([v]) => {
      const seen = new Set<unknown>();
      return asArray(v as FormulaValue).filter((x) => {
        const k = uniqueKey(x);
        if (seen.has(k)) return false;
        seen.add(k);
        return true;
      });
    },
  },
  {
    name: 'ARRAYSLICE',
    family: 'array',
    minArgs: 2,
    maxArgs: 3,
    pure: true,
    signature: 'ARRAYSLICE(values, start, [end])',
    doc: 'Items start to end (1-based, end included; negative counts from the end).',
    call: slice,
  },
];
