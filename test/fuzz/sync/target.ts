/**
 * The offline copy's sync, fuzzed against a model (history.ts): both sides edited at random (cells, creates,
 * deletes, links set from either side of the pair), syncs, syncs stopped midway, and conflicts resolved by
 * random choices; every sync is checked against the two sides before it, and the last one must leave the copy
 * equal to the service with nothing left to send.
 */
import fc from 'fast-check';
import type { FuzzTarget } from '../target';
import { choicesArb, commandsArb } from './commands';
import { History } from './history';
import { startWorld } from './world';

/** Commands per history: enough for a few rounds of edits and syncs, few enough to shrink quickly. */
const MAX_COMMANDS = 16;

export const target: FuzzTarget = {
  describe: 'offline copy sync: edits, creates, deletes and links on both sides, stopped syncs, resolutions',
  async run({ seed, runs, path, replayPath, log }) {
    const world = await startWorld();
    let n = 0;
    try {
      await fc.assert(
        fc.asyncProperty(commandsArb(MAX_COMMANDS, replayPath), choicesArb, async (commands, last) => {
          const started = Date.now();
          const history = await History.start(world, n++);
          try {
            await fc.asyncModelRun(() => ({ model: {}, real: history }), commands);
            await history.finish(last);
          } catch (e) {
            throw new Error(
              `${e instanceof Error ? e.message : String(e)}\nwhat happened:\n  ${history.log.join('\n  ')}`,
              { cause: e },
            );
          } finally {
            await history.cleanup();
          }
          log?.(`history ${n}: ${history.log.length} steps, ${Date.now() - started} ms`);
        }),
        { seed, numRuns: runs, ...(path === undefined ? {} : { path }) },
      );
    } finally {
      await world.close();
    }
  },
};
