/**
 * A cell when its field's type changes (server/store/retype.ts): converted as a write with typecast would where
 * the new type can hold it, else cleared; links and attachments are never turned into text or back.
 */
import { describe, expect, it } from 'vitest';
import type { Field } from '../../../server/store/catalog';
import { retypedCell } from '../../../server/store/retype';

const field = (type: string, options?: Record<string, unknown>): Field => ({
  id: `fld${type.padEnd(14, 'x').slice(0, 14)}`,
  name: type,
  type,
  ...(options ? { options } : {}),
});
const text = field('singleLineText');
const number = field('number', { precision: 0 });
const tags = field('multipleSelects', { choices: [{ name: 'a' }, { name: 'b c' }] });

describe('retypedCell', () => {
  it('joins a multiple select into one text, as typecast splits one at its commas', () => {
    expect(retypedCell(tags, text, ['a', 'b c'])).toBe('a, b c');
    expect(retypedCell(text, tags, 'a, b c')).toEqual(['a', 'b c']);
  });

  it('converts text and numbers where the new type holds them, and clears what it cannot', () => {
    expect(retypedCell(number, text, 12)).toBe('12');
    expect(retypedCell(text, number, '12')).toBe(12);
    expect(retypedCell(text, number, 'twelve')).toBeUndefined();
    expect(retypedCell(text, number, null)).toBeUndefined();
  });

  it('never turns links or attachments into text, nor text into them', () => {
    const links = field('multipleRecordLinks', { linkedTableId: 'tblOther' });
    const files = field('multipleAttachments');
    expect(retypedCell(links, text, ['recAAAAAAAAAAAAAA', 'recBBBBBBBBBBBBBB'])).toBeUndefined();
    expect(
      retypedCell(files, text, [{ id: 'attAAAAAAAAAAAAAA', url: 'https://x/a.png', filename: 'a.png' }]),
    ).toBeUndefined();
    expect(retypedCell(text, links, 'recAAAAAAAAAAAAAA')).toBeUndefined();
  });

  it('leaves a computed field to be computed', () => {
    expect(retypedCell(text, field('formula', { formula: '1' }), 'x')).toBeUndefined();
  });
});
