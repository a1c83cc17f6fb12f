/**
 * Turns formula text into tokens. Never throws: bad input becomes an `error` token carrying a message that
 * names the fix (smart quotes, `==`, `&&`, `^`, ...), so the parser and the completion can go on.
 */

export type TokenKind = 'number' | 'string' | 'field' | 'ident' | 'op' | '(' | ')' | ',' | 'error' | 'eof';

export interface Token {
  kind: TokenKind;
  start: number;
  end: number;
  /** number: the source digits; string/field: the unescaped value; ident/op: the source text; error: the message. */
  text: string;
  /** string and field tokens: false when the closing delimiter is missing (the completion needs to know). */
  closed?: boolean;
}

const SMART_QUOTES = '\u201C\u201D\u2018\u2019\u201E\u201F\u2032\u2033';
const WHITESPACE = ' \t\r\n\u00A0';

/** Operators other formula languages have, with the Airtable way to say the same thing. */
const FOREIGN_OPERATORS: readonly [string, string][] = [
  ['==', 'use = to compare'],
  ['<>', 'use != for "not equal"'],
  ['&&', 'use AND(a, b)'],
  ['||', 'use OR(a, b)'],
  ['!', 'use NOT(x), or != for "not equal"'],
  ['^', 'use POWER(base, exponent)'],
  ['%', 'use MOD(a, b), or divide by 100 for a percentage'],
];

const OPERATORS = ['<=', '>=', '!=', '&', '+', '-', '*', '/', '=', '<', '>'];

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

function isIdentStart(c: string | undefined): boolean {
  return c !== undefined && ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c === '_');
}

function isIdentPart(c: string | undefined): boolean {
  return isIdentStart(c) || isDigit(c);
}

/** `\n`, `\t` and the escaped character itself; an unknown escape keeps its backslash so `"\d"` stays a regex `\d`. */
function unescapeString(ch: string | undefined): string | undefined {
  if (ch === undefined) return undefined;
  if (ch === 'n') return '\n';
  if (ch === 't') return '\t';
  if (ch === '"' || ch === "'" || ch === '\\') return ch;
  return '\\' + ch;
}

/** Inside braces, `\}` is a closing brace and `\\` a backslash; any other backslash is literal (research §1.3). */
function unescapeField(ch: string | undefined): string | undefined {
  return ch === '}' || ch === '\\' ? ch : undefined;
}

/**
 * Reads from `i` (just past the opening delimiter) to the closing one. `escape` gets the character after a
 * backslash and returns what the pair stands for, or undefined when the backslash is an ordinary character.
 */
function delimited(
  text: string,
  i: number,
  close: string,
  escape: (next: string | undefined) => string | undefined,
): { value: string; end: number; closed: boolean } {
  let value = '';
  while (i < text.length) {
    const d = text[i] as string;
    if (d === close) return { value, end: i + 1, closed: true };
    const escaped = d === '\\' ? escape(text[i + 1]) : undefined;
    if (escaped !== undefined) {
      value += escaped;
      i += 2;
      continue;
    }
    value += d;
    i++;
  }
  return { value, end: i, closed: false };
}

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text[i] as string;
    if (WHITESPACE.includes(c)) {
      i++;
      continue;
    }
    const start = i;
    if (c === '"' || c === "'") {
      const { value, end, closed } = delimited(text, i + 1, c, unescapeString);
      i = end;
      tokens.push({ kind: 'string', start, end: i, text: value, closed });
      if (!closed)
        tokens.push({ kind: 'error', start, end: i, text: 'Unterminated text: add the closing ' + c });
      continue;
    }
    if (SMART_QUOTES.includes(c)) {
      let j = i + 1;
      while (j < n && !SMART_QUOTES.includes(text[j] as string)) j++;
      i = Math.min(j + 1, n);
      tokens.push({
        kind: 'error',
        start,
        end: i,
        text: 'Curly quotes are not allowed: use straight quotes " or \'',
      });
      continue;
    }
    if (c === '{') {
      const { value: name, end, closed } = delimited(text, i + 1, '}', unescapeField);
      i = end;
      tokens.push({ kind: 'field', start, end: i, text: name, closed });
      if (!closed)
        tokens.push({
          kind: 'error',
          start,
          end: i,
          text: 'Unterminated field reference: add the closing }',
        });
      else if (name === '')
        tokens.push({
          kind: 'error',
          start,
          end: i,
          text: 'Empty field reference {}: put a field name between the braces',
        });
      continue;
    }
    if (isDigit(c) || (c === '.' && isDigit(text[i + 1]))) {
      while (isDigit(text[i])) i++;
      let bad = c === '.';
      if (text[i] === '.') {
        i++;
        if (!isDigit(text[i])) bad = true;
        while (isDigit(text[i])) i++;
      }
      if (text[i] === 'e' || text[i] === 'E' || text[i] === 'x' || text[i] === 'X') {
        bad = true;
        i++;
        while (isIdentPart(text[i]) || text[i] === '+' || text[i] === '-') i++;
      }
      const src = text.slice(start, i);
      if (bad) {
        tokens.push({
          kind: 'error',
          start,
          end: i,
          text: `Number ${src} is not written the supported way: use digits with an optional decimal part, like 1000, 0.5 or 2.0`,
        });
      } else {
        tokens.push({ kind: 'number', start, end: i, text: src });
      }
      continue;
    }
    if (isIdentStart(c)) {
      while (isIdentPart(text[i])) i++;
      tokens.push({ kind: 'ident', start, end: i, text: text.slice(start, i) });
      continue;
    }
    if (c === '(' || c === ')' || c === ',') {
      i++;
      tokens.push({ kind: c, start, end: i, text: c });
      continue;
    }
    const foreign = FOREIGN_OPERATORS.find(
      ([op]) => text.startsWith(op, i) && !(op === '!' && text[i + 1] === '='),
    );
    if (foreign) {
      i += foreign[0].length;
      tokens.push({
        kind: 'error',
        start,
        end: i,
        text: `${foreign[0]} is not a formula operator: ${foreign[1]}`,
      });
      continue;
    }
    const op = OPERATORS.find((o) => text.startsWith(o, i));
    if (op) {
      i += op.length;
      tokens.push({ kind: 'op', start, end: i, text: op });
      continue;
    }
    const cp = text.codePointAt(i) ?? 0;
    i += cp > 0xffff ? 2 : 1;
    const shown = text.slice(start, i);
    const hint = /\p{L}/u.test(shown) ? ': field names outside A-Z need braces, like {Name}' : '';
    tokens.push({ kind: 'error', start, end: i, text: `Unexpected character ${shown}${hint}` });
  }
  tokens.push({ kind: 'eof', start: n, end: n, text: '' });
  return tokens;
}
