/** How the edit services tell apart the failures of a call: refused by the service, or cancelled. */
import { RecordTableError } from '../../core/api/errors';
import { ServiceError } from '../errors';

/**
 * The service looked at the request and said no (a 4xx other than the per-second 429), or the app cannot send it at all
 * (the connection is gone): sending it again as it is will not help, so the user decides.
 */
export function isRejection(e: unknown): boolean {
  if (e instanceof ServiceError) return true;
  // The month's allowance is spent: sent again it is refused again, until the month ends.
  if (e instanceof RecordTableError && e.quota) return true;
  return (
    e instanceof RecordTableError &&
    e.kind === 'http' &&
    e.status !== undefined &&
    e.status >= 400 &&
    e.status < 500 &&
    e.status !== 429 &&
    e.status !== 408
  );
}

export const isAbort = (e: unknown): boolean => e instanceof RecordTableError && e.kind === 'aborted';
