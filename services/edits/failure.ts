/** How the edit services tell apart the failures of a call: refused by the service, or cancelled. */
import { RecordTableError } from '../../core/api/errors';

/** The service looked at the request and said no (a 4xx other than 429): sending it again will not help. */
export function isRejection(e: unknown): boolean {
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
