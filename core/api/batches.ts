/** Calls on many records: split into requests of at most 10, results in input order. */
import { RecordTableError } from './errors';
import { chunk } from './query';

export const BATCH_SIZE = 10;

/**
 * Runs one request per chunk and joins the results in input order. Chunks run concurrently (the scheduler
 * spaces their starts and lets them overlap) unless `sequential`, which stops at the first failure; a failure
 * lets the chunks already under way finish, then rejects with it, its `completed` holding what was done
 * (undefined where not).
 */
export async function runBatches<T, R>(
  items: readonly T[],
  send: (batch: T[]) => Promise<R[]>,
  sequential = false,
): Promise<R[]> {
  const batches = chunk(items, BATCH_SIZE);
  const settled: PromiseSettledResult<R[]>[] = [];
  if (sequential) {
    for (const batch of batches) {
      const result = await send(batch).then(
        (value): PromiseFulfilledResult<R[]> => ({ status: 'fulfilled', value }),
        (reason: unknown): PromiseRejectedResult => ({ status: 'rejected', reason }),
      );
      settled.push(result);
      if (result.status === 'rejected') break;
    }
  } else {
    settled.push(...(await Promise.allSettled(batches.map(send))));
  }
  const failure = settled.find((s) => s.status === 'rejected');
  const completed = batches.flatMap((batch, i) => {
    const s = settled[i];
    return s?.status === 'fulfilled' ? s.value : batch.map(() => undefined);
  });
  if (failure === undefined) return completed as R[];
  const reason = failure.reason;
  if (reason instanceof RecordTableError) {
    reason.completed = completed;
    const done = completed.filter((r) => r !== undefined).length;
    if (batches.length > 1) reason.message += ` (${done} of ${items.length} done in other requests)`;
  }
  throw reason;
}
