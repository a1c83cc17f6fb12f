import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { BenchFigure, BenchResult } from './result';

/** The middle value of a sample (the upper middle for an even count); 0 for none. */
export const median = (xs: readonly number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** Each figure's median, least and most over the runs; every run must measure the same figures. */
export function summarize(runs: readonly BenchResult[][]): BenchFigure[] {
  const first = runs[0] ?? [];
  return first.map(({ name, unit }, i) => {
    const samples = runs.map((run) => {
      const r = run[i];
      if (r?.name !== name) throw new Error(`A run measured "${r?.name}" where the first measured "${name}"`);
      return r;
    });
    const values = samples.map((s) => s.value);
    const ratios = samples.flatMap((s) => (s.ratio === undefined ? [] : [s.ratio]));
    return {
      name,
      unit,
      value: median(values),
      min: Math.min(...values),
      max: Math.max(...values),
      runs: values.length,
      ...(ratios.length > 0 ? { ratio: median(ratios) } : {}),
    };
  });
}

/**
 * A full garbage collection, so a heap figure counts what is live and not what the collector has not yet
 * reclaimed. `--expose-gc` set at run time: `npm run bench` needs no node flags.
 */
export function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}
