/** A conflict's values shown, and typed back (renderer/src/offline/conflict-values.ts). */
import { describe, expect, it } from 'vitest';
import { editedValue, valueText } from '../../../renderer/src/offline/conflict-values';

describe('conflicting values', () => {
  it('shows each value as text, and no value as empty', () => {
    expect(valueText('Done')).toBe('Done');
    expect(valueText(3.5)).toBe('3.5');
    expect(valueText(true)).toBe('true');
    expect(valueText(['Bug', 'Docs'])).toBe('["Bug","Docs"]');
    expect(valueText(undefined)).toBe('(empty)');
    expect(valueText(null, '')).toBe('');
  });

  it('reads typed text in the shape of the values it stands between', () => {
    expect(editedValue('Both', { mine: 'Mine', theirs: 'Theirs' })).toBe('Both');
    expect(editedValue('42', { mine: 1, theirs: 2 })).toBe(42);
    expect(editedValue('42', { mine: 'a', theirs: 2 })).toBe('42');
    expect(editedValue('x', { mine: 1, theirs: undefined })).toBe('x');
    expect(editedValue('true', { mine: false, theirs: false })).toBe(true);
    expect(editedValue('["Bug"]', { mine: ['Docs'], theirs: [] })).toEqual(['Bug']);
    expect(editedValue('[oops', { mine: ['Docs'], theirs: [] })).toBe('[oops');
    expect(editedValue('  ', { mine: 'a', theirs: 'b' })).toBeNull();
  });
});
