/**
 * Why a connection's requests are waiting, in words: the service's rate limit paused them (a 429 holds every
 * request of the base until its penalty ends), or a failed request is being retried. Without it a pull or a
 * sync held for the service's 30 s penalty would look stuck.
 */
import type { EventPayload } from '../../../core/contract';

type Status = Pick<EventPayload<'client.status'>, 'pausedUntil' | 'lastError'>;

const clock = (at: number) => new Date(at).toLocaleTimeString();

/** When the pause a 429 put on the base ends, while it lasts. */
function pauseEnd(status: Status | undefined, now: number): number | undefined {
  const until = status?.pausedUntil;
  return until !== undefined && until > now ? until : undefined;
}

/** The rate limit's pause, for the status bar's request figures. */
export function pauseText(status: Status | undefined, now = Date.now()): string | undefined {
  const until = pauseEnd(status, now);
  return until === undefined ? undefined : `paused by the rate limit until ${clock(until)}`;
}

/** What holds a running pull or sync: the rate limit's pause first, else the failure being retried. */
export function serviceWaitText(status: Status | undefined, now = Date.now()): string | undefined {
  const until = pauseEnd(status, now);
  if (until === undefined) return status?.lastError;
  return `The service asked to slow down (rate limit): waiting until ${clock(until)}, then going on.`;
}
