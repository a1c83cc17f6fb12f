/** One figure of one run of a benchmark group. */
export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  /** A ratio to a goal or to a side-by-side comparison, where the group has one. */
  ratio?: number;
}

/** What `npm run bench` was asked for besides the groups. */
export interface BenchOptions {
  /**
   * `--hosted-latency`: the client and mirror groups also run their jobs at the hosted service's latency
   * (bench/hosted-latency.ts), which adds minutes a run; off, they keep to 0 and 250 ms.
   */
  hostedLatency: boolean;
}

/** One run of a group: every figure it measures, in the same order each run. */
export type BenchGroup = (options: BenchOptions) => Promise<BenchResult[]>;

/** A group's module: `default` is one run; `prepare`, when there, runs once before the runs (a build). */
export interface BenchGroupModule {
  default: BenchGroup;
  prepare?: () => Promise<void>;
}

/** A figure as written to bench/results/<group>.json: the median of the runs, with their least and most. */
export interface BenchFigure {
  name: string;
  unit: string;
  /** The median of the runs' values. */
  value: number;
  min: number;
  max: number;
  runs: number;
  /** The median of the runs' ratios. */
  ratio?: number;
}

/** bench/results/<group>.json. */
export interface BenchFile {
  group: string;
  /** The commit measured (git rev-parse HEAD), and whether the working tree differed from it. */
  commit: string;
  dirty: boolean;
  measuredAt: string;
  node: string;
  runs: number;
  /** Whether the run had `--hosted-latency` (its figures include the hosted profile's). */
  hostedLatency: boolean;
  /** Wall time of all the runs. */
  seconds: number;
  figures: BenchFigure[];
}
