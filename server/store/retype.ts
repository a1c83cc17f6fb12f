/**
 * A field's cells when its type changes (a mirror's schema: the service re-typed the field), as the hosted
 * service does: each cell converted where the new type can hold it, the rest cleared, never an old-typed value
 * left in a field of the new type (a number in a text field, a choice's name in a number field). The conversion
 * is the public write's typecast (text to number, number to text, a choice's name to text and back where the
 * field has that choice, …), adding no choice and making no linked record: the schema given is the service's.
 */
import { ServiceError } from '../errors';
import type { Field } from './catalog';
import { isComputed } from './catalog';
import { writeCell } from './cells';
import type { CellWriter } from './cells';
import { TEXT_CELLS } from './lookups';

/** Cells naming other things (records, files), which no other type holds and no other type's cell names. */
const OWN_TYPES: ReadonlySet<string> = new Set(['multipleRecordLinks', 'multipleAttachments']);

const refused = () => new ServiceError(422, 'INVALID_VALUE_FOR_COLUMN', 'not convertible');

const converter: CellWriter = {
  typecast: true,
  addChoice: () => {
    throw refused();
  },
  existingLinks: () => new Set(),
  linksByPrimary: () => {
    throw refused();
  },
  attachmentAt: () => undefined,
};

/** `value`, a cell of `from`, as a cell of `to` (its new type): undefined when cleared. */
export function retypedCell(from: Field, to: Field, value: unknown): unknown {
  if (value === undefined || value === null) return undefined;
  if (isComputed(to) || OWN_TYPES.has(from.type) || OWN_TYPES.has(to.type)) return undefined;
  // A list (multiple selects) as one text is its items joined, as typecast splits a text at its commas.
  const given =
    Array.isArray(value) && TEXT_CELLS.has(to.type)
      ? value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')
      : value;
  try {
    return writeCell(to, given, converter);
  } catch (e) {
    if (e instanceof ServiceError) return undefined;
    throw e;
  }
}
