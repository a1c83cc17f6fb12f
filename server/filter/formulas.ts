/**
 * The formula engine (core/formula) over stored records: filterByFormula and view filters, and formula
 * fields. A formula field is stored as Airtable stores it, with field ids in braces (so renaming a field
 * keeps it working); its result is computed when the record is written and stored with it, so it can be
 * sorted and filtered like any value. NOW() and TODAY() are therefore as of the last write of the record.
 */
import { FormulaCostError, compileFormula, parse, print, toCellValue } from '../../core/formula/index';
import type {
  CompiledFormula,
  Diagnostic,
  FormulaField,
  FormulaRecord,
  FormulaValue,
  Node,
} from '../../core/formula/index';
import { ServiceError, invalidRequest } from '../errors';
import type { Service } from '../service';
import type { Field, FieldSpec, Table } from '../store/catalog';
import type { StoredRecord } from '../store/records';
import { LINK_NAME_UNITS, RequestWork, filterTooExpensive, formulaTooExpensive } from '../cost';
import { jsonCell } from '../store/records';

/** A table's fields as the engine knows them, by name and by id (filterByFormula may use either). */
function formulaFields(table: Table): FormulaField[] {
  return table.fields.flatMap((f) => [
    { name: f.name, type: f.type },
    { name: f.id, type: f.type },
  ]);
}

function firstError(diagnostics: readonly Diagnostic[]): string {
  return diagnostics.find((d) => d.severity === 'error')?.message ?? 'please check your formula text.';
}

/** Airtable's wording for fields it does not know ("Unknown field names: a, b"), else the checker's message. */
function filterError(diagnostics: readonly Diagnostic[]): string {
  const unknown = diagnostics
    .filter((d) => d.severity === 'error' && d.code === 'unknown-field' && d.subject !== undefined)
    .map((d) => d.subject);
  return unknown.length > 0
    ? `Unknown field names: ${[...new Set(unknown)].join(', ')}`
    : firstError(diagnostics);
}

/** The AST with every field reference renamed by `rename`. */
function mapFields(node: Node, rename: (name: string) => string): Node {
  switch (node.kind) {
    case 'field':
      return { ...node, name: rename(node.name), bare: false };
    case 'call':
      return { ...node, args: node.args.map((a) => mapFields(a, rename)) };
    case 'unary':
      return { ...node, operand: mapFields(node.operand, rename) };
    case 'binary':
      return { ...node, left: mapFields(node.left, rename), right: mapFields(node.right, rename) };
    case 'group':
      return { ...node, expr: mapFields(node.expr, rename) };
    default:
      return node;
  }
}

const RESULT_TYPES: Record<string, string> = {
  number: 'number',
  boolean: 'checkbox',
  string: 'singleLineText',
};

export function installFormulas(service: Service): void {
  const { catalog, records } = service;
  const compiled = new Map<string, CompiledFormula>();

  const compile = (table: Table, text: string): CompiledFormula | undefined => {
    const key = `${table.id}\u0000${table.fields.length}\u0000${text}`;
    let f = compiled.get(key);
    if (!f) {
      const r = compileFormula(text, formulaFields(table));
      if (!r.ok) return undefined;
      f = r.formula;
      compiled.set(key, f);
    }
    return f;
  };

  service.compileFilter = (table, text, work) => {
    const r = compileFormula(text, formulaFields(table));
    if (!r.ok)
      throw new ServiceError(
        422,
        'INVALID_FILTER_BY_FORMULA',
        `The formula for filtering records is invalid: ${filterError(r.diagnostics)}`,
      );
    const formula = r.formula;
    const used = formula.referencedFields
      .map((name) => catalog.field(table, name))
      .filter((f): f is Field => !!f);
    const referenced = formula.referencedFields;
    // Links are their records' names in a filter, as on Airtable (FIND('Ann', ARRAYJOIN({Owner}))).
    const asNames = used.map((f) =>
      f.type === 'multipleRecordLinks' ? records.linkedNames(f, work) : undefined,
    );
    const ctx = { budget: work };
    const test = (rec: StoredRecord) => {
      work.nextRecord();
      try {
        const fields = Object.create(null) as Record<string, unknown>;
        used.forEach((f, i) => {
          const cell = jsonCell(f, rec);
          const toNames = asNames[i];
          // Each linked record's name is a lookup, charged before it is made (and its record's size when read).
          if (toNames && Array.isArray(cell)) work.spend(cell.length * LINK_NAME_UNITS);
          fields[referenced[i]!] = toNames ? toNames(cell) : cell;
        });
        return formula.matches(
          { id: rec.id, createdTime: rec.createdTime, lastModifiedTime: rec.modifiedTime, fields },
          ctx,
        );
      } catch (e) {
        if (e instanceof FormulaCostError) throw filterTooExpensive(e.message);
        throw e;
      }
    };
    return { test, reads: used };
  };

  catalog.formulaCheck = (text: string, table: Table, self: FieldSpec) => {
    const r = compileFormula(text, formulaFields(table));
    if (!r.ok)
      throw invalidRequest(
        `The formula of field ${JSON.stringify(self.name)} is invalid: ${firstError(r.diagnostics)}`,
      );
    const parsed = parse(text);
    if (!parsed.ok) throw invalidRequest(`The formula of field ${JSON.stringify(self.name)} is invalid`);
    const idOf = (name: string) => catalog.field(table, name)?.id ?? name;
    const byIds = print(mapFields(parsed.ast, idOf));
    const referencedFieldIds = [...new Set(r.formula.referencedFields.map(idOf))];
    // The result type is what the formula gives for an empty record unless the caller says otherwise.
    const given = (self.options?.result as { type?: unknown } | undefined)?.type;
    let sample: FormulaValue;
    try {
      sample = r.formula.evaluate(
        { id: 'rec', createdTime: new Date().toISOString(), fields: {} },
        { budget: new RequestWork() },
      );
    } catch (e) {
      if (!(e instanceof FormulaCostError)) throw e;
      throw formulaTooExpensive(self.name);
    }
    const type = typeof given === 'string' ? given : (RESULT_TYPES[typeof sample] ?? 'singleLineText');
    return { formula: byIds, isValid: true, referencedFieldIds, result: { type } };
  };

  // A record's formulas spend from `work`: its write's (one for all it causes) or a recompute's, shared by all
  // its records. A formula too expensive for its record is #ERROR! there; past the write's, it is refused.
  records.computeFormulas = (table, rec, work = new RequestWork()) => {
    // The record's times as their fields read them: the same for every formula field of the record.
    let times: FormulaRecord['fields'] | undefined;
    for (const field of table.fields) {
      if (field.type !== 'formula') continue;
      times ??= Object.fromEntries(
        table.fields
          .filter((f) => f.type === 'createdTime' || f.type === 'lastModifiedTime')
          .map((f) => [f.id, jsonCell(f, rec)]),
      );
      const formula = compile(table, String(field.options?.formula ?? ''));
      const fields: FormulaRecord['fields'] = { ...rec.data, ...times };
      let value: unknown = { error: '#ERROR!' };
      if (formula) {
        work.nextRecord();
        try {
          value = toCellValue(
            formula.evaluate(
              { id: rec.id, createdTime: rec.createdTime, lastModifiedTime: rec.modifiedTime, fields },
              { budget: work },
            ),
          );
        } catch (e) {
          if (!(e instanceof FormulaCostError)) throw e;
          if (work.spent) throw formulaTooExpensive(field.name);
        }
      }
      if (value === undefined) delete rec.data[field.id];
      else rec.data[field.id] = value;
    }
  };
}
