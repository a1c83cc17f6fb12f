import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkFormula,
  compileFormula,
  complete,
  formatFormula,
  FUNCTION_NAMES,
  parse,
  print,
  type BinaryOp,
  type Node,
} from '../../../core/formula';
import { FIELDS } from './helpers';

/** The AST without source positions, for comparing two parses. */
function strip(n: Node): unknown {
  switch (n.kind) {
    case 'number':
    case 'string':
      return [n.kind, n.value];
    case 'field':
      return [n.kind, n.name, n.bare];
    case 'group':
      return [n.kind, strip(n.expr)];
    case 'unary':
      return [n.kind, strip(n.operand)];
    case 'binary':
      return [n.kind, n.op, strip(n.left), strip(n.right)];
    case 'call':
      return [n.kind, n.name, n.args.map(strip)];
  }
}

const at = { start: 0, end: 0 };
const OPS: BinaryOp[] = ['&', '+', '-', '*', '/', '=', '!=', '<', '>', '<=', '>='];

const nodes = fc.letrec<{ node: Node }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc
      .oneof(fc.nat(), fc.double({ min: 0, max: 1e9, noNaN: true }))
      .filter((v) => !Object.is(v, -0))
      .map((value): Node => ({ kind: 'number', value, ...at })),
    fc.string({ unit: 'binary', maxLength: 12 }).map((value): Node => ({ kind: 'string', value, ...at })),
    fc
      .string({ unit: 'binary', minLength: 1, maxLength: 12 })
      .map((name): Node => ({ kind: 'field', name, bare: false, ...at })),
    fc
      .stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}$/)
      .map((name): Node => ({ kind: 'field', name, bare: true, ...at })),
    fc
      .record({ name: fc.constantFrom(...FUNCTION_NAMES), args: fc.array(tie('node'), { maxLength: 3 }) })
      .map((c): Node => ({ kind: 'call', nameEnd: 0, ...c, ...at })),
    tie('node').map((operand): Node => ({ kind: 'unary', op: '-', operand, ...at })),
    tie('node').map((expr): Node => ({ kind: 'group', expr, ...at })),
    fc
      .record({ op: fc.constantFrom(...OPS), left: tie('node'), right: tie('node') })
      .map((b): Node => ({ kind: 'binary', opStart: 0, ...b, ...at })),
  ),
})).node;

const CORPUS = [
  'AND(FIND("a", LOWER({Name})), {Qty} > 5, NOT({Done}))',
  'IF({Due} > TODAY(), "later", DATETIME_FORMAT({Due}, "YYYY-MM-DD"))',
  "OR(RECORD_ID() = 'recXYZ', {Full Name} & '' = 'Ada')",
  'SWITCH({Status}, "Open", 1, "Closed", 2, 0) * -{Price} / 3.5',
  'REGEX_REPLACE({Notes}, "\\\\d+", "#") != ""',
  '{Odd \\} Name} <= 1 + 2 * (3 - 4)',
  'ARRAYJOIN(ARRAYUNIQUE({Tags}), "; ")',
  "DATEADD(DATETIME_PARSE('2024-01-01'), 1, 'months')",
];

const NOISE = [
  '(',
  ')',
  ',',
  '{',
  '}',
  '"',
  "'",
  '\\',
  '&',
  '=',
  '==',
  '!',
  '<>',
  '^',
  '“',
  '”',
  'IF(',
  '{Name}',
  '1.',
  '.5',
  ' ',
  '\n',
  '-',
  '+',
  'AND',
  '1e3',
  '🙂',
];

/** A corpus formula with random edits: deletions, insertions of formula fragments, duplicated slices. */
const mutated = fc
  .tuple(
    fc.constantFrom(...CORPUS),
    fc.array(fc.tuple(fc.nat(), fc.nat({ max: 4 }), fc.constantFrom(...NOISE), fc.nat({ max: 2 })), {
      minLength: 1,
      maxLength: 6,
    }),
  )
  .map(([text, edits]) =>
    edits.reduce((t, [pos, len, noise, kind]) => {
      const p = pos % (t.length + 1);
      if (kind === 0) return t.slice(0, p) + t.slice(p + len);
      if (kind === 1) return t.slice(0, p) + noise + t.slice(p);
      return t.slice(0, p) + t.slice(p, p + len) + t.slice(p);
    }, text),
  );

const formulaChars = fc.string({
  unit: fc.constantFrom(...'{}()[],"\'\\&+-*/=!<>^%.0123456789 abcIFANDxyz_\n“”'.split('')),
  maxLength: 60,
});
const anyText = fc.oneof(formulaChars, fc.string({ unit: 'binary', maxLength: 40 }), mutated);

function spansInside(text: string): boolean {
  const ds = checkFormula(text, FIELDS);
  return ds.every((d) => d.start >= 0 && d.start <= d.end && d.end <= text.length && d.message.length > 0);
}

describe('properties', () => {
  it('the checker never throws and keeps every span inside the text, for random text', () => {
    fc.assert(fc.property(anyText, spansInside), { numRuns: 1500 });
  });

  it('the checker never throws on mutated real formulas, and reports an error when one fails to parse', () => {
    fc.assert(
      fc.property(mutated, (text) => {
        expect(spansInside(text)).toBe(true);
        if (!parse(text).ok)
          expect(checkFormula(text, FIELDS).some((d) => d.severity === 'error')).toBe(true);
      }),
      { numRuns: 1500 },
    );
  });

  it('completion never throws and its range holds the cursor', () => {
    fc.assert(
      fc.property(anyText, fc.nat(), (text, n) => {
        const cursor = n % (text.length + 1);
        const r = complete(text, cursor, FIELDS);
        return r.from >= 0 && r.from <= cursor && cursor <= r.to && r.to <= text.length;
      }),
      { numRuns: 1000 },
    );
  });

  it('printed formulas parse back to the same tree, and printing is stable', () => {
    fc.assert(
      fc.property(nodes, (ast) => {
        const text = print(ast);
        const once = parse(text);
        expect(once.ok).toBe(true);
        if (!once.ok) return;
        const again = parse(print(once.ast));
        expect(again.ok && strip(again.ast)).toEqual(strip(once.ast));
        expect(print(once.ast)).toBe(text);
      }),
      { numRuns: 1000 },
    );
  });

  it('the corpus round-trips through print and parse', () => {
    for (const text of CORPUS) {
      const a = parse(text);
      const b = a.ok ? parse(print(a.ast)) : a;
      expect(a.ok && b.ok && strip(b.ast)).toEqual(a.ok && strip(a.ast));
    }
  });

  it('checks a formula of 8,000 parts without hanging, and refuses a longer one', () => {
    const long = `CONCATENATE(${Array.from({ length: 1_990 }, (_, i) => `{Qty}+${i}`).join(', ')})`;
    expect(checkFormula(long, FIELDS)).toEqual([]);
    const longer = `CONCATENATE(${Array.from({ length: 20_000 }, (_, i) => `{Qty}+${i}`).join(', ')})`;
    expect(checkFormula(longer, FIELDS)[0]?.message).toContain('too long');
    expect(checkFormula('"' + 'x'.repeat(200_000), FIELDS)[0]?.message).toContain('Unterminated text');
  });

  it('compiles, evaluates and prints a formula at the depth limits', () => {
    const deepest =
      'ABS('.repeat(199) + Array.from({ length: 790 }, () => '{Qty}').join(' + ') + ')'.repeat(199);
    const c = compileFormula(deepest, FIELDS);
    expect(c.ok && c.formula.evaluate({ id: 'r', createdTime: '', fields: { Qty: 2 } })).toBe(1580);
    expect(formatFormula(deepest)).toBe(deepest);
  });

  it('refuses a chain too deep for the stack with a message', () => {
    const chain = Array.from({ length: 3_000 }, (_, i) => `${i}`).join(' & ');
    expect(checkFormula(chain, FIELDS)[0]?.message).toContain('nests more than 1000 levels');
    expect(checkFormula('-'.repeat(500) + '1', FIELDS)[0]?.message).toContain('nests more than 200 levels');
    const deepButShort =
      Array.from({ length: 150 }, () => 'ABS(').join('') +
      Array.from({ length: 900 }, () => '1').join(' + ') +
      ')'.repeat(150);
    expect(checkFormula(deepButShort, FIELDS)[0]?.message).toContain('nests more than 1000 levels');
  });
});
