/**
 * The edit queue and its journal, fuzzed against a model (history.ts): random edits (of the same and of other
 * cells, merged in the queue), creates, deletes, undos, discards and retries, with faults from the proxy (429,
 * 5xx, dropped connections, lost answers), the app killed at random moments and started again on the same
 * folder, the disk filling up or cutting writes short, and the journal damaged between runs.
 */
import fc from 'fast-check';
import { runHistories } from '../target';
import type { FuzzTarget } from '../target';
import { commandsArb } from './commands';
import { History } from './history';
import { startWorld } from './world';

export const target: FuzzTarget = {
  describe: 'edit queue and journal: edits, creates, deletes, undo, faults, kills, full disks, damaged files',
  run: (options) =>
    runHistories(
      {
        startWorld,
        startHistory: History.start,
        commands: commandsArb,
        end: fc.constant(undefined),
        finish: (history) => history.finish(),
      },
      options,
    ),
};
