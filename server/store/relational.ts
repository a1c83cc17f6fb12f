/**
 * Lookups, rollups and counts: fields computed from the records a link field of the same record points at.
 * Their options are Airtable's (`recordLinkFieldId`, `fieldIdInLinkedTable`, a rollup's `formula` over
 * `values`); their values are stored with the record like formula results, computed by the record store
 * whenever the record or a record it links to is written.
 */
import type { CompiledFormula, EvalBudget } from '../../core/formula/index';
import { compileFormula, resultType, toCellValue } from '../../core/formula/index';
import { invalidRequest } from '../errors';
import type { Field, Table } from './shapes';

type Options = Record<string, unknown>;

export const RELATIONAL_TYPES: ReadonlySet<string> = new Set(['multipleLookupValues', 'rollup', 'count']);

export const isRelational = (field: Field) => RELATIONAL_TYPES.has(field.type);

/** The one field a rollup formula may name: the looked-up values. */
const ROLLUP_FIELDS = [{ name: 'values', type: 'multipleLookupValues' }];

const ROLLUP_RESULTS: Record<string, string> = {
  number: 'number',
  logical: 'checkbox',
  date: 'dateTime',
  text: 'singleLineText',
};

const compiled = new Map<string, CompiledFormula>();

function compileRollup(formula: string): CompiledFormula | undefined {
  let f = compiled.get(formula);
  if (!f) {
    const r = compileFormula(formula, ROLLUP_FIELDS);
    if (!r.ok) return undefined;
    f = r.formula;
    compiled.set(formula, f);
  }
  return f;
}

/** What a lookup of `target` holds: its type and options, or for a computed field the type it computes. */
function lookupResult(target: Field): Options {
  if (target.type === 'count') return { type: 'number', options: { precision: 0 } };
  const computed = target.options?.result as Options | undefined;
  if (computed) return computed;
  return target.options ? { type: target.type, options: target.options } : { type: target.type };
}

/** The checked options of a new lookup, rollup or count field of `table`, with the result type derived. */
export function relationalOptions(
  type: string,
  name: string,
  given: Options | undefined,
  table: Table,
  tableById: (id: string) => Table | undefined,
): Options {
  const link = table.fields.find((f) => f.id === given?.recordLinkFieldId);
  if (!link || link.type !== 'multipleRecordLinks')
    throw invalidRequest(
      `options.recordLinkFieldId of ${JSON.stringify(name)} must name a link field of its table`,
    );
  if (type === 'count') return { isValid: true, recordLinkFieldId: link.id };
  const linked = tableById(String(link.options?.linkedTableId));
  const target = linked?.fields.find((f) => f.id === given?.fieldIdInLinkedTable);
  if (!target)
    throw invalidRequest(
      `options.fieldIdInLinkedTable of ${JSON.stringify(name)} must name a field of the linked table`,
    );
  const common = { isValid: true, recordLinkFieldId: link.id, fieldIdInLinkedTable: target.id };
  if (type === 'multipleLookupValues') return { ...common, result: lookupResult(target) };
  const formula = given?.formula;
  if (typeof formula !== 'string' || !compileRollup(formula))
    throw invalidRequest(
      `options.formula of ${JSON.stringify(name)} must be a formula over values, such as SUM(values)`,
    );
  const staticType = resultType(formula, ROLLUP_FIELDS) ?? 'text';
  return {
    ...common,
    formula,
    referencedFieldIds: [target.id],
    result: { type: ROLLUP_RESULTS[staticType] ?? 'singleLineText' },
  };
}

/**
 * A relational field's cell from the linked records' values of the looked-up field (in link order, arrays
 * spread, blanks left out) and the number of links. A rollup past `budget` throws FormulaCostError.
 */
export function relationalCell(
  field: Field,
  values: unknown[],
  linkCount: number,
  budget: EvalBudget,
): unknown {
  if (field.type === 'count') return linkCount;
  if (field.type === 'multipleLookupValues') return values.length > 0 ? values : undefined;
  const formula = compileRollup(String(field.options?.formula ?? ''));
  if (!formula) return { error: '#ERROR!' };
  return toCellValue(formula.evaluate({ id: '', createdTime: '', fields: { values } }, { budget }));
}
