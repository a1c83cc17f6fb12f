/**
 * Prints an AST as canonical formula text: double-quoted strings, `{Field}` references, upper-case function
 * names, one space around binary operators and after commas. Parentheses come from group nodes, plus any the
 * precedence needs (for hand-built ASTs), so `parse(print(ast))` equals `ast` for any parsed formula.
 */
import type { BinaryOp, Node } from './ast';

const PRECEDENCE: Record<BinaryOp, number> = {
  '=': 1,
  '!=': 1,
  '<': 1,
  '>': 1,
  '<=': 1,
  '>=': 1,
  '&': 2,
  '+': 3,
  '-': 3,
  '*': 4,
  '/': 4,
};
const UNARY = 5;

function precedence(n: Node): number {
  if (n.kind === 'binary') return PRECEDENCE[n.op];
  if (n.kind === 'unary') return UNARY;
  return 6;
}

/** A text literal: backslash, double quote, newline and tab escaped. */
export function printString(s: string): string {
  return '"' + s.replace(/[\\"\n\t]/g, (c) => (c === '\n' ? '\\n' : c === '\t' ? '\\t' : '\\' + c)) + '"';
}

/**
 * A field reference. `}` is written `\}`; a backslash is doubled only where it would otherwise read as an escape
 * (before `}` or `\`, or last), so ordinary names stay as Airtable writes them.
 */
export function printFieldRef(name: string): string {
  return '{' + name.replace(/\\(?=[\\}]|$)/g, '\\\\').replace(/}/g, '\\}') + '}';
}

/** Literals are digits with an optional fraction; exponent forms are written out in full. */
export function printNumber(n: number): string {
  const s = String(n);
  if (!/e/i.test(s)) return s;
  return n.toLocaleString('en-US', {
    useGrouping: false,
    maximumSignificantDigits: 17,
  } as Intl.NumberFormatOptions);
}

export function print(node: Node): string {
  switch (node.kind) {
    case 'number':
      return printNumber(node.value);
    case 'string':
      return printString(node.value);
    case 'field':
      return node.bare ? node.name : printFieldRef(node.name);
    case 'group':
      return `(${print(node.expr)})`;
    case 'unary':
      return '-' + wrap(node.operand, UNARY);
    case 'call':
      return `${node.name}(${node.args.map(print).join(', ')})`;
    case 'binary': {
      const p = PRECEDENCE[node.op];
      // Left-associative: the right operand needs parentheses at equal precedence.
      return `${wrap(node.left, p)} ${node.op} ${wrap(node.right, p + 1)}`;
    }
  }
}

function wrap(n: Node, min: number): string {
  return precedence(n) < min ? `(${print(n)})` : print(n);
}
