import { describe, expect, it } from 'vitest';
import { ARRIVAL_JITTER_MS, RateLimiter } from '../../../server/http/rate-limit';

const BASE = 'appRateLimitTest01';

/** Feeds arrivals at the given times to a fresh limiter of 5/s; returns which were admitted. */
function admitted(times: number[]): boolean[] {
  const limiter = new RateLimiter(5, 30_000);
  return times.map((t) => limiter.admit(BASE, t));
}

describe('RateLimiter: 5 per rolling second, less only the loopback jitter', () => {
  it('refuses a sixth request arriving 925 ms after the first (the old 100 ms of slack let it through)', () => {
    expect(admitted([0, 185, 370, 555, 740, 925])).toEqual([true, true, true, true, true, false]);
  });

  it('refuses the sixth just inside the window and admits it just outside', () => {
    const edge = 1000 - ARRIVAL_JITTER_MS;
    expect(admitted([0, 200, 400, 600, 800, edge - 1])).toEqual([true, true, true, true, true, false]);
    expect(admitted([0, 200, 400, 600, 800, edge])).toEqual([true, true, true, true, true, true]);
  });

  it('admits requests started 203 ms apart even when the first arrives 58 ms late', () => {
    expect(admitted([58, 203, 406, 609, 812, 1015, 1218, 1421])).toEqual(Array(8).fill(true));
  });

  it('holds the penalty after a refusal, then counts afresh', () => {
    const limiter = new RateLimiter(5, 1500);
    for (const t of [0, 10, 20, 30, 40]) expect(limiter.admit(BASE, t)).toBe(true);
    expect(limiter.admit(BASE, 50)).toBe(false);
    expect(limiter.pausedUntil(BASE, 60)).toBe(1550);
    expect(limiter.admit(BASE, 1549)).toBe(false);
    expect(limiter.admit(BASE, 1550)).toBe(true);
    expect(limiter.admit('appAnotherBase0001', 60)).toBe(true);
  });
});
