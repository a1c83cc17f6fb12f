/** What a fuzz target offers the runner (`npm run fuzz`) and its fixed-seed test in `npm test`. */
import fc from 'fast-check';

export interface FuzzOptions {
  seed: number;
  /** Histories to try. */
  runs: number;
  /** fast-check's path of a failure, to replay exactly that history. */
  path?: string;
  /** fast-check's replay path of a shrunk command sequence (fc.commands' `replayPath`), with `path`. */
  replayPath?: string;
  /** Progress lines (the runner prints them; tests stay quiet). */
  log?: (line: string) => void;
}

export interface FuzzTarget {
  /** One line: what the target drives and what it checks. */
  describe: string;
  /**
   * Runs `runs` random histories from `seed`; throws fast-check's report on the first failure, with the
   * seed, the path and the history shrunk to a short one.
   */
  run(options: FuzzOptions): Promise<void>;
}

/** One history of a model-based target: what it did, for the report of a failure. */
export interface FuzzHistory {
  readonly log: string[];
  cleanup(): Promise<void>;
}

/** A model-based target: its world, its histories, their commands and the check at the end of each. */
export interface ModelTarget<W, H extends FuzzHistory, E> {
  startWorld(): Promise<W & { close(): Promise<void> }>;
  startHistory(world: W, n: number): Promise<H>;
  /** The command sequences; `replayPath` replays a shrunk one exactly. */
  commands(replayPath?: string): fc.Arbitrary<Iterable<fc.AsyncCommand<Record<string, never>, H>>>;
  /** What the end check takes besides the history (drawn with the commands). */
  end: fc.Arbitrary<E>;
  finish(history: H, end: E): Promise<void>;
}

/**
 * Runs a model-based target's histories in one world: each history plays its commands, then its end check;
 * a failure carries the history's log of what happened.
 */
export async function runHistories<W, H extends FuzzHistory, E>(
  t: ModelTarget<W, H, E>,
  { seed, runs, path, replayPath, log }: FuzzOptions,
): Promise<void> {
  const world = await t.startWorld();
  let n = 0;
  try {
    await fc.assert(
      fc.asyncProperty(t.commands(replayPath), t.end, async (commands, end) => {
        const started = Date.now();
        const history = await t.startHistory(world, n++);
        try {
          await fc.asyncModelRun(() => ({ model: {}, real: history }), commands);
          await t.finish(history, end);
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
}
