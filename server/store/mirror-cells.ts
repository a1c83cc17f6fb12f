/**
 * The shape each stored cell of a type has, checked on a mirror's writes: the mirror route takes values as
 * the hosted service gave them (no typecast, computed ones too), so a broken or hostile service's number in a
 * text field would otherwise sit in the copy as no write of the public API could put it, and read back in a
 * shape the app does not expect. Computed cells take any JSON value: a formula's result has no fixed type.
 */
import type { Field } from './catalog';

const RECORD_ID = /^rec[A-Za-z0-9]{14}$/;
const TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

const isText = (v: unknown) => typeof v === 'string';
const isNumber = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
const isTextList = (v: unknown) => Array.isArray(v) && v.every(isText);

const SHAPES: Record<string, [(v: unknown) => boolean, string]> = {
  singleLineText: [isText, 'text'],
  multilineText: [isText, 'text'],
  email: [isText, 'text'],
  url: [isText, 'text'],
  phoneNumber: [isText, 'text'],
  singleSelect: [isText, 'text'],
  number: [isNumber, 'a number'],
  currency: [isNumber, 'a number'],
  percent: [isNumber, 'a number'],
  duration: [isNumber, 'a number'],
  rating: [isNumber, 'a number'],
  autoNumber: [isNumber, 'a number'],
  count: [isNumber, 'a number'],
  checkbox: [(v) => typeof v === 'boolean', 'true or false'],
  date: [(v) => typeof v === 'string' && TIME.test(v), 'a date'],
  dateTime: [(v) => typeof v === 'string' && TIME.test(v), 'a time'],
  multipleSelects: [isTextList, 'a list of texts'],
  multipleRecordLinks: [
    (v) => Array.isArray(v) && v.every((x) => typeof x === 'string' && RECORD_ID.test(x)),
    'a list of record ids',
  ],
};

/** What is wrong with a cell a mirror writes, or undefined when its type may hold it. */
export function mirrorCellProblem(field: Field, value: unknown): string | undefined {
  const shape = SHAPES[field.type];
  if (!shape || shape[0](value)) return undefined;
  return `a ${field.type} cell holds ${shape[1]}`;
}
