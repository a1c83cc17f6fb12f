/**
 * The token-wide gate spaces its next start from the end of an event-loop stall, as each base's throttle does
 * (issue 26): a start taken just before the stall may reach the service only when it ends.
 */
import { describe, expect, it } from 'vitest';
import { TokenGate } from '../../../core/api/scheduler';

describe('TokenGate after a stall of the event loop', () => {
  it('spaces the next start from the end of the stall, not from the start before it', async () => {
    const gate = new TokenGate(300);
    await gate.take(0);
    // The loop is held 150 ms just after this start: its request may reach the service only at the end.
    const until = Date.now() + 150;
    while (Date.now() < until);
    const stallEnded = Date.now();
    let next = 0;
    await gate.take(0).then(() => void (next = Date.now()));
    // A lower bound only: a loaded machine can only start it later.
    expect(next - stallEnded).toBeGreaterThanOrEqual(300 - 5);
  });
});
