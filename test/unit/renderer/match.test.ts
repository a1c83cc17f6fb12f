import { describe, expect, it } from 'vitest';
import { isCommand, listStep, matchCommand } from '../../../renderer/src/commands/match';
import type { KeyContext } from '../../../renderer/src/commands/match';
import type { KeyLike } from '../../../renderer/src/commands/keys';
import { COMMANDS, commandIds } from '../../../renderer/src/commands/table';
import type { Scope } from '../../../renderer/src/commands/table';
import { parseChord } from '../../../renderer/src/commands/keys';

const key = (k: string, mods: Partial<Omit<KeyLike, 'key'>> = {}): KeyLike => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});
const linux: KeyContext = { mac: false, typing: false };
const mac: KeyContext = { mac: true, typing: false };
const ALL: Scope[] = ['dialog', 'grid', 'tab', 'app'];

describe('the command table', () => {
  it('writes every chord so the matcher reads it', () => {
    for (const id of commandIds) for (const k of COMMANDS[id].keys) expect(() => parseChord(k)).not.toThrow();
  });

  it('gives no two commands of one scope the same chord', () => {
    const seen = new Map<string, string>();
    for (const id of commandIds) {
      for (const k of COMMANDS[id].keys) {
        const at = `${COMMANDS[id].scope} ${JSON.stringify(parseChord(k))}`;
        expect(seen.get(at), `${id} and ${seen.get(at)} share ${k}`).toBeUndefined();
        seen.set(at, id);
      }
    }
  });
});

describe('matchCommand', () => {
  it('reads Mod as Ctrl off macOS and as Cmd on it', () => {
    expect(matchCommand(key('z', { ctrlKey: true }), ['grid'], linux)).toBe('grid.undo');
    expect(matchCommand(key('z', { metaKey: true }), ['grid'], mac)).toBe('grid.undo');
    expect(matchCommand(key('z', { ctrlKey: true }), ['grid'], mac)).toBeUndefined();
  });

  it('takes the Windows or Super key for Ctrl off macOS, as the grid did before the table, but not both', () => {
    expect(matchCommand(key('z', { metaKey: true }), ['grid'], linux)).toBe('grid.undo');
    expect(matchCommand(key('Z', { metaKey: true, shiftKey: true }), ['grid'], linux)).toBe('grid.redo');
    expect(matchCommand(key(' ', { metaKey: true }), ['grid'], linux)).toBe('grid.selectRow');
    expect(matchCommand(key('f', { metaKey: true }), ['tab'], linux)).toBe('tab.find');
    expect(matchCommand(key('z', { metaKey: true, ctrlKey: true }), ['grid'], linux)).toBeUndefined();
    // A chord written with Ctrl is Ctrl alone.
    expect(matchCommand(key('Tab', { metaKey: true }), ['app'], linux)).toBeUndefined();
  });

  it('opens the record with Space or Shift+Space', () => {
    expect(matchCommand(key(' '), ['grid'], linux)).toBe('grid.open');
    expect(matchCommand(key(' ', { shiftKey: true }), ['grid'], linux)).toBe('grid.open');
    expect(
      matchCommand(key(' ', { shiftKey: true }), ['grid'], { mac: false, typing: true }),
    ).toBeUndefined();
  });

  it('keeps Ctrl as Ctrl on macOS', () => {
    expect(matchCommand(key('Tab', { ctrlKey: true }), ['app'], mac)).toBe('app.nextTab');
    expect(matchCommand(key('Tab', { metaKey: true }), ['app'], mac)).toBeUndefined();
  });

  it('asks Shift to be as written, letters in either case', () => {
    expect(matchCommand(key('Z', { ctrlKey: true, shiftKey: true }), ['grid'], linux)).toBe('grid.redo');
    expect(matchCommand(key('y', { ctrlKey: true }), ['grid'], linux)).toBe('grid.redo');
    expect(matchCommand(key('Tab', { ctrlKey: true, shiftKey: true }), ['app'], linux)).toBe(
      'app.previousTab',
    );
    expect(matchCommand(key('F', { ctrlKey: true, shiftKey: true }), ['tab'], linux)).toBeUndefined();
    expect(matchCommand(key('f', { ctrlKey: true, altKey: true }), ['tab'], linux)).toBeUndefined();
  });

  it('takes a symbol whatever Shift made it', () => {
    expect(matchCommand(key('?', { shiftKey: true }), ['app'], linux)).toBe('app.shortcuts');
    expect(matchCommand(key('?'), ['app'], linux)).toBe('app.shortcuts');
    expect(matchCommand(key('?', { ctrlKey: true }), ['app'], linux)).toBeUndefined();
  });

  it('answers from the most specific scope first', () => {
    expect(matchCommand(key('Escape'), ALL, linux)).toBe('dialog.close');
    expect(matchCommand(key('Escape'), ['grid', 'tab', 'app'], linux)).toBe('grid.clearRange');
    expect(matchCommand(key('Escape'), ['tab', 'app'], linux)).toBeUndefined();
    expect(matchCommand(key('ArrowDown', { altKey: true }), ALL, linux)).toBe('dialog.nextRecord');
    expect(matchCommand(key('ArrowDown', { altKey: true }), ['grid'], linux)).toBe('grid.columnMenu');
  });

  it('leaves text keys to a field or cell editor being typed in, and the grid out', () => {
    const typing = { mac: false, typing: true };
    expect(matchCommand(key('?', { shiftKey: true }), ['app'], typing)).toBeUndefined();
    expect(matchCommand(key(' '), ['grid'], typing)).toBeUndefined();
    expect(matchCommand(key('Delete'), ['grid'], typing)).toBeUndefined();
    expect(matchCommand(key('z', { ctrlKey: true }), ['grid'], typing)).toBeUndefined();
    expect(matchCommand(key('Escape'), ['dialog'], typing)).toBeUndefined();
    // Keys with Ctrl, and function keys, still reach the tab and the app.
    expect(matchCommand(key('f', { ctrlKey: true }), ['tab', 'app'], typing)).toBe('tab.find');
    expect(matchCommand(key('F1'), ['app'], typing)).toBe('app.shortcuts');
    expect(matchCommand(key(' '), ['grid'], linux)).toBe('grid.open');
  });

  it('leaves the keys of a field or bar that asks its own command to it, never the page or the grid', () => {
    for (const k of [
      key('Enter'),
      key('Enter', { shiftKey: true }),
      key('Escape'),
      key('Delete'),
      key(' ', { ctrlKey: true }),
    ])
      expect(matchCommand(k, ['tab', 'app'], linux), k.key).toBeUndefined();
    expect(isCommand('find.next', key('Enter'), false)).toBe(true);
    expect(isCommand('find.next', key('Enter', { shiftKey: true }), false)).toBe(false);
    expect(isCommand('find.previous', key('Enter', { shiftKey: true }), false)).toBe(true);
    expect(isCommand('formula.apply', key('Enter', { shiftKey: true }), false)).toBe(false);
    expect(isCommand('formula.suggest', key(' ', { ctrlKey: true }), true)).toBe(true);
    expect(isCommand('formula.suggest', key(' ', { metaKey: true }), true)).toBe(false);
    expect(isCommand('tabBar.close', key('Delete'), false)).toBe(true);
    expect(isCommand('goto.stop', key('Escape'), false)).toBe(true);
  });

  it("reads a list's keys (menus, select editors, completions) from the table, with no other key held", () => {
    expect(listStep(key('ArrowDown'), false)).toBe('next');
    expect(listStep(key('ArrowUp'), true)).toBe('previous');
    expect(listStep(key('Home'), false)).toBe('first');
    expect(listStep(key('End'), false)).toBe('last');
    expect(listStep(key('ArrowDown', { shiftKey: true }), false)).toBeUndefined();
    expect(listStep(key('ArrowDown', { altKey: true }), false)).toBeUndefined();
    expect(listStep(key('Enter'), false)).toBeUndefined();
    expect(isCommand('list.take', key('Tab'), false)).toBe(true);
    expect(isCommand('list.take', key('Enter', { shiftKey: true }), false)).toBe(false);
    expect(isCommand('groupRow.toggle', key(' '), false)).toBe(true);
    expect(isCommand('dialog.saveField', key('Enter'), false)).toBe(true);
    // Asked by their own fields and rows alone: never by the page's or the grid's scopes.
    for (const k of [key('ArrowDown'), key('Home'), key('End'), key('Tab'), key('Enter')])
      expect(matchCommand(k, ['grid', 'tab', 'app'], linux), k.key).toBeUndefined();
  });

  it('tells a command by its keys whatever the scope', () => {
    expect(isCommand('grid.contextMenu', key('F10', { shiftKey: true }), false)).toBe(true);
    expect(isCommand('grid.contextMenu', key('ContextMenu'), false)).toBe(true);
    expect(isCommand('grid.contextMenu', key('F10'), false)).toBe(false);
    expect(isCommand('grid.columnMenu', key('ArrowDown', { altKey: true }), false)).toBe(true);
  });
});
