/**
 * The checker behind the formula bar and the server's filter: syntax errors, unknown functions and fields (with
 * the closest name offered), argument counts, and the mistakes the research lists (§8). Never throws.
 */
import { COMPARISON_OPS, type Diagnostic, type DiagnosticCode, type Node } from './ast';
import { isTimeZone, unitOf } from './datetime';
import { FOREIGN_FUNCTIONS, FUNCTIONS, FUNCTION_NAMES } from './functions';
import { compileRegex } from './functions/regex';
import { parse } from './parser';
import { printFieldRef } from './print';
import { didYouMean } from './suggest';
import { fieldStaticType, type FormulaField } from './types';
import { FormulaError } from './values';

const FIELD_ID = /^fld[A-Za-z0-9]{14}$/;
const NUMERIC_LITERAL = /^\s*-?\d+(\.\d+)?\s*$/;
/** Functions whose every argument is a number; text there is a mistake the formula bar can show at once. */
const NUMBER_ARGUMENTS = new Set([
  'ABS',
  'CEILING',
  'FLOOR',
  'EVEN',
  'ODD',
  'EXP',
  'INT',
  'LOG',
  'MOD',
  'POWER',
  'ROUND',
  'ROUNDUP',
  'ROUNDDOWN',
  'SQRT',
]);

function arity(min: number, max: number): string {
  if (min === max) return `${min} argument${min === 1 ? '' : 's'}`;
  if (max === Infinity) return `at least ${min} argument${min === 1 ? '' : 's'}`;
  return `${min} to ${max} arguments`;
}

function literalText(n: Node | undefined): string | undefined {
  return n?.kind === 'string' ? n.value : undefined;
}

class Checker {
  readonly diagnostics: Diagnostic[] = [];
  private readonly names: string[];

  constructor(private readonly fields: ReadonlyMap<string, FormulaField>) {
    this.names = [...fields.keys()];
  }

  private report(
    message: string,
    node: { start: number; end: number },
    code: DiagnosticCode,
    severity: Diagnostic['severity'] = 'error',
    subject?: string,
  ): void {
    const d: Diagnostic = { message, start: node.start, end: node.end, severity, code };
    if (subject !== undefined) d.subject = subject;
    this.diagnostics.push(d);
  }

  visit(node: Node): void {
    switch (node.kind) {
      case 'field':
        return this.field(node);
      case 'group':
        return this.visit(node.expr);
      case 'unary':
        return this.visit(node.operand);
      case 'binary':
        this.binary(node);
        this.visit(node.left);
        return this.visit(node.right);
      case 'call':
        this.call(node);
        return node.args.forEach((a) => this.visit(a));
      default:
        return;
    }
  }

  private field(node: Extract<Node, { kind: 'field' }>): void {
    if (this.fields.has(node.name)) return;
    if (node.bare && /^(TRUE|FALSE)$/i.test(node.name)) return;
    if (FIELD_ID.test(node.name)) {
      this.report(
        `Field ids such as ${node.name} are not allowed in formulas: use the field's name`,
        node,
        'unknown-field',
        'error',
        node.name,
      );
      return;
    }
    const near = didYouMean(node.name, this.names);
    const hint = near === undefined ? '' : `. Did you mean ${printFieldRef(near)}?`;
    const bare = node.bare
      ? ` (a word without braces is a field name; write functions with parentheses, like ${node.name.toUpperCase()}())`
      : '';
    this.report(
      `Unknown field ${printFieldRef(node.name)}${hint}${bare}`,
      node,
      'unknown-field',
      'error',
      node.name,
    );
  }

  private binary(node: Extract<Node, { kind: 'binary' }>): void {
    if (COMPARISON_OPS.has(node.op)) {
      const joined = [node.left, node.right].some((side) => side.kind === 'binary' && side.op === '&');
      if (joined) {
        this.report(
          `Add parentheses: ${node.op} compares the joined text, as in (a & b) ${node.op} c; write a & (b ${node.op} c) to join the comparison`,
          node,
          'precedence',
          'warning',
        );
      }
      if (node.op === '=' || node.op === '!=') this.blankNumber(node);
    }
    if (node.op === '+' || node.op === '-' || node.op === '*' || node.op === '/') {
      for (const side of [node.left, node.right]) {
        if (side.kind === 'string' && !NUMERIC_LITERAL.test(side.value)) {
          const fix = node.op === '+' ? 'use & to join text' : 'use VALUE() to read a number from text';
          this.report(`Text cannot be used with ${node.op}: ${fix}`, side, 'type');
        }
      }
    }
  }

  /** `{Qty} = BLANK()` is also true for 0 (research §5): say so, and how to find only empty cells. */
  private blankNumber(node: Extract<Node, { kind: 'binary' }>): void {
    const isBlank = (n: Node) => n.kind === 'call' && n.name === 'BLANK' && n.args.length === 0;
    const other = isBlank(node.right) ? node.left : isBlank(node.left) ? node.right : undefined;
    if (other?.kind !== 'field' || fieldStaticType(this.fields.get(other.name)?.type ?? '') !== 'number')
      return;
    const ref = printFieldRef(other.name);
    this.report(
      `A 0 in ${ref} also equals BLANK(): to find empty cells only, use LEN(${ref} & "") ${node.op === '=' ? '=' : '>'} 0`,
      node,
      'blank-number',
      'warning',
    );
  }

  private call(node: Extract<Node, { kind: 'call' }>): void {
    const nameSpan = { start: node.start, end: node.nameEnd };
    const def = FUNCTIONS.get(node.name);
    if (!def) {
      const foreign = FOREIGN_FUNCTIONS[node.name];
      const near = didYouMean(node.name, FUNCTION_NAMES);
      const message = foreign
        ? `${node.name}() does not exist in formulas: ${foreign}`
        : `Unknown function ${node.name}()${near ? `. Did you mean ${near}()?` : ''}`;
      return this.report(message, nameSpan, 'unknown-function', 'error', node.name);
    }
    const n = node.args.length;
    if (n < def.minArgs || n > def.maxArgs) {
      const message = `${def.name}() takes ${arity(def.minArgs, def.maxArgs)} but got ${n}: ${def.signature}`;
      return this.report(message, node, 'arguments');
    }
    this.literalArguments(node);
  }

  /** Literal arguments that can be checked now: numbers, units, time zones, regexes, field lists. */
  private literalArguments(node: Extract<Node, { kind: 'call' }>): void {
    const bad = (message: string, at: Node) => this.report(message, at, 'type');
    if (NUMBER_ARGUMENTS.has(node.name)) {
      for (const a of node.args) {
        if (a.kind === 'string' && !NUMERIC_LITERAL.test(a.value))
          bad(`${node.name}() needs a number here, not text: use VALUE() to read a number from text`, a);
      }
    }
    const unitArg = ['DATEADD', 'DATETIME_DIFF', 'IS_SAME'].includes(node.name) ? 2 : -1;
    const unit = literalText(node.args[unitArg]);
    const unitError = unit === undefined ? undefined : unitOf(unit);
    if (unitError instanceof FormulaError) bad(unitError.message, node.args[unitArg] as Node);
    const tz = node.name === 'SET_TIMEZONE' ? literalText(node.args[1]) : undefined;
    if (tz !== undefined && !isTimeZone(tz))
      bad(`Unknown time zone "${tz}": use an IANA name such as "Europe/Paris"`, node.args[1] as Node);
    const regex = node.name.startsWith('REGEX_') ? literalText(node.args[1]) : undefined;
    const re = regex === undefined ? undefined : compileRegex(regex);
    if (re instanceof FormulaError) bad(re.message, node.args[1] as Node);
    if (node.name === 'LAST_MODIFIED_TIME') {
      for (const a of node.args)
        if (a.kind !== 'field') bad('LAST_MODIFIED_TIME() takes only field references like {Name}', a);
    }
  }
}

export function fieldMap(fields: readonly FormulaField[]): Map<string, FormulaField> {
  return new Map(fields.map((f) => [f.name, f]));
}

/** Checks a parsed formula against the table's fields. */
export function checkAst(ast: Node, fields: ReadonlyMap<string, FormulaField>): Diagnostic[] {
  const checker = new Checker(fields);
  checker.visit(ast);
  return checker.diagnostics.sort((a, b) => a.start - b.start);
}

/** All diagnostics for a formula text; an empty list means it compiles. Never throws. */
export function checkFormula(text: string, fields: readonly FormulaField[]): Diagnostic[] {
  try {
    const parsed = parse(text);
    if (!parsed.ok) return parsed.diagnostics;
    return checkAst(parsed.ast, fieldMap(fields));
  } catch (e) {
    // A bug here must not take the formula bar or the server down with it.
    return [
      {
        message: `The formula could not be checked: ${(e as Error).message}`,
        start: 0,
        end: text.length,
        severity: 'error',
      },
    ];
  }
}
