import { describe, expect, it } from 'vitest';
import { tokenize } from '../../../core/formula/lexer';

const kinds = (text: string) => tokenize(text).map((t) => t.kind);
const texts = (text: string) => tokenize(text).map((t) => t.text);

describe('lexer', () => {
  it.each([
    ['"double"', 'double'],
    ["'single'", 'single'],
    ['"say \\"hi\\""', 'say "hi"'],
    ["'O\\'Brien'", "O'Brien"],
    ['"back\\\\slash"', 'back\\slash'],
    ['"line\\nbreak"', 'line\nbreak'],
    ['"tab\\there"', 'tab\there'],
    ['"\\d+"', '\\d+'],
    ['"It\'s"', "It's"],
    ['\'say "hi"\'', 'say "hi"'],
    ['""', ''],
    ['"multi\nline"', 'multi\nline'],
  ])('reads the string %s', (src, value) => {
    const [t] = tokenize(src);
    expect(t).toMatchObject({ kind: 'string', text: value, closed: true, start: 0, end: src.length });
  });

  it.each([
    ['{Name}', 'Name'],
    ['{Full Name}', 'Full Name'],
    ['{a\\}b}', 'a}b'],
    ['{a\\\\}', 'a\\'],
    ['{a\\b}', 'a\\b'],
    ["{Guest's Name}", "Guest's Name"],
    ['{50% (est.), ok}', '50% (est.), ok'],
    ['{{odd}', '{odd'],
    ['{🙂 emoji}', '🙂 emoji'],
  ])('reads the field reference %s', (src, name) => {
    expect(tokenize(src)[0]).toMatchObject({ kind: 'field', text: name, closed: true, end: src.length });
  });

  it.each([
    ['42', '42'],
    ['3.14', '3.14'],
    ['0', '0'],
    ['007', '007'],
  ])('reads the number %s', (src, digits) => {
    expect(tokenize(src)[0]).toMatchObject({ kind: 'number', text: digits });
  });

  it.each(['1e3', '.5', '1.', '0x10', '2E-4'])(
    'rejects the number form %s with the supported form named',
    (src) => {
      const t = tokenize(src)[0];
      expect(t?.kind).toBe('error');
      expect(t?.text).toContain('digits with an optional decimal part');
    },
  );

  it.each([
    ['a == b', 'use = to compare'],
    ['a <> b', 'use !='],
    ['a && b', 'use AND(a, b)'],
    ['a || b', 'use OR(a, b)'],
    ['!a', 'use NOT(x)'],
    ['2 ^ 3', 'use POWER(base, exponent)'],
    ['7 % 2', 'use MOD(a, b)'],
    ['\u201Chi\u201D', 'use straight quotes'],
    ['\u2018hi\u2019', 'use straight quotes'],
  ])('rejects %s with a message naming the fix', (src, fix) => {
    const err = tokenize(src).find((t) => t.kind === 'error');
    expect(err?.text).toContain(fix);
  });

  it('reads every operator', () => {
    expect(texts('& + - * / = != < > <= >=').slice(0, -1)).toEqual([
      '&',
      '+',
      '-',
      '*',
      '/',
      '=',
      '!=',
      '<',
      '>',
      '<=',
      '>=',
    ]);
  });

  it('skips spaces, tabs and line breaks between tokens', () => {
    expect(kinds(' IF (\n\t1 ,\r\n2 ) ')).toEqual(['ident', '(', 'number', ',', 'number', ')', 'eof']);
  });

  it('gives every token its span', () => {
    expect(tokenize('LEN({A}) >= 10').map((t) => [t.start, t.end])).toEqual([
      [0, 3],
      [3, 4],
      [4, 7],
      [7, 8],
      [9, 11],
      [12, 14],
      [14, 14],
    ]);
  });

  it('marks unterminated strings and field references', () => {
    expect(tokenize('"abc').map((t) => t.kind)).toEqual(['string', 'error', 'eof']);
    expect(tokenize('"abc')[0]?.closed).toBe(false);
    expect(tokenize('{Na')[1]?.text).toContain('add the closing }');
  });

  it('rejects an empty field reference', () => {
    expect(tokenize('{}')[1]?.text).toContain('Empty field reference');
  });

  it('tells a non-ASCII bare word to use braces', () => {
    expect(tokenize('Größe')[1]?.text).toContain('need braces');
  });
});
