/** The formula AST. Every node carries its source span: `start` inclusive, `end` exclusive, in UTF-16 units. */

export interface Span {
  start: number;
  end: number;
}

export type BinaryOp = '&' | '+' | '-' | '*' | '/' | '=' | '!=' | '<' | '>' | '<=' | '>=';

export type Node = NumberNode | StringNode | FieldNode | CallNode | UnaryNode | BinaryNode | GroupNode;

export interface NumberNode extends Span {
  kind: 'number';
  value: number;
}

export interface StringNode extends Span {
  kind: 'string';
  value: string;
}

/** `{Name}`, or a bare single word (`bare: true`) not followed by `(`. */
export interface FieldNode extends Span {
  kind: 'field';
  name: string;
  bare: boolean;
}

/** A function call; `name` is upper-cased because function names are case-insensitive. */
export interface CallNode extends Span {
  kind: 'call';
  name: string;
  nameEnd: number;
  args: Node[];
}

export interface UnaryNode extends Span {
  kind: 'unary';
  op: '-';
  operand: Node;
}

export interface BinaryNode extends Span {
  kind: 'binary';
  op: BinaryOp;
  opStart: number;
  left: Node;
  right: Node;
}

/** Parentheses are kept so the printer reproduces them and the checker can tell `(a & b) = c` from `a & b = c`. */
export interface GroupNode extends Span {
  kind: 'group';
  expr: Node;
}

export const COMPARISON_OPS: ReadonlySet<BinaryOp> = new Set(['=', '!=', '<', '>', '<=', '>=']);

/** What a diagnostic is about, for callers that word their own messages (the server's "Unknown field names: a, b"). */
export type DiagnosticCode =
  'syntax' | 'unknown-field' | 'unknown-function' | 'arguments' | 'type' | 'precedence' | 'blank-number';

export interface Diagnostic {
  message: string;
  start: number;
  end: number;
  severity: 'error' | 'warning';
  code?: DiagnosticCode;
  /** The unknown field's or function's name, for `unknown-field` and `unknown-function`. */
  subject?: string;
}
