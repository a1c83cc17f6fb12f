/**
 * Compiles a checked AST into closures once; evaluating a record then runs the closures, never the parser.
 * Field readers are chosen per field type at compile time, and calls of pure functions on constants are folded.
 */
import type { Node } from './ast';
import { FormulaCostError, WorkBudget, sizeOf } from './budget';
import type { FormulaField } from './types';
import { cellReader } from './cells';
import { compareValues, valuesEqual } from './compare';
import { FUNCTIONS } from './functions';
import { invariant } from '../invariant';
import type { Evaluator, FormulaRecord } from './runtime';
import { DAY_MS, FormulaDate, FormulaError, toNumber, toText, type FormulaValue } from './values';

type Fields = ReadonlyMap<string, FormulaField>;

const NO_RECORD: FormulaRecord = { id: '', createdTime: '', fields: {} };

interface Compiled {
  run: Evaluator;
  constant: boolean;
}

/**
 * Work a compile may spend folding constant calls, in units and on the clock (a regex replace's restarts are
 * bounded by time: see ./budget); past either, the calls are left to run (and be counted).
 */
const FOLD_LIMIT = 10_000_000;
const FOLD_MS = 50;

/**
 * A constant. One made of text or a list costs its length each time it is read, like any other value (a
 * folded REPT() read per record is as much work as one built per record).
 */
function constant(v: FormulaValue): Compiled {
  const size = sizeOf(v);
  if (size === 0) return { run: () => v, constant: true };
  return {
    run: (_r, c) => {
      c.budget?.spend(size);
      return v;
    },
    constant: true,
  };
}

/** Every step costs one unit plus the size of what it makes (see ./budget), when the context has a budget. */
function charged(run: Evaluator): Evaluator {
  return (r, c) => {
    const v = run(r, c);
    if (c.budget !== undefined) c.budget.spend(1 + sizeOf(v));
    return v;
  };
}

/**
 * Numbers add or subtract days to a date and date − date is a number of days, as in Excel, which Airtable's
 * syntax mirrors (open question 7: the reference shows `{End} - {Start}` without a unit).
 */
function arithmetic(op: string, a: FormulaValue, b: FormulaValue): FormulaValue {
  if (a instanceof FormulaError) return a;
  if (b instanceof FormulaError) return b;
  if (op === '+' || op === '-') {
    if (a instanceof FormulaDate && b instanceof FormulaDate) {
      return op === '-'
        ? (a.ms - b.ms) / DAY_MS
        : new FormulaError('Two dates cannot be added: use DATEADD()');
    }
    if (a instanceof FormulaDate || b instanceof FormulaDate) {
      const date = (a instanceof FormulaDate ? a : b) as FormulaDate;
      const days = toNumber(a instanceof FormulaDate ? b : a);
      if (days instanceof FormulaError) return days;
      if (op === '-' && b instanceof FormulaDate)
        return new FormulaError('A date cannot be subtracted from a number');
      return new FormulaDate(date.ms + (op === '+' ? days : -days) * DAY_MS, date.timeZone, date.locale);
    }
  }
  const x = toNumber(a);
  if (x instanceof FormulaError) return x;
  const y = toNumber(b);
  if (y instanceof FormulaError) return y;
  switch (op) {
    case '+':
      return x + y;
    case '-':
      return x - y;
    case '*':
      return x * y;
    default:
      return x / y;
  }
}

function comparison(op: string, a: FormulaValue, b: FormulaValue): FormulaValue {
  if (op === '=' || op === '!=') {
    const eq = valuesEqual(a, b);
    return eq instanceof FormulaError ? eq : op === '=' ? eq : !eq;
  }
  const c = compareValues(a, b);
  if (c instanceof FormulaError) return c;
  switch (op) {
    case '<':
      return c < 0;
    case '>':
      return c > 0;
    case '<=':
      return c <= 0;
    default:
      return c >= 0;
  }
}

function compileNode(node: Node, fields: Fields, folding: WorkBudget): Compiled {
  if (node.kind === 'group') return compileNode(node.expr, fields, folding);
  const c = compileStep(node, fields, folding);
  return c.constant ? c : { run: charged(c.run), constant: false };
}

function compileStep(node: Node, fields: Fields, folding: WorkBudget): Compiled {
  switch (node.kind) {
    case 'number':
      return constant(node.value);
    case 'string':
      return constant(node.value);
    case 'group':
      return compileNode(node.expr, fields, folding);
    case 'field': {
      const name = node.name;
      if (node.bare && !fields.has(name)) return constant(name.toUpperCase() === 'TRUE');
      const read = cellReader(fields.get(name)?.type ?? '');
      return { run: (r) => read(r.fields[name]), constant: false };
    }
    case 'unary': {
      const inner = compileNode(node.operand, fields, folding);
      return fold(
        {
          run: (r, c) => {
            const n = toNumber(inner.run(r, c));
            return n instanceof FormulaError ? n : -n;
          },
          constant: false,
        },
        [inner],
        folding,
      );
    }
    case 'binary': {
      const left = compileNode(node.left, fields, folding);
      const right = compileNode(node.right, fields, folding);
      const l = left.run;
      const rt = right.run;
      const op = node.op;
      let run: Evaluator;
      if (op === '&') {
        run = (r, c) => {
          const a = l(r, c);
          if (a instanceof FormulaError) return a;
          const b = rt(r, c);
          return b instanceof FormulaError ? b : join(a, b);
        };
      } else if (op === '+' || op === '-' || op === '*' || op === '/') {
        run = (r, c) => arithmetic(op, l(r, c), rt(r, c));
      } else if (op === '>' || op === '<') {
        // The common filter shape `{Qty} > 5` on numbers skips the general comparison.
        run = (r, c) => {
          const a = l(r, c);
          const b = rt(r, c);
          if (typeof a === 'number' && typeof b === 'number') return op === '>' ? a > b : a < b;
          return comparison(op, a, b);
        };
      } else {
        run = (r, c) => comparison(op, l(r, c), rt(r, c));
      }
      return fold({ run, constant: false }, [left, right], folding);
    }
    case 'call':
      return compileCall(node.name, node.args, fields, folding);
  }
}

function compileCall(name: string, argNodes: Node[], fields: Fields, folding: WorkBudget): Compiled {
  const def = FUNCTIONS.get(name);
  invariant(def, `unknown function ${name}: compile only checked formulas`);
  const args = argNodes.map((a) => compileNode(a, fields, folding));
  const runs = args.map((a) => a.run);
  if ('lazy' in def) return { run: (r, c) => def.lazy(runs, r, c), constant: false };
  const unsafe = def.call;
  const call: typeof unsafe = (vals, r, c) => {
    try {
      return unsafe(vals, r, c);
    } catch (e) {
      return asError(e);
    }
  };
  const catches = def.catchesErrors === true;
  const n = runs.length;
  let run: Evaluator;
  if (n === 1) {
    const a0 = runs[0] as Evaluator;
    run = (r, c) => {
      const v = a0(r, c);
      return v instanceof FormulaError && !catches ? v : call([v], r, c);
    };
  } else {
    run = (r, c) => {
      const vals: FormulaValue[] = new Array(n);
      for (let i = 0; i < n; i++) {
        const v = (runs[i] as Evaluator)(r, c);
        if (v instanceof FormulaError && !catches) return v;
        vals[i] = v;
      }
      return call(vals, r, c);
    };
  }
  return def.pure ? fold({ run, constant: false }, args, folding) : { run, constant: false };
}

/**
 * A node whose inputs are all constant is evaluated now, once, within the compile's folding budget; a node
 * too costly to fold is left to run per evaluation, where the caller's budget counts it.
 */
function fold(c: Compiled, inputs: Compiled[], folding: WorkBudget): Compiled {
  if (!inputs.every((i) => i.constant)) return c;
  try {
    return constant(guard(charged(c.run))(NO_RECORD, { budget: folding }));
  } catch (e) {
    if (e instanceof FormulaCostError) return c;
    throw e;
  }
}

/**
 * A value too large to build (JavaScript's string limit) is an error value where it arises, so ISERROR() sees
 * it, and never an exception out of the evaluator. A spent budget is the one exception that goes through.
 */
function asError(e: unknown): FormulaError {
  if (e instanceof FormulaCostError) throw e;
  return new FormulaError(
    e instanceof RangeError
      ? 'The result is too large to compute'
      : `The formula failed: ${(e as Error).message}`,
  );
}

function join(a: FormulaValue, b: FormulaValue): FormulaValue {
  try {
    return toText(a) + toText(b);
  } catch (e) {
    return asError(e);
  }
}

function guard(run: Evaluator): Evaluator {
  return (r, c) => {
    try {
      return run(r, c);
    } catch (e) {
      return asError(e);
    }
  };
}

export function compileAst(ast: Node, fields: Fields): Evaluator {
  return guard(compileNode(ast, fields, new WorkBudget(FOLD_LIMIT, FOLD_MS)).run);
}

export function referencedFields(ast: Node, fields: Fields): string[] {
  const out = new Set<string>();
  const walk = (n: Node): void => {
    switch (n.kind) {
      case 'field':
        if (!n.bare || fields.has(n.name)) out.add(n.name);
        return;
      case 'group':
        return walk(n.expr);
      case 'unary':
        return walk(n.operand);
      case 'binary':
        walk(n.left);
        return walk(n.right);
      case 'call':
        return n.args.forEach(walk);
      default:
        return;
    }
  };
  walk(ast);
  return [...out];
}
