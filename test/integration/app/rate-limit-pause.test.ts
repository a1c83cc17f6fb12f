/**
 * The pause after a 429 that the app's own connections use (every other test gives its client a short pause
 * of its own): the hosted service's penalty is 30 s, so a 429 without Retry-After holds the whole base that
 * long, and a Retry-After, when given, is what the base waits instead.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { EventPayload } from '../../../core/contract';
import type { FaultProxy } from '../../support/fault-proxy';
import type { LocalServer } from '../../support/local-server';
import { startHostedHarness } from './harness';
import type { Harness } from './harness';

let h: Harness | undefined;
let hosted: LocalServer | undefined;
let proxy: FaultProxy | undefined;

afterEach(async () => {
  // The edit still waiting out the pause is abandoned to the journal: nothing is left running.
  await h?.close();
  await proxy?.close();
  await hosted?.close();
  h = hosted = proxy = undefined;
});

const until = async <T>(check: () => T | undefined, ms = 10_000): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const found = check();
    if (found !== undefined) return found;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
};

async function editThrough429(retryAfter?: number): Promise<{ before: number; pausedUntil: number }> {
  let connectionId: string;
  ({ hosted, proxy, h, connectionId } = await startHostedHarness({ demo: { largeTableRecords: 5 } }));
  const [task] = (await hosted.request('GET', `/v0/${hosted.baseId}/Tasks?pageSize=1`)).body.records as {
    id: string;
  }[];
  proxy.inject(
    { type: 'status', status: 429, ...(retryAfter === undefined ? {} : { retryAfter }) },
    { match: (r) => r.method === 'PATCH' },
  );
  const before = Date.now();
  await h.call('edits.edit', {
    target: { connectionId, baseId: hosted.baseId, table: 'Tasks' },
    changes: [{ recordId: task!.id, fields: { Name: 'after the pause' } }],
  });
  const status = await until(() =>
    h!
      .eventsOf('client.status')
      .find((s): s is EventPayload<'client.status'> & { pausedUntil: number } => s.pausedUntil !== undefined),
  );
  return { before, pausedUntil: status.pausedUntil };
}

describe("a 429 on the app's own connection", () => {
  it('without Retry-After pauses the base for the service’s 30 s penalty', async () => {
    const { before, pausedUntil } = await editThrough429();
    const seen = Date.now();
    // Set when the 429 came, which was after `before` and before it was seen.
    expect(pausedUntil).toBeGreaterThanOrEqual(before + 30_000);
    expect(pausedUntil).toBeLessThanOrEqual(seen + 30_000);
    // Held: the PATCH was not sent again in the meantime.
    expect(proxy!.log.filter((r) => r.method === 'PATCH')).toHaveLength(1);
  });

  it('with Retry-After pauses the base as long as the service asks', async () => {
    const { before, pausedUntil } = await editThrough429(45);
    expect(pausedUntil).toBeGreaterThanOrEqual(before + 45_000);
    expect(pausedUntil).toBeLessThanOrEqual(Date.now() + 45_000);
  });
});
