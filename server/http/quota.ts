/**
 * A monthly allowance of calls per workspace, as the hosted service's plans have (Free 1,000, Team 100,000),
 * so that a client meets a real refusal in tests. Off unless asked for (`monthlyCalls`). Every base of the
 * local server is in one workspace; calls with no base (whoami, the list of bases) are in none and are not
 * counted. Months are calendar months in UTC, counted in memory: a restart starts them afresh.
 *
 * The refusal's shape is not documented (airtable-wire.md §5, §12): third parties report a 429 of type
 * PUBLIC_API_BILLING_LIMIT_EXCEEDED, which is what this answers, with a message that says what and until when.
 */
import { ServiceError } from '../errors';

export const QUOTA_TYPE = 'PUBLIC_API_BILLING_LIMIT_EXCEEDED';

/** "2025-11" for a time in November 2025, UTC. */
export const monthOf = (at: number): string => new Date(at).toISOString().slice(0, 7);

/** The first instant of the month after the one `at` falls in, UTC. */
export function nextMonthStart(at: number): number {
  const d = new Date(at);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

export class MonthlyQuota {
  private readonly used = new Map<string, { month: string; calls: number }>();

  constructor(private readonly limit: number) {}

  /** Counts a call of `workspace` at `now`, or refuses it once the month's allowance is spent. */
  admit(workspace: string, now: number): boolean {
    const month = monthOf(now);
    let entry = this.used.get(workspace);
    if (entry?.month !== month) {
      entry = { month, calls: 0 };
      this.used.set(workspace, entry);
    }
    if (entry.calls >= this.limit) return false;
    entry.calls++;
    return true;
  }

  refusal(now: number): ServiceError {
    const resumes = new Date(nextMonthStart(now)).toISOString().slice(0, 10);
    return new ServiceError(
      429,
      QUOTA_TYPE,
      `This workspace has used its ${this.limit.toLocaleString('en-US')} API calls for the month; calls are refused until ${resumes}. Upgrade the plan for more.`,
    );
  }
}
