/**
 * The formula engine: Airtable's formula language, parsed into an AST with spans, checked against a table's
 * fields, compiled once into closures and evaluated per record. Used by the formula bar (check, complete),
 * the client (builders) and the local server (filterByFormula).
 */
export type { BinaryOp, Diagnostic, Node } from './ast';
export { COST, FormulaCostError, WorkBudget, type EvalBudget } from './budget';
export { COMPARISON_OPS } from './ast';
export { checkFormula } from './checker';
export { complete, type CompletionItem, type CompletionResult, type SignatureHelp } from './complete';
export { parse, type ParseResult } from './parser';
export { print, printFieldRef, printString } from './print';
export { and, fieldRef, literal, match, not, or, quoteString, type LiteralValue } from './build';
export { toCellValue, fromCell } from './cells';
export { FUNCTIONS, FUNCTION_NAMES } from './functions';
export type { EvalContext, FormulaRecord, FunctionDef } from './runtime';
export type { FormulaField, StaticType } from './types';
export { FormulaDate, FormulaError, toText, truthy, type FormulaValue } from './values';
export { compileFormula, formatFormula, resultType } from './engine';
export type { CompiledFormula, CompileResult } from './engine';
