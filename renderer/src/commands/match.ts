/**
 * The one matcher: a key event, the scopes that hold it (most specific first) and whether text is being typed
 * give the command it means, or none. Pure; the platform is a parameter so both are tested anywhere.
 */
import { chordMatches, isTextKey, parseChord } from './keys';
import type { Chord, KeyLike } from './keys';
import { COMMANDS, commandIds } from './table';
import type { CommandId, Scope } from './table';

export interface KeyContext {
  mac: boolean;
  /** Focus is in a text field or a cell editor: keys without Ctrl, Cmd or Alt are its text, and the grid's are not asked. */
  typing: boolean;
}

const CHORDS = new Map<CommandId, Chord[]>(commandIds.map((id) => [id, COMMANDS[id].keys.map(parseChord)]));

export const chordsOf = (id: CommandId): readonly Chord[] => CHORDS.get(id) ?? [];

/** Whether the event is one of this command's keys, whatever the scope (a header asks for its menu key). */
export const isCommand = (id: CommandId, e: KeyLike, mac: boolean): boolean =>
  chordsOf(id).some((c) => chordMatches(c, e, mac));

/** A list's move (a menu, a select editor's choices, the formula bar's completions) that the key asks for. */
export function listStep(e: KeyLike, mac: boolean): 'next' | 'previous' | 'first' | 'last' | undefined {
  const id = matchCommand(e, ['list'], { mac, typing: false });
  if (id === 'list.next') return 'next';
  if (id === 'list.previous') return 'previous';
  if (id === 'list.first') return 'first';
  if (id === 'list.last') return 'last';
  return undefined;
}

export function matchCommand(e: KeyLike, scopes: readonly Scope[], ctx: KeyContext): CommandId | undefined {
  for (const scope of scopes) {
    if (ctx.typing && scope === 'grid') continue;
    const id = commandIds.find(
      (i) =>
        COMMANDS[i].scope === scope &&
        chordsOf(i).some((c) => !(ctx.typing && isTextKey(c)) && chordMatches(c, e, ctx.mac)),
    );
    if (id !== undefined) return id;
  }
  return undefined;
}
