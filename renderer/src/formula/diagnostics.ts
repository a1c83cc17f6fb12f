/**
 * What the formula bar reports for a formula. When the table's schema was refused (403), the fields known are
 * only those inferred from the records loaded so far, and an empty cell is absent from a record, so a field
 * the checker has not seen may well exist. There an unknown field is a warning, not an error: the formula can
 * be applied, and the service, which knows the real fields, decides (its 422 then shows in the bar).
 */
import { checkFormula } from '../../../core/formula';
import type { Diagnostic, FormulaField } from '../../../core/formula';

const UNSEEN_FIELD = 'It is not among the fields loaded so far; the service will check it.';

/** The checker's message as a sentence, so the note can follow it. */
const sentence = (message: string): string => (/[.?]$/.test(message) ? message : `${message}.`);

export function formulaDiagnostics(
  text: string,
  fields: readonly FormulaField[],
  fieldsComplete: boolean,
): Diagnostic[] {
  // An empty bar is no filter at all, not a formula with something missing.
  if (text.trim() === '') return [];
  const diagnostics = checkFormula(text, fields);
  if (fieldsComplete) return diagnostics;
  return diagnostics.map((d) =>
    d.code === 'unknown-field'
      ? {
          ...d,
          severity: 'warning',
          message: `${sentence(d.message)} ${UNSEEN_FIELD}`,
        }
      : d,
  );
}
