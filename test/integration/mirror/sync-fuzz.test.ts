/**
 * The offline copy's sync, fuzzed against a model (test/fuzz/sync) at a fixed seed and a few histories (about
 * 8 s a history here, more on a loaded machine). A failure prints its seed and the shrunk history.
 */
import { describe, it } from 'vitest';
import { target } from '../../fuzz/sync/target';

describe('the sync of an offline copy, fuzzed against a model', () => {
  it(
    'loses no change and overwrites no side of a conflict, and ends with the copy equal to the service',
    { timeout: 300_000 },
    async () => {
      await target.run({ seed: 2, runs: 6 });
    },
  );
});
