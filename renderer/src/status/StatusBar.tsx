/** The tab's status bar: records loaded (and the total once known), the request queue, the last error. */
import type { EventPayload } from '../../../core/contract';
import { plural } from '../../../core/records/format';

interface Props {
  loaded: number;
  total?: number | undefined;
  loadingPage?: number | undefined;
  client?: EventPayload<'client.status'> | undefined;
  error?: string | undefined;
  onRetry: () => void;
}

const count = new Intl.NumberFormat();

export function StatusBar({ loaded, total, loadingPage, client, error, onRetry }: Props) {
  return (
    <footer className="td-status" aria-label="Status">
      <span className="td-status-count" data-testid="row-count">
        {total === undefined
          ? `${count.format(loaded)}+ loaded`
          : `${plural(total, 'record')} · ${count.format(loaded)} loaded`}
      </span>
      {loadingPage !== undefined && (
        <span className="td-status-loading" data-testid="loading-page">
          Loading page {count.format(loadingPage)}…
        </span>
      )}
      {client && (
        <span className="td-status-queue" data-testid="request-queue">
          {client.queued} queued · {client.inFlight} in flight · {client.ratePerSecond.toFixed(1)} req/s
          {client.pausedUntil !== undefined &&
            ` · paused by the rate limit until ${new Date(client.pausedUntil).toLocaleTimeString()}`}
        </span>
      )}
      {error !== undefined && (
        <span className="td-status-error" role="alert">
          {error}
          <button type="button" onClick={onRetry}>
            Retry
          </button>
        </span>
      )}
    </footer>
  );
}
