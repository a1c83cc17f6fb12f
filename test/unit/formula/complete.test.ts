import { describe, expect, it } from 'vitest';
import { complete } from '../../../core/formula';
import { FIELDS } from './helpers';

const labels = (text: string, cursor = text.length) =>
  complete(text, cursor, FIELDS).items.map((i) => i.label);

describe('completion', () => {
  it('offers field names after {, filtered by what is typed', () => {
    const r = complete('{Na', 3, FIELDS);
    expect([r.from, r.to]).toEqual([0, 3]);
    expect(r.items.map((i) => [i.kind, i.label, i.insert])).toEqual([
      ['field', 'Name', '{Name}'],
      ['field', 'Full Name', '{Full Name}'],
      ['field', 'Odd } Name', '{Odd \\} Name}'],
      ['close', '}', '{Na}'],
    ]);
  });

  it('escapes a } in an offered field name', () => {
    expect(complete('{Odd', 4, FIELDS).items[0]?.insert).toBe('{Odd \\} Name}');
  });

  it('offers every field just after {', () => {
    expect(labels('{')).toEqual(FIELDS.map((f) => f.name));
  });

  it('gives the field type as detail', () => {
    expect(complete('{Qt', 3, FIELDS).items[0]).toMatchObject({ label: 'Qty', detail: 'number' });
  });

  it('offers functions for a typed word, with signature and help', () => {
    const r = complete('IF({Qty} > 1, LO', 16, FIELDS);
    expect(r.from).toBe(14);
    expect(r.items[0]).toMatchObject({
      kind: 'function',
      label: 'LOG',
      insert: 'LOG(',
      detail: 'LOG(number, [base])',
    });
    expect(r.items.map((i) => i.label)).toContain('LOWER');
    expect(r.items.find((i) => i.label === 'LOWER')?.doc).toBe('string in lower case.');
  });

  it('matches function names case-insensitively', () => {
    expect(labels('su')).toEqual(['SUBSTITUTE', 'SUM']);
  });

  it('offers a bare field whose name starts with the word', () => {
    expect(complete('Qt', 2, FIELDS).items).toContainEqual({
      label: 'Qty',
      insert: '{Qty}',
      kind: 'field',
      detail: 'number',
    });
  });

  it('offers fields and functions where a value is expected', () => {
    const l = labels('AND(1, ');
    expect(l.slice(0, 3)).toEqual(['Name', 'Notes', 'Qty']);
    expect(l).toContain('DATETIME_FORMAT');
  });

  it('offers ) after a complete argument inside a call', () => {
    expect(complete('FIND("a", {Name}', 16, FIELDS).items).toEqual([
      { label: ')', insert: ')', kind: 'close' },
    ]);
  });

  it('offers no ) where the text after the cursor already closes the call', () => {
    expect(labels('AND({Qty} > 1, {Qty} > 10)', 25)).toEqual([]);
    expect(labels('AND(1, SUM(2, 3', 15)).toEqual([')']);
    expect(labels('AND(1, SUM(2, 3)', 15)).toEqual([')']);
    expect(labels('AND(1, SUM(2, 3))', 15)).toEqual([]);
  });

  it('offers nothing inside a string', () => {
    expect(labels('IF({Name} = "Ba')).toEqual([]);
  });

  it('offers nothing after a complete formula', () => {
    expect(labels('1 + 2')).toEqual([]);
  });

  it('gives the signature of the call around the cursor and the active argument', () => {
    expect(complete('IF({Qty} > 1, ', 14, FIELDS).signature).toEqual({
      name: 'IF',
      label: 'IF(expression, value1, [value2])',
      activeArg: 1,
      doc: 'value1 if expression is true, otherwise value2 (blank when left out).',
    });
  });

  it('gives the innermost call, counting only its own commas', () => {
    const s = complete('IF(AND(1, 2), FIND("a", ', 24, FIELDS).signature;
    expect([s?.name, s?.activeArg]).toEqual(['FIND', 1]);
  });

  it('uses the text before the cursor only', () => {
    const s = complete('ROUND(1.5, 0)', 7, FIELDS).signature;
    expect([s?.name, s?.activeArg]).toEqual(['ROUND', 0]);
  });

  it('ignores parentheses that close before the cursor', () => {
    expect(complete('LEN("a") + ', 11, FIELDS).signature).toBeUndefined();
  });

  it('skips a grouping parenthesis to reach the call', () => {
    expect(complete('SUM((1 + ', 9, FIELDS).signature?.name).toBe('SUM');
  });

  it('replaces the whole reference when the cursor is inside one', () => {
    const r = complete('{Na} > 1', 3, FIELDS);
    expect([r.from, r.to, r.items[0]?.insert]).toEqual([0, 4, '{Name}']);
    expect(r.items.some((i) => i.kind === 'close')).toBe(false);
  });

  it('replaces the whole word, and adds no second ( before an existing one', () => {
    const r = complete('LOWR({Name})', 2, FIELDS);
    expect([r.from, r.to]).toEqual([0, 4]);
    expect(r.items.find((i) => i.label === 'LOWER')?.insert).toBe('LOWER');
  });

  it('clamps a cursor outside the text', () => {
    const r = complete('{Na', 99, FIELDS);
    expect([r.from, r.to]).toEqual([0, 3]);
  });
});
