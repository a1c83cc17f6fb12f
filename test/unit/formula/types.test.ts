import { describe, expect, it } from 'vitest';
import { FUNCTION_NAMES, resultType, type Node } from '../../../core/formula';
import { staticType } from '../../../core/formula/types';
import { FIELDS } from './helpers';

describe('static result type', () => {
  it.each([
    ['1 + 2', 'number'],
    ['"a" & 1', 'text'],
    ['{Qty} > 1', 'logical'],
    ['{Name}', 'text'],
    ['{Price}', 'number'],
    ['{Done}', 'logical'],
    ['{Due}', 'date'],
    ['{Tags}', 'array'],
    ['{Formula}', 'any'],
    ['TRUE', 'logical'],
    ['-{Qty}', 'number'],
    ['({Qty})', 'number'],
    ['{Due} + 1', 'date'],
    ['1 + {Due}', 'date'],
    ['{Due} - 1', 'date'],
    ['{Due} - {When}', 'number'],
    ['{Due} + {When}', 'any'],
    ['DATEADD({Due}, 1, "days")', 'date'],
    ['DATETIME_FORMAT({Due}, "YYYY")', 'text'],
    ['DATETIME_DIFF({Due}, {When}, "days")', 'number'],
    ['IF({Done}, "yes", "no")', 'text'],
    ['IF({Done}, "yes", 1)', 'text'],
    ['IF({Done}, 1)', 'number'],
    ['IF({Done}, 1, TRUE())', 'number'],
    ['IF({Done}, {Due}, BLANK())', 'date'],
    ['IF({Done}, {Due}, 1)', 'any'],
    ['SWITCH({Status}, "Open", 1, "Closed", 2)', 'number'],
    ['SWITCH({Status}, "Open", 1, "other")', 'text'],
    ['SWITCH({Status}, "Open", {Due}, {When})', 'date'],
    ['MAX({Due}, {When})', 'date'],
    ['MAX({Qty}, 1)', 'number'],
    ['ARRAYUNIQUE({Tags})', 'array'],
    ['ARRAYJOIN({Tags})', 'text'],
    ['BLANK()', 'blank'],
    ['REGEX_MATCH({Name}, "a")', 'logical'],
    ['RECORD_ID()', 'text'],
  ])('%s is %s', (formula, type) => {
    expect(resultType(formula, FIELDS)).toBe(type);
  });

  it('has no type for a formula with errors', () => {
    expect([resultType('{Nope}', FIELDS), resultType('1 +', FIELDS)]).toEqual([undefined, undefined]);
  });

  it('knows the result of every function in the catalogue', () => {
    const call = (name: string): Node => ({ kind: 'call', name, nameEnd: 0, args: [], start: 0, end: 0 });
    const untyped = FUNCTION_NAMES.filter(
      (name) => name !== 'ERROR' && staticType(call(name), new Map()) === 'any',
    );
    expect(untyped).toEqual([]);
  });
});
