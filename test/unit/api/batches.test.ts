import { describe, expect, it } from 'vitest';
import { runBatches } from '../../../core/api/batches';
import { RecordTableError } from '../../../core/api/errors';

describe('runBatches', () => {
  it('splits into requests of at most 10 and returns results in input order', async () => {
    const sizes: number[] = [];
    const out = await runBatches(
      Array.from({ length: 25 }, (_, i) => i),
      async (batch) => {
        sizes.push(batch.length);
        // Later batches answer first: the order must still be the input's.
        await new Promise((r) => setTimeout(r, 30 - batch[0]!));
        return batch.map((n) => n * 2);
      },
    );
    expect(sizes).toEqual([10, 10, 5]);
    expect(out).toEqual(Array.from({ length: 25 }, (_, i) => i * 2));
  });

  it('lets the other batches finish, then rejects with what was done', async () => {
    const err = await runBatches(
      Array.from({ length: 25 }, (_, i) => i),
      async (batch) => {
        if (batch[0] === 10) throw new RecordTableError({ kind: 'http', status: 422, message: 'refused' });
        return batch;
      },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RecordTableError);
    const completed = (err as RecordTableError).completed ?? [];
    expect(completed).toHaveLength(25);
    expect(completed.slice(0, 10)).toEqual(Array.from({ length: 10 }, (_, i) => i));
    expect(completed.slice(10, 20)).toEqual(Array(10).fill(undefined));
    expect(completed.slice(20)).toEqual([20, 21, 22, 23, 24]);
    expect((err as Error).message).toContain('15 of 25 done');
  });

  it('runs one batch at a time when asked, and stops at the first failure', async () => {
    let running = 0;
    let sent = 0;
    const err = await runBatches(
      Array.from({ length: 30 }, (_, i) => i),
      async (batch) => {
        expect(running).toBe(0);
        running++;
        sent++;
        await new Promise((r) => setTimeout(r, 5));
        running--;
        if (batch[0] === 10) throw new RecordTableError({ kind: 'network', message: 'gone' });
        return batch;
      },
      true,
    ).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'network' });
    expect(sent).toBe(2);
  });
});
