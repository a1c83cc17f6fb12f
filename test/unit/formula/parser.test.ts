import { describe, expect, it } from 'vitest';
import { parse, print, type Node } from '../../../core/formula';

function ast(text: string): Node {
  const r = parse(text);
  if (!r.ok) throw new Error(r.diagnostics[0]?.message);
  return r.ast;
}

/** Fully parenthesised form, showing how the parser grouped the operators. */
function shape(n: Node): string {
  switch (n.kind) {
    case 'binary':
      return `(${shape(n.left)} ${n.op} ${shape(n.right)})`;
    case 'unary':
      return `(-${shape(n.operand)})`;
    case 'group':
      return shape(n.expr);
    case 'call':
      return `${n.name}(${n.args.map(shape).join(',')})`;
    default:
      return print(n);
  }
}

function firstError(text: string): string {
  const r = parse(text);
  return r.ok ? '' : (r.diagnostics[0]?.message ?? '');
}

describe('parser: precedence and associativity', () => {
  it.each([
    ['1 + 2 * 3', '(1 + (2 * 3))'],
    ['1 * 2 + 3', '((1 * 2) + 3)'],
    ['1 - 2 - 3', '((1 - 2) - 3)'],
    ['8 / 4 / 2', '((8 / 4) / 2)'],
    ['(1 + 2) * 3', '((1 + 2) * 3)'],
    ['-2 * 3', '((-2) * 3)'],
    ['- -2', '(-(-2))'],
    ['1 + 2 & "x"', '((1 + 2) & "x")'],
    ['{A} & "" = "x"', '(({A} & "") = "x")'],
    ['"a" & "b" & "c"', '(("a" & "b") & "c")'],
    ['1 < 2 = TRUE()', '((1 < 2) = TRUE())'],
    ['1 < 2 < 3', '((1 < 2) < 3)'],
    ['{A} != 1 + 1', '({A} != (1 + 1))'],
    ['a >= b * 2', '(a >= (b * 2))'],
    ['IF(1, 2) + 3', '(IF(1,2) + 3)'],
    ['2 * -{A}', '(2 * (-{A}))'],
  ])('%s groups as %s', (text, grouped) => {
    expect(shape(ast(text))).toBe(grouped);
  });
});

describe('parser: nodes and spans', () => {
  it('upper-cases function names', () => {
    expect(ast('record_id()')).toMatchObject({ kind: 'call', name: 'RECORD_ID', args: [] });
  });

  it('reads a bare word as a field and a word before ( as a function', () => {
    expect(ast('Price * Quantity')).toMatchObject({
      left: { kind: 'field', name: 'Price', bare: true },
      right: { kind: 'field', name: 'Quantity' },
    });
    expect(ast('TODAY ()')).toMatchObject({ kind: 'call', name: 'TODAY' });
  });

  it('gives each node its source span', () => {
    const n = ast('IF({A} > 1, "y")');
    expect(n).toMatchObject({ start: 0, end: 16, nameEnd: 2 });
    if (n.kind !== 'call') throw new Error('not a call');
    expect(n.args.map((a) => [a.start, a.end])).toEqual([
      [3, 10],
      [12, 15],
    ]);
    expect(n.args[0]).toMatchObject({ opStart: 7, left: { start: 3, end: 6 }, right: { start: 9, end: 10 } });
  });

  it('keeps parentheses as group nodes with their span', () => {
    expect(ast(' (1)')).toMatchObject({
      kind: 'group',
      start: 1,
      end: 4,
      expr: { kind: 'number', value: 1, start: 2, end: 3 },
    });
  });

  it('reads decimals', () => {
    expect(ast('3.25')).toMatchObject({ kind: 'number', value: 3.25 });
  });
});

describe('parser: syntax errors', () => {
  it.each([
    ['', 'The formula is empty'],
    ['   ', 'The formula is empty'],
    ['1 +', 'Expected a value'],
    ['= =', 'Expected a value'],
    ['SUM(1,,2)', 'Missing argument'],
    ['SUM(1,)', 'Missing argument'],
    ['IF(1 2)', 'Expected , or ) in the arguments of IF()'],
    ['(1 + 2', 'Expected ) to close the ('],
    ['1 + 2)', 'Unmatched )'],
    ['id IS rec1', 'Expected an operator or the end of the formula'],
    ['"abc', 'Unterminated text'],
    ['{Name', 'Unterminated field reference'],
    ['+1', 'A leading + is not allowed'],
    ['1 == 1', '== is not a formula operator'],
    ['a // comment', 'Expected a value'],
  ])('%s → %s', (text, message) => {
    expect(firstError(text)).toContain(message);
  });

  it('reports errors at their span, inside the text', () => {
    const r = parse('IF(1 2)');
    expect(r.ok ? [] : r.diagnostics.map((d) => [d.start, d.end])).toEqual([[5, 6]]);
  });

  it('puts an error at the end of the formula at the end', () => {
    const r = parse('AND(1,');
    expect(r.ok ? null : r.diagnostics[0]).toMatchObject({ start: 6, end: 6, severity: 'error' });
  });

  it('reports every lexical error, not just the first', () => {
    const r = parse('1 == 2 && 3');
    expect(r.ok ? 0 : r.diagnostics.length).toBe(2);
  });

  it('refuses absurd nesting with a message instead of overflowing the stack', () => {
    expect(firstError('('.repeat(300) + '1' + ')'.repeat(300))).toContain('nests more than 200 levels');
  });

  it('refuses a formula of more than 8,000 parts, however shallow', () => {
    expect(parse(`OR(${Array.from({ length: 1999 }, (_, i) => `{A}=${i}`).join(',')})`).ok).toBe(true);
    expect(firstError(`OR(${Array.from({ length: 2001 }, (_, i) => `{A}=${i}`).join(',')})`)).toContain(
      'too long: it has more than 8000 parts',
    );
    expect(firstError('('.repeat(5000) + '1' + ')'.repeat(5000))).toContain('too long');
  });
});
