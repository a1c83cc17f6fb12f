import { describe, expect, it } from 'vitest';
import { ariaChord, parseChord, showChord } from '../../../renderer/src/commands/keys';
import { keysOf, titleOf } from '../../../renderer/src/commands/shown';

describe('chords shown', () => {
  it('spells a chord for each platform', () => {
    const redo = parseChord('Mod+Shift+Z');
    expect(showChord(redo, false)).toBe('Ctrl+Shift+Z');
    expect(showChord(redo, true)).toBe('⇧⌘Z');
    expect(showChord(parseChord('Space'), false)).toBe('Space');
    expect(showChord(parseChord('Alt+ArrowUp'), false)).toBe('Alt+↑');
    expect(showChord(parseChord('Ctrl+Tab'), true)).toBe('⌃Tab');
  });

  it('writes aria-keyshortcuts as ARIA names the keys', () => {
    expect(ariaChord(parseChord('Mod+Shift+Z'), false)).toBe('Control+Shift+Z');
    expect(ariaChord(parseChord('Mod+Z'), true)).toBe('Meta+Z');
    expect(ariaChord(parseChord('Space'), false)).toBe('Space');
  });

  it('titles a button from the table', () => {
    expect(titleOf('grid.undo', undefined, false)).toBe('Undo (Ctrl+Z)');
    expect(titleOf('grid.undo', 'Undo the paste', true)).toBe('Undo the paste (⌘Z)');
    expect(keysOf('grid.redo', false)).toEqual(['Ctrl+Shift+Z', 'Ctrl+Y']);
  });

  it('refuses a chord it cannot read', () => {
    expect(() => parseChord('Hyper+Z')).toThrow(/Bad key chord/);
  });
});
