/** What a fuzz target offers the runner (`npm run fuzz`) and its fixed-seed test in `npm test`. */
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
