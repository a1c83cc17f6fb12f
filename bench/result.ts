/** One figure of a benchmark group, as written to bench/results/<group>.json. */
export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  /** A ratio to a goal or to a side-by-side comparison, where the group has one. */
  ratio?: number;
}

export type BenchGroup = () => Promise<BenchResult[]>;
