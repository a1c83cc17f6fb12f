/**
 * Key chords as the command table writes them ("Mod+Shift+Z", "Ctrl+Tab", "Space", "?"): matching a key
 * event, and showing a chord the platform's way. `Mod` is Cmd on macOS and Ctrl elsewhere (Grist's and VS
 * Code's convention); `Ctrl` is Ctrl everywhere (Ctrl+Tab moves between tabs on macOS too).
 */

/** The fields of a KeyboardEvent a chord reads: the DOM's and React's events both have them. */
export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

export interface Chord {
  mod: boolean;
  ctrl: boolean;
  shift: boolean;
  alt: boolean;
  /** As KeyboardEvent.key names it, letters in lower case. */
  key: string;
}

const NAMED: Record<string, string> = { Space: ' ', Esc: 'Escape', Menu: 'ContextMenu' };

export function parseChord(text: string): Chord {
  const parts = text.split('+');
  // "Mod++" would be the plus key; no command uses it, so the last part is the key.
  const key = parts.pop() ?? '';
  const has = (m: string) => parts.includes(m);
  const unknown = parts.filter((p) => !['Mod', 'Ctrl', 'Shift', 'Alt'].includes(p));
  if (key === '' || unknown.length > 0) throw new Error(`Bad key chord: ${text}`);
  const named = NAMED[key] ?? key;
  return {
    mod: has('Mod'),
    ctrl: has('Ctrl'),
    shift: has('Shift'),
    alt: has('Alt'),
    key: named.length === 1 ? named.toLowerCase() : named,
  };
}

/** A printed symbol other than a letter ("?"): the layout decides whether Shift makes it, so Shift is not asked. */
const symbol = (key: string) => key.length === 1 && key !== ' ' && key.toLowerCase() === key.toUpperCase();

/**
 * Off macOS, Mod is Ctrl, and the Windows or Super key held instead of Ctrl is taken as Ctrl too: before the
 * table every grid key read Ctrl or Cmd alike, and a habit (or a keyboard mapped the Mac's way) keeps working.
 * Only Ctrl is shown. On macOS Mod is Cmd alone: Ctrl there is a text field's own (Ctrl+F, Ctrl+D move and delete).
 */
function modifiersMatch(chord: Chord, e: KeyLike, mac: boolean): boolean {
  if (chord.mod && !chord.ctrl && !mac) return e.ctrlKey !== e.metaKey;
  const ctrl = chord.ctrl || (chord.mod && !mac);
  const meta = chord.mod && mac;
  return e.ctrlKey === ctrl && e.metaKey === meta;
}

export function chordMatches(chord: Chord, e: KeyLike, mac: boolean): boolean {
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  if (key !== chord.key) return false;
  if (!modifiersMatch(chord, e, mac) || e.altKey !== chord.alt) return false;
  return symbol(chord.key) || e.shiftKey === chord.shift;
}

/** Keys a text field or a cell editor owns: no Ctrl, Cmd or Alt with them, and not a function key. */
export const isTextKey = (chord: Chord): boolean =>
  !chord.mod && !chord.ctrl && !chord.alt && !/^F\d+$/.test(chord.key);

const SHOWN: Record<string, string> = {
  ' ': 'Space',
  ArrowUp: '↑',
  ArrowDown: '↓',
  ArrowLeft: '←',
  ArrowRight: '→',
  Escape: 'Esc',
  ContextMenu: 'Menu',
};

const keyName = (key: string) => SHOWN[key] ?? (key.length === 1 ? key.toUpperCase() : key);

/** A chord as a person reads it: "Ctrl+Shift+Z" off macOS, "⇧⌘Z" on it. */
export function showChord(chord: Chord, mac: boolean): string {
  if (mac) {
    const marks = `${chord.ctrl ? '⌃' : ''}${chord.alt ? '⌥' : ''}${chord.shift ? '⇧' : ''}${chord.mod ? '⌘' : ''}`;
    return marks + keyName(chord.key);
  }
  const mods = [chord.ctrl || chord.mod ? 'Ctrl' : '', chord.alt ? 'Alt' : '', chord.shift ? 'Shift' : ''];
  return [...mods.filter((m) => m !== ''), keyName(chord.key)].join('+');
}

/** A chord as aria-keyshortcuts spells it ("Control+Shift+Z", "Meta+Z", "Space"). */
export function ariaChord(chord: Chord, mac: boolean): string {
  const mods = [
    chord.ctrl || (chord.mod && !mac) ? 'Control' : '',
    chord.mod && mac ? 'Meta' : '',
    chord.alt ? 'Alt' : '',
    chord.shift ? 'Shift' : '',
  ];
  const key = chord.key === ' ' ? 'Space' : chord.key.length === 1 ? chord.key.toUpperCase() : chord.key;
  return [...mods.filter((m) => m !== ''), key].join('+');
}
