/** Logical functions (research §9.2). IF and SWITCH evaluate only the branch they choose. */
import { valuesEqual } from '../compare';
import type { Evaluator, FunctionDef } from '../runtime';
import { FormulaError, truthy, type FormulaValue } from '../values';

/**
 * AND and OR ask about every item of a list argument, as Airtable does for lookups and rollups (`AND(values)`):
 * a list counts item by item, an empty one as a single blank.
 */
function tally(args: FormulaValue[]): { truthy: number; total: number } | FormulaError {
  let truthyCount = 0;
  let total = 0;
  for (const arg of args) {
    const items = Array.isArray(arg) && arg.length > 0 ? arg : [arg];
    for (const v of items) {
      if (v instanceof FormulaError) return v;
      total++;
      if (truthy(v)) truthyCount++;
    }
  }
  return { truthy: truthyCount, total };
}

export const logicalFunctions: FunctionDef[] = [
  {
    name: 'IF',
    family: 'logical',
    minArgs: 2,
    maxArgs: 3,
    signature: 'IF(expression, value1, [value2])',
    doc: 'value1 if expression is true, otherwise value2 (blank when left out).',
    lazy: (args, r, c) => {
      const v = (args[0] as Evaluator)(r, c);
      if (v instanceof FormulaError) return v;
      if (truthy(v)) return (args[1] as Evaluator)(r, c);
      return args[2] ? args[2](r, c) : null;
    },
  },
  {
    name: 'SWITCH',
    family: 'logical',
    minArgs: 2,
    maxArgs: Infinity,
    signature: 'SWITCH(expression, [pattern, result]..., [default])',
    doc: 'The result of the first pattern equal to expression, else default (blank when left out).',
    lazy: (args, r, c) => {
      const arg = (i: number) => (args[i] as Evaluator)(r, c);
      const v = arg(0);
      if (v instanceof FormulaError) return v;
      let i = 1;
      for (; i + 1 < args.length; i += 2) {
        const p = arg(i);
        if (p instanceof FormulaError) return p;
        const eq = valuesEqual(v, p);
        if (eq instanceof FormulaError) return eq;
        if (eq) return arg(i + 1);
      }
      // An odd argument left over is the default.
      return i < args.length ? arg(i) : null;
    },
  },
  {
    name: 'AND',
    family: 'logical',
    minArgs: 1,
    maxArgs: Infinity,
    pure: true,
    signature: 'AND(logical1, [logical2, ...])',
    doc: 'True if every argument is true.',
    call: (args) => {
      const t = tally(args);
      return t instanceof FormulaError ? t : t.truthy === t.total;
    },
  },
  {
    name: 'OR',
    family: 'logical',
    minArgs: 1,
    maxArgs: Infinity,
    pure: true,
    signature: 'OR(logical1, [logical2, ...])',
    doc: 'True if any argument is true.',
    call: (args) => {
      const t = tally(args);
      return t instanceof FormulaError ? t : t.truthy > 0;
    },
  },
  {
    name: 'XOR',
    family: 'logical',
    minArgs: 1,
    maxArgs: Infinity,
    pure: true,
    signature: 'XOR(logical1, [logical2, ...])',
    doc: 'True if an odd number of arguments are true.',
    call: (args) => {
      const t = tally(args);
      return t instanceof FormulaError ? t : t.truthy % 2 === 1;
    },
  },
  {
    name: 'NOT',
    family: 'logical',
    minArgs: 1,
    maxArgs: 1,
    pure: true,
    signature: 'NOT(boolean)',
    doc: 'The opposite of boolean.',
    call: (args) => !truthy(args[0] as FormulaValue),
  },
  {
    name: 'BLANK',
    family: 'logical',
    minArgs: 0,
    maxArgs: 0,
    pure: true,
    signature: 'BLANK()',
    doc: 'A blank value.',
    call: () => null,
  },
  {
    name: 'ERROR',
    family: 'logical',
    minArgs: 0,
    maxArgs: 0,
    pure: true,
    signature: 'ERROR()',
    doc: 'The error value #ERROR!.',
    call: () => new FormulaError('ERROR() was called'),
  },
  {
    name: 'ISERROR',
    family: 'logical',
    minArgs: 1,
    maxArgs: 1,
    pure: true,
    catchesErrors: true,
    signature: 'ISERROR(expr)',
    doc: 'True if expr is an error, Infinity or NaN.',
    call: (args) => {
      const v = args[0];
      return v instanceof FormulaError || (typeof v === 'number' && !Number.isFinite(v));
    },
  },
  {
    name: 'TRUE',
    family: 'logical',
    minArgs: 0,
    maxArgs: 0,
    pure: true,
    signature: 'TRUE()',
    doc: 'The logical value true (1).',
    call: () => true,
  },
  {
    name: 'FALSE',
    family: 'logical',
    minArgs: 0,
    maxArgs: 0,
    pure: true,
    signature: 'FALSE()',
    doc: 'The logical value false (0).',
    call: () => false,
  },
];
