/**
 * The edit queue's model-based fuzzer (test/fuzz/queue) at a fixed seed and a bounded number of histories;
 * `npm run fuzz -- queue` runs it longer with random seeds. A failure prints its seed and the shrunk history.
 */
import { describe, it } from 'vitest';
import { target } from '../../fuzz/queue/target';

describe('the edit queue and its journal, fuzzed against a model', () => {
  it(
    'keeps every promise across edits, faults, kills, full disks and damaged journals',
    { timeout: 240_000 },
    async () => {
      await target.run({ seed: 20_260_523, runs: 40 });
    },
  );
});
