/**
 * Completion for the formula bar: for a text and a cursor, what may be typed there (fields after `{` or a
 * word, functions with their signature and help, a closing `}` or `)`), and the signature of the call around
 * the cursor with its active argument.
 */
import type { FormulaField } from './types';
import { FUNCTIONS, FUNCTION_NAMES } from './functions';
import { tokenize, type Token } from './lexer';
import { printFieldRef } from './print';

export interface CompletionItem {
  label: string;
  insert: string;
  kind: 'field' | 'function' | 'close';
  detail?: string;
  doc?: string;
}

export interface SignatureHelp {
  name: string;
  label: string;
  activeArg: number;
  doc: string;
}

/** Items replace the text from `from` to `to`. */
export interface CompletionResult {
  from: number;
  to: number;
  items: CompletionItem[];
  signature?: SignatureHelp;
}

interface Frame {
  name: string | undefined;
  commas: number;
}

/** The open parentheses before the cursor, innermost last, with the function each one calls. */
function openParens(tokens: readonly Token[]): Frame[] {
  const stack: Frame[] = [];
  tokens.forEach((t, i) => {
    if (t.kind === '(') {
      const prev = tokens[i - 1];
      stack.push({ name: prev?.kind === 'ident' ? prev.text.toUpperCase() : undefined, commas: 0 });
    } else if (t.kind === ')') stack.pop();
    else if (t.kind === ',') {
      const top = stack[stack.length - 1];
      if (top) top.commas++;
    }
  });
  return stack;
}

/** How many parentheses opened before it the text closes. */
function closedAfter(rest: string): number {
  let depth = 0;
  let closed = 0;
  for (const t of tokenize(rest)) {
    if (t.kind === '(') depth++;
    else if (t.kind === ')') {
      if (depth > 0) depth--;
      else closed++;
    }
  }
  return closed;
}

function signatureOf(stack: readonly Frame[]): SignatureHelp | undefined {
  for (let i = stack.length - 1; i >= 0; i--) {
    const frame = stack[i] as Frame;
    const def = frame.name === undefined ? undefined : FUNCTIONS.get(frame.name);
    if (def) return { name: def.name, label: def.signature, activeArg: frame.commas, doc: def.doc };
  }
  return undefined;
}

/** Prefix matches first, then names containing the typed text; case-insensitive. */
function ranked<T>(all: readonly T[], key: (x: T) => string, typed: string): T[] {
  const t = typed.toLowerCase();
  const starts = all.filter((x) => key(x).toLowerCase().startsWith(t));
  const contains =
    t === ''
      ? []
      : all.filter((x) => !key(x).toLowerCase().startsWith(t) && key(x).toLowerCase().includes(t));
  return [...starts, ...contains];
}

function fieldItems(fields: readonly FormulaField[], typed: string): CompletionItem[] {
  return ranked(fields, (f) => f.name, typed).map((f) => ({
    label: f.name,
    insert: printFieldRef(f.name),
    kind: 'field',
    detail: f.type,
  }));
}

function functionItems(typed: string): CompletionItem[] {
  return ranked(FUNCTION_NAMES, (n) => n, typed).map((name) => {
    const def = FUNCTIONS.get(name);
    return { label: name, insert: `${name}(`, kind: 'function', detail: def?.signature, doc: def?.doc };
  });
}

const OPERAND_BEFORE = new Set(['(', ',', 'op']);

export function complete(text: string, cursor: number, fields: readonly FormulaField[]): CompletionResult {
  const at = Math.max(0, Math.min(cursor, text.length));
  const tokens = tokenize(text.slice(0, at)).filter((t) => t.kind !== 'eof' && t.kind !== 'error');
  const stack = openParens(tokens);
  const signature = signatureOf(stack);
  const last = tokens[tokens.length - 1];
  const touching = last !== undefined && last.end === at;
  // A `)` is offered only where the text after the cursor does not already close every open call.
  const closeParen: CompletionItem[] =
    stack.length > closedAfter(text.slice(at)) ? [{ label: ')', insert: ')', kind: 'close' }] : [];
  const result = (from: number, items: CompletionItem[], to = at): CompletionResult =>
    signature ? { from, to, items, signature } : { from, to, items };
  // The word or reference the cursor is in may go on after the cursor: a choice replaces all of it.
  const whole = (start: number) => tokenize(text).find((t) => t.start === start);

  if (touching && last.kind === 'string' && !last.closed) return result(at, []);
  if (touching && last.kind === 'field' && !last.closed) {
    const ref = whole(last.start);
    if (ref?.kind === 'field' && ref.closed)
      return result(last.start, fieldItems(fields, last.text), ref.end);
    const typed = text.slice(last.start, at);
    const close: CompletionItem[] =
      last.text === '' ? [] : [{ label: '}', insert: `${typed}}`, kind: 'close' }];
    return result(last.start, [...fieldItems(fields, last.text), ...close]);
  }
  if (touching && last.kind === 'ident') {
    const word = whole(last.start) ?? last;
    const called = /^\s*\(/.test(text.slice(word.end));
    const functions = functionItems(last.text).map((i) => (called ? { ...i, insert: i.label } : i));
    const bare = fields.filter((f) => f.name.toLowerCase().startsWith(last.text.toLowerCase()));
    return result(last.start, [...functions, ...fieldItems(bare, last.text)], word.end);
  }
  if (last === undefined || OPERAND_BEFORE.has(last.kind)) {
    return result(at, [
      ...fieldItems(fields, ''),
      ...functionItems(''),
      ...closeParen.filter(() => last?.kind === '('),
    ]);
  }
  return result(at, closeParen);
}
