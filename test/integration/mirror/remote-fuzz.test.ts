/**
 * The offline copy against a fuzzed remote service (test/fuzz/remote) at a fixed seed and four runs (about
 * 2 s a run). Its seeds found: a schema naming one table id twice (one table's records copied under another's,
 * and the sync then blanked the service's cells), a record id twice in a walk (a copy said ready without a
 * record), a record id or cell the copy cannot hold (staged, refused, and met again by every later run), a
 * deep answer (a stack overflow, not an error), and a Retry-After of an hour (a sync waiting an hour).
 */
import { describe, it } from 'vitest';
import { target } from '../../fuzz/remote/target';

describe('the offline copy against a fuzzed remote service', () => {
  it(
    'ends each pull and sync with a clear error or a consistent copy, never a hang',
    { timeout: 120_000 },
    async () => {
      await target.run({ seed: 1, runs: 4 });
    },
  );
});
