/** Argument coercions shared by the function families. */
import type { Family, StrictFunction } from '../runtime';
import { FormulaError, toNumber, type FormulaValue } from '../values';

/** All arguments as numbers, or the first conversion error. */
function numbers(args: readonly FormulaValue[]): number[] | FormulaError {
  const out: number[] = [];
  for (const a of args) {
    const n = toNumber(a);
    if (n instanceof FormulaError) return n;
    out.push(n);
  }
  return out;
}

/** Wraps a function of numbers: the arguments are converted first, a conversion error is the result. */
export function numeric(f: (...n: number[]) => FormulaValue): (args: FormulaValue[]) => FormulaValue {
  return (args) => {
    const n = numbers(args);
    return n instanceof FormulaError ? n : f(...n);
  };
}

export function asArray(v: FormulaValue): readonly FormulaValue[] {
  if (Array.isArray(v)) return v as readonly FormulaValue[];
  return v === null ? [] : [v as FormulaValue];
}

/** Guards functions whose output size the user controls, so a formula cannot exhaust memory. */
export const MAX_TEXT_LENGTH = 1_000_000;

/** A compact way to declare a family's strict functions. */
export function definer(family: Family, pure: boolean) {
  return (
    name: string,
    minArgs: number,
    maxArgs: number,
    signature: string,
    doc: string,
    call: StrictFunction['call'],
  ): StrictFunction => ({
    name,
    family,
    minArgs,
    maxArgs,
    signature,
    doc,
    call,
    pure,
  });
}
