/** The table's keys where the page shows them: button titles, aria-keyshortcuts, the sheet and the menus. */
import { ariaChord, showChord } from './keys';
import { chordsOf } from './match';
import { COMMANDS } from './table';
import type { CommandId } from './table';

/** The platform the page runs on, read once: navigator.platform is what Electron and Chromium both fill. */
export const MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** Every chord of a command, as read on this platform ("Ctrl+Shift+Z", "Ctrl+Y"). */
export const keysOf = (id: CommandId, mac = MAC): string[] => chordsOf(id).map((c) => showChord(c, mac));

/** A button's title: its own text (the command's label by default) and the command's first key. */
export function titleOf(id: CommandId, text: string = COMMANDS[id].label, mac = MAC): string {
  const first = keysOf(id, mac)[0];
  return first === undefined ? text : `${text} (${first})`;
}

/** A button's title and aria-keyshortcuts, spread onto it. */
export function shortcutProps(id: CommandId, text?: string) {
  return {
    title: titleOf(id, text),
    'aria-keyshortcuts': chordsOf(id)
      .map((c) => ariaChord(c, MAC))
      .join(' '),
  };
}

/** Whether key events from this element are text being typed (a field, a cell editor), not commands. */
export function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (
    target.isContentEditable ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  )
    return true;
  if (!(target instanceof HTMLInputElement)) return false;
  return !['button', 'checkbox', 'radio', 'submit', 'reset', 'range', 'color', 'file'].includes(target.type);
}
