/**
 * The offline copy's sync, fuzzed against a model (history.ts): both sides edited at random (cells, creates,
 * deletes, links set from either side of the pair or in a one-way cell, records the service deletes that the
 * copy edited or links to), syncs, syncs stopped midway, and conflicts resolved by
 * random choices; every sync is checked against the two sides before it, and the last one must leave the copy
 * equal to the service with nothing left to send.
 */
import { runHistories } from '../target';
import type { FuzzTarget } from '../target';
import { choicesArb, commandsArb } from './commands';
import { History } from './history';
import type { Choice } from './history';
import { startWorld } from './world';

/** Commands per history: enough for a few rounds of edits and syncs, few enough to shrink quickly. */
const MAX_COMMANDS = 16;

export const target: FuzzTarget = {
  describe:
    'offline copy sync: edits, creates, deletes, pair and one-way links on both sides, stopped syncs, resolutions',
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

/**
 * One history played as written, then settled as the fuzzer settles each (`choices`): a failure the fuzzer
 * found, kept as a test. Commands pick records by name, so it plays the same whatever ids the service gives.
 */
export async function replay(steps: (h: History) => Promise<void>, choices: Choice[]): Promise<void> {
  const world = await startWorld();
  try {
    const history = await History.start(world, 0);
    try {
      await steps(history);
      await history.finish(choices);
    } catch (e) {
      throw new Error(
        `${e instanceof Error ? e.message : String(e)}\nwhat happened:\n  ${history.log.join('\n  ')}`,
        { cause: e },
      );
    } finally {
      await history.cleanup();
    }
  } finally {
    await world.close();
  }
}
