import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Fault } from '../../support/fault-proxy';
import { startHarness } from './harness';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const faultArb: fc.Arbitrary<Fault> = fc.oneof(
  fc.constant<Fault>({ type: 'status', status: 429, retryAfter: '0.1' }),
  fc.constant<Fault>({ type: 'status', status: 503 }),
  fc.constant<Fault>({ type: 'status', status: 500, body: 'Internal error' }),
  fc.constant<Fault>({ type: 'replace-body', status: 200, body: '<html>' }),
  fc.constant<Fault>({ type: 'drop-before' }),
  fc.constant<Fault>({ type: 'drop-after' }),
  fc.integer({ min: 50, max: 400 }).map((ms): Fault => ({ type: 'delay', ms, after: 'response' })),
);

const editArb = fc.record({
  record: fc.integer({ min: 0, max: 11 }),
  field: fc.constantFrom('Name', 'Points'),
  value: fc.integer({ min: 0, max: 1000 }),
  pauseMs: fc.constantFrom(0, 0, 5, 40, 250),
});

describe('edit queue, any order of edits and faults', () => {
  it('ends with the last value of every cell on the server, nothing pending, nothing rejected', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(editArb, { minLength: 1, maxLength: 40 }),
        fc.array(fc.tuple(faultArb, fc.integer({ min: 1, max: 3 })), { maxLength: 6 }),
        async (edits, faults) => {
          const h = await startHarness({ proxy: true, client: { maxRetries: 1, rateLimitPauseMs: 100 } });
          try {
            const tasks = (await h.reader('Tasks').listPage({ pageSize: 12 })).records;
            for (const [fault, times] of faults)
              h.proxy!.inject(fault, { match: (r) => r.method === 'PATCH', times });
            const target = h.target('Tasks');
            const last = new Map<string, Record<string, unknown>>();
            for (const e of edits) {
              const id = tasks[e.record]!.id;
              const value = e.field === 'Name' ? `v${e.value}` : e.value;
              last.set(id, { ...last.get(id), [e.field]: value });
              await h.parts.queue.edit(target, [{ recordId: id, fields: { [e.field]: value } }]);
              if (e.pauseMs > 0) await sleep(e.pauseMs);
            }
            await h.parts.queue.whenIdle();
            const stored = await h.snapshot('Tasks');
            for (const [id, fields] of last) expect(stored.get(id)?.fields).toMatchObject(fields);
            expect(h.parts.queue.status()).toMatchObject({ pending: 0, rejected: 0 });
          } finally {
            await h.close();
          }
        },
      ),
      { numRuns: 8, endOnFailure: true },
    );
  });
});
