/**
 * The offline copy's sync, fuzzed against a model (history.ts): both sides edited at random (cells, creates,
 * deletes, links set from either side of the pair), syncs, syncs stopped midway, and conflicts resolved by
 * random choices; every sync is checked against the two sides before it, and the last one must leave the copy
 * equal to the service with nothing left to send.
 */
import { runHistories } from '../target';
import type { FuzzTarget } from '../target';
import { choicesArb, commandsArb } from './commands';
import { History } from './history';
import { startWorld } from './world';

/** Commands per history: enough for a few rounds of edits and syncs, few enough to shrink quickly. */
const MAX_COMMANDS = 16;

export const target: FuzzTarget = {
  describe: 'offline copy sync: edits, creates, deletes and links on both sides, stopped syncs, resolutions',
  run: (options) =>
    runHistories(
      {
        startWorld,
        startHistory: History.start,
        commands: (replayPath) => commandsArb(MAX_COMMANDS, replayPath),
        end: choicesArb,
        finish: (history, last) => history.finish(last),
      },
      options,
    ),
};
