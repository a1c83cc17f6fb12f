/**
 * A formula from text to a compiled, checked closure: parse, check against a table's fields, compile once,
 * evaluate per record; and the result's static type and canonical text, for the formula bar and the server.
 */
import type { Diagnostic, Node } from './ast';
import { checkAst, fieldMap } from './checker';
import { compileAst, referencedFields } from './compile';
import { parse } from './parser';
import { print } from './print';
import type { EvalContext, FormulaRecord } from './runtime';
import { staticType, type FormulaField, type StaticType } from './types';
import { truthy, type FormulaValue } from './values';

export interface CompiledFormula {
  evaluate(record: FormulaRecord, ctx?: EvalContext): FormulaValue;
  /** Filter truthiness: kept unless 0, false, "", blank, NaN, [] or an error. */
  matches(record: FormulaRecord, ctx?: EvalContext): boolean;
  referencedFields: readonly string[];
}

export type CompileResult =
  | { ok: true; formula: CompiledFormula; diagnostics: Diagnostic[] }
  | { ok: false; diagnostics: Diagnostic[] };

const NO_CONTEXT: EvalContext = {};

/** Parses, checks and compiles; the result evaluates records without parsing again. Never throws. */
export function compileFormula(text: string, fields: readonly FormulaField[]): CompileResult {
  const parsed = parse(text);
  if (!parsed.ok) return { ok: false, diagnostics: parsed.diagnostics };
  const byName = fieldMap(fields);
  const diagnostics = checkAst(parsed.ast, byName);
  if (diagnostics.some((d) => d.severity === 'error')) return { ok: false, diagnostics };
  const run = compileAst(parsed.ast, byName);
  const formula: CompiledFormula = {
    evaluate: (record, ctx = NO_CONTEXT) => run(record, ctx),
    matches: (record, ctx = NO_CONTEXT) => truthy(run(record, ctx)),
    referencedFields: referencedFields(parsed.ast, byName),
  };
  return { ok: true, formula, diagnostics };
}

/** The static type of a formula's result (see ./types), or undefined when the formula has errors. */
export function resultType(text: string, fields: readonly FormulaField[]): StaticType | undefined {
  const parsed = parse(text);
  if (!parsed.ok) return undefined;
  const byName = fieldMap(fields);
  if (checkAst(parsed.ast, byName).some((d) => d.severity === 'error')) return undefined;
  return staticType(parsed.ast, byName);
}

/** Canonical text of a formula (or of an AST); text that does not parse is returned as it is. */
export function formatFormula(input: string | Node): string {
  if (typeof input !== 'string') return print(input);
  const parsed = parse(input);
  return parsed.ok ? print(parsed.ast) : input;
}
