import { describe, expect, it } from 'vitest';
import { linkNames, linkText, linkTokens, linkedTableId } from '../../../renderer/src/links/names';

const people = { type: 'multipleRecordLinks', options: { linkedTableId: 'tblPeople' } };

describe('link cell text', () => {
  it('names the table a link or a lookup of a link points at', () => {
    expect(linkedTableId(people)).toBe('tblPeople');
    expect(
      linkedTableId({
        type: 'multipleLookupValues',
        options: { result: { type: 'multipleRecordLinks', options: { linkedTableId: 'tblTeams' } } },
      }),
    ).toBe('tblTeams');
    expect(linkedTableId({ type: 'multipleLookupValues', options: { result: { type: 'number' } } })).toBe(
      undefined,
    );
  });

  it('copies names (ids until known), quoting those with commas or quotes, and reads them back', () => {
    linkNames.add('tblPeople', { recA: 'Ada', recB: 'Smith, "Jo"' });
    const text = linkText(people, ['recA', 'recB', 'recC']);
    expect(text).toBe('Ada, "Smith, ""Jo""", recC');
    expect(linkTokens(text!)).toEqual(['Ada', 'Smith, "Jo"', 'recC']);
    expect(linkTokens('  a ,, b,')).toEqual(['a', 'b']);
    expect(linkTokens('')).toEqual([]);
    expect(linkText({ type: 'singleLineText' }, 'x')).toBeUndefined();
  });
});
