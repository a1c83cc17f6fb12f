/**
 * Airtable's limits of requests per second: 5 per base, and 50 across every base for one token's owner. Over
 * one, that base (or that user) is answered 429 for `penaltyMs` (30 s on Airtable). The window is a rolling
 * second over accepted requests, counted when they arrive. One RateLimiter is one limit, keyed by base id or
 * by user.
 */

/**
 * How much closer than a second the first and the last of `perSecond + 1` arrivals may be and still pass.
 * A client that starts requests 1/rate apart sees them arrive bunched by the
 * loopback round trip: a new connection's TCP connect, a proxy hop, event-loop delays. Measured with 60
 * requests at 203 ms, straight and through the fault proxy, on two cores busy with other work: most arrive
 * 0–2 ms after their start, the first of a connection up to 58 ms after; six consecutive arrivals spanned
 * 964 ms at the least (1015 ms of starts). 50 ms covers that; the worst rate it lets through is 5 in 950 ms.
 * (The first request of a cold process can trail by 150 ms: the core throttle holds back the start after a cold one.)
 */
export const ARRIVAL_JITTER_MS = 50;

export class RateLimiter {
  private readonly recent = new Map<string, number[]>();
  private readonly penalties = new Map<string, number>();

  constructor(
    private readonly perSecond: number,
    private readonly penaltyMs: number,
  ) {}

  /** Whether a request for `key` at `now` may proceed, counting it if so; a refusal starts the penalty. */
  admit(key: string, now: number): boolean {
    if (!this.check(key, now)) return false;
    this.record(key, now);
    return true;
  }

  /**
   * Whether a request for `key` at `now` would be within the limit, without counting it; over the limit
   * starts (or continues) the penalty. A request under two limits is checked against both before either
   * counts it, so one refused by the other limit is not counted here.
   */
  check(key: string, now: number): boolean {
    const until = this.penalties.get(key);
    if (until !== undefined) {
      if (now < until) return false;
      this.penalties.delete(key);
    }
    const windowStart = now - (1000 - ARRIVAL_JITTER_MS);
    const times = (this.recent.get(key) ?? []).filter((t) => t > windowStart);
    this.recent.set(key, times);
    if (times.length < this.perSecond) return true;
    this.penalties.set(key, now + this.penaltyMs);
    return false;
  }

  record(key: string, now: number): void {
    const times = this.recent.get(key) ?? [];
    times.push(now);
    this.recent.set(key, times);
  }

  /** When the penalty of a key ends, if one is running. */
  pausedUntil(key: string, now: number): number | undefined {
    const until = this.penalties.get(key);
    return until !== undefined && until > now ? until : undefined;
  }
}
