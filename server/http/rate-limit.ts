/**
 * Airtable's limit of requests per second per base. Over it the base answers 429 for `penaltyMs`
 * (30 s on Airtable). The window is a rolling second over accepted requests, counted when they arrive.
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

  /** Whether a request to `baseId` at `now` may proceed; a refusal starts (or continues) the penalty. */
  admit(baseId: string, now: number): boolean {
    const until = this.penalties.get(baseId);
    if (until !== undefined) {
      if (now < until) return false;
      this.penalties.delete(baseId);
    }
    const windowStart = now - (1000 - ARRIVAL_JITTER_MS);
    const times = (this.recent.get(baseId) ?? []).filter((t) => t > windowStart);
    if (times.length >= this.perSecond) {
      this.penalties.set(baseId, now + this.penaltyMs);
      this.recent.set(baseId, times);
      return false;
    }
    times.push(now);
    this.recent.set(baseId, times);
    return true;
  }

  /** When the penalty of a base ends, if one is running. */
  pausedUntil(baseId: string, now: number): number | undefined {
    const until = this.penalties.get(baseId);
    return until !== undefined && until > now ? until : undefined;
  }
}
