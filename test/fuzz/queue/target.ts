/**
 * The edit queue and its journal, fuzzed against a model (history.ts): random edits (of the same and of other
 * cells, merged in the queue), creates, deletes, undos, discards and retries, with faults from the proxy (429,
 * 5xx, dropped connections, lost answers), the app killed at random moments and started again on the same
 * folder, the disk filling up or cutting writes short, and the journal damaged between runs.
 */
import fc from 'fast-check';
import type { FuzzTarget } from '../target';
import { commandsArb } from './commands';
import { History } from './history';
import { startWorld } from './world';

export const target: FuzzTarget = {
  describe: 'edit queue and journal: edits, creates, deletes, undo, faults, kills, full disks, damaged files',
  async run({ seed, runs, path, replayPath, log }) {
    const world = await startWorld();
    let n = 0;
    try {
      await fc.assert(
        fc.asyncProperty(commandsArb(replayPath), async (commands) => {
          const started = Date.now();
          const history = await History.start(world, n++);
          try {
            await fc.asyncModelRun(() => ({ model: {}, real: history }), commands);
            await history.finish();
          } catch (e) {
            throw new Error(
              `${e instanceof Error ? e.message : String(e)}\nwhat happened:\n  ${history.log.join('\n  ')}`,
              { cause: e },
            );
          } finally {
            await history.cleanup();
          }
          log?.(`history ${n}: ${commands.toString().length > 0 ? '' : ''}${Date.now() - started} ms`);
        }),
        { seed, numRuns: runs, ...(path === undefined ? {} : { path }) },
      );
    } finally {
      await world.close();
    }
  },
};
