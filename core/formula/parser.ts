/**
 * Recursive-descent parser. Precedence, loosest first: comparisons, `&`, `+ -`, `* /`, unary `-`.
 * `&` binds tighter than comparisons, as in Excel, so `{A} & "" = "x"` means `({A} & "") = "x"`: the peers
 * (Teable, APITable) do the opposite, but the Excel reading is the one client-built filters rely on
 * (research §2, open question 1). The checker warns wherever the two readings differ.
 */
import type { BinaryOp, Diagnostic, Node } from './ast';
import { tokenize, type Token } from './lexer';

export type ParseResult =
  { ok: true; ast: Node; diagnostics: Diagnostic[] } | { ok: false; diagnostics: Diagnostic[] };

/**
 * The deepest tree the parser builds: nesting plus chains of operators (`a & b & c` is a tree as deep as its
 * chain). Deeper trees would overflow the stack of the checker, compiler and printer; no real formula comes near.
 */
const MAX_DEPTH = 1000;
/** Each level of parentheses, calls or unary minus costs the parser itself several stack frames. */
const MAX_NESTING = 200;
/**
 * The most tokens a formula may have: compiling it, planning its lookups and evaluating it per record grow with
 * its parts, and a filter of OR() over 30,000 comparisons held the server's thread past a minute before any
 * record's budget was asked. The longest formula the app builds (a read by ids, core/api/by-ids.ts) has about
 * 700; a hand-written one rarely a thousand.
 */
export const MAX_TOKENS = 8_000;

class SyntaxFailure extends Error {
  constructor(readonly diagnostic: Diagnostic) {
    super(diagnostic.message);
  }
}

const LEVELS: readonly (readonly BinaryOp[])[] = [
  ['=', '!=', '<', '>', '<=', '>='],
  ['&'],
  ['+', '-'],
  ['*', '/'],
];

function describe(t: Token): string {
  switch (t.kind) {
    case 'eof':
      return 'the end of the formula';
    case 'string':
      return 'a text value';
    case 'number':
      return `the number ${t.text}`;
    case 'field':
      return 'a field reference';
    default:
      return `"${t.text}"`;
  }
}

class Parser {
  private pos = 0;
  private depth = 0;
  private nesting = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly text: string,
  ) {}

  private peek(): Token {
    return this.tokens[this.pos] as Token;
  }

  private next(): Token {
    const t = this.peek();
    if (t.kind !== 'eof') this.pos++;
    return t;
  }

  private fail(message: string, start: number, end: number): never {
    throw new SyntaxFailure({ message, start, end, severity: 'error', code: 'syntax' });
  }

  private unexpected(t: Token, expected: string): never {
    if (t.kind === 'error') this.fail(t.text, t.start, t.end);
    this.fail(`Expected ${expected} but found ${describe(t)}`, t.start, Math.max(t.end, t.start));
  }

  parseFormula(): Node {
    if (this.peek().kind === 'eof') this.fail('The formula is empty', 0, this.text.length);
    const node = this.expr(0);
    const t = this.peek();
    if (t.kind !== 'eof') {
      if (t.kind === ')') this.fail('Unmatched ) : remove it or add a ( before it', t.start, t.end);
      if (t.kind === 'error') this.fail(t.text, t.start, t.end);
      this.fail(
        `Expected an operator or the end of the formula but found ${describe(t)}: join parts with an operator or a function like AND()`,
        t.start,
        t.end,
      );
    }
    return node;
  }

  private expr(level: number): Node {
    if (level === LEVELS.length) return this.unary();
    const ops = LEVELS[level] as readonly BinaryOp[];
    let left = this.expr(level + 1);
    const outer = this.depth;
    for (;;) {
      const t = this.peek();
      if (t.kind !== 'op' || !ops.includes(t.text as BinaryOp)) {
        this.depth = outer;
        return left;
      }
      this.deeper(t);
      this.next();
      const right = this.expr(level + 1);
      left = {
        kind: 'binary',
        op: t.text as BinaryOp,
        opStart: t.start,
        left,
        right,
        start: left.start,
        end: right.end,
      };
    }
  }

  private unary(): Node {
    const t = this.peek();
    if (t.kind === 'op' && t.text === '-') {
      this.next();
      const operand = this.nested(() => this.unary());
      return { kind: 'unary', op: '-', operand, start: t.start, end: operand.end };
    }
    if (t.kind === 'op' && t.text === '+') this.fail('A leading + is not allowed: remove it', t.start, t.end);
    return this.primary();
  }

  private deeper(t: Token): void {
    if (++this.depth > MAX_DEPTH) {
      this.fail(
        `The formula nests more than ${MAX_DEPTH} levels deep: split long chains with functions such as CONCATENATE() or SUM()`,
        t.start,
        t.end,
      );
    }
  }

  private nested<T>(f: () => T): T {
    const t = this.peek();
    if (++this.nesting > MAX_NESTING)
      this.fail(`The formula nests more than ${MAX_NESTING} levels deep`, t.start, t.end);
    this.deeper(t);
    try {
      return f();
    } finally {
      this.depth--;
      this.nesting--;
    }
  }

  private primary(): Node {
    const t = this.next();
    switch (t.kind) {
      case 'number':
        return { kind: 'number', value: Number(t.text), start: t.start, end: t.end };
      case 'string':
        return { kind: 'string', value: t.text, start: t.start, end: t.end };
      case 'field':
        return { kind: 'field', name: t.text, bare: false, start: t.start, end: t.end };
      case 'ident':
        if (this.peek().kind === '(') return this.call(t);
        return { kind: 'field', name: t.text, bare: true, start: t.start, end: t.end };
      case '(': {
        const expr = this.nested(() => this.expr(0));
        const close = this.next();
        if (close.kind !== ')') this.unexpected(close, ') to close the ( at position ' + (t.start + 1));
        return { kind: 'group', expr, start: t.start, end: close.end };
      }
      default:
        return this.unexpected(t, 'a value, a field or a function');
    }
  }

  private call(name: Token): Node {
    this.next();
    const args: Node[] = [];
    const done = (close: Token): Node => ({
      kind: 'call',
      name: name.text.toUpperCase(),
      nameEnd: name.end,
      args,
      start: name.start,
      end: close.end,
    });
    if (this.peek().kind === ')') return done(this.next());
    for (;;) {
      const t = this.peek();
      if (t.kind === ',' || t.kind === ')')
        this.fail('Missing argument: put a value here or remove the comma', t.start, t.end);
      args.push(this.nested(() => this.expr(0)));
      const sep = this.next();
      if (sep.kind === ')') return done(sep);
      if (sep.kind !== ',') this.unexpected(sep, `, or ) in the arguments of ${name.text.toUpperCase()}()`);
    }
  }
}

/** Parses formula text; never throws. Lexical errors are reported even when a syntax error comes first. */
export function parse(text: string): ParseResult {
  const tokens = tokenize(text);
  // The end of input is a token too.
  if (tokens.length > MAX_TOKENS + 1) {
    const last = tokens[MAX_TOKENS]!;
    const message = `The formula is too long: it has more than ${MAX_TOKENS} parts (names, values, operators)`;
    return {
      ok: false,
      diagnostics: [{ message, start: last.start, end: last.end, severity: 'error', code: 'syntax' }],
    };
  }
  try {
    const ast = new Parser(tokens, text).parseFormula();
    const lexical = tokens.filter((t) => t.kind === 'error');
    if (lexical.length > 0) return { ok: false, diagnostics: lexical.map(toDiagnostic) };
    return { ok: true, ast, diagnostics: [] };
  } catch (e) {
    if (!(e instanceof SyntaxFailure)) throw e;
    const diagnostics = [e.diagnostic];
    for (const t of tokens) {
      if (t.kind === 'error' && t.start !== e.diagnostic.start) diagnostics.push(toDiagnostic(t));
    }
    return { ok: false, diagnostics: diagnostics.sort((a, b) => a.start - b.start) };
  }
}

function toDiagnostic(t: Token): Diagnostic {
  return { message: t.text, start: t.start, end: t.end, severity: 'error', code: 'syntax' };
}
