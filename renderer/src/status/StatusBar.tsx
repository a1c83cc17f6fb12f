/**
 * The tab's status bar: the view's record count ("at least" while it is walked; records loaded until a count
 * comes, or a Count button where the walk that counts was declined for its calls), the request queue, the
 * request budget (given by the tab), the changes not yet confirmed (opening their panel), the last error, or
 * else the last bug (an error no code expected).
 */
import { useId, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import type { EventPayload } from '../../../core/contract';
import { plural } from '../../../core/records/format';
import { PendingStatus } from '../pending/PendingPanel';
import { pauseText } from './client-wait';

/** The `view.count` event: exact, or at least `count` while the service's ids are walked. */
export interface ViewCount {
  count: number;
  exact: boolean;
  /** The walk that counts was not agreed to (its calls of the month's allowance). */
  declined?: boolean | undefined;
}

interface Props {
  loaded: number;
  count?: ViewCount | undefined;
  total?: number | undefined;
  loadingPage?: number | undefined;
  client?: EventPayload<'client.status'> | undefined;
  error?: string | undefined;
  onRetry: () => void;
  /** A bug's message (last-resort.ts), shown where no expected error is. */
  bug?: string | undefined;
  onDismissBug: () => void;
  /** Counts the view now, where its walk was declined. */
  onCountNow?: () => void;
  /** The request budget's figure, where the base has an allowance. */
  children?: ReactNode;
}

const count = new Intl.NumberFormat();

function countText(loaded: number, total: number | undefined, viewCount: ViewCount | undefined): string {
  // The page chain's own end is exact too, and may come first (a short view).
  if (total !== undefined) return plural(total, 'record');
  if (viewCount?.exact) return plural(viewCount.count, 'record');
  // A count whose walk was declined says no more than the rows loaded.
  if (viewCount && !viewCount.declined) return `≥ ${count.format(Math.max(viewCount.count, loaded))} records`;
  return `${count.format(loaded)}+ loaded`;
}

/** Past this many characters a message may be cut short on its line: Details shows it whole. */
const SHORT_MESSAGE = 80;

/**
 * One line of the bar that needs the user: its full text in the title, where the line cuts it short, and for a
 * long one (a service's 2 KB refusal) a Details button that shows it whole above the bar, by keyboard too,
 * without making the bar any taller.
 */
function StatusAlert({
  message,
  action,
  onAction,
}: {
  message: string;
  action: string;
  onAction: () => void;
}) {
  const [whole, setWhole] = useState<string>();
  const panelId = useId();
  const details = useRef<HTMLButtonElement>(null);
  const open = whole === message;
  const long = message.length > SHORT_MESSAGE;
  const closeOnEscape = (e: { key: string; stopPropagation: () => void }) => {
    if (e.key !== 'Escape' || !open) return;
    e.stopPropagation();
    setWhole(undefined);
    details.current?.focus();
  };
  return (
    <>
      <span className="td-status-error" role="alert">
        <span className="td-status-error-text" title={message}>
          {message}
        </span>
        {long && (
          <button
            ref={details}
            type="button"
            aria-expanded={open}
            aria-controls={panelId}
            onClick={() => setWhole(open ? undefined : message)}
            onKeyDown={closeOnEscape}
          >
            {open ? 'Less' : 'Details'}
          </button>
        )}
        <button type="button" onClick={onAction}>
          {action}
        </button>
      </span>
      {long && open && (
        <div
          id={panelId}
          className="td-status-error-whole"
          role="region"
          aria-label="The whole message"
          tabIndex={0}
          onKeyDown={closeOnEscape}
        >
          {message}
        </div>
      )}
    </>
  );
}

export function StatusBar({
  loaded,
  total,
  count: viewCount,
  loadingPage,
  client,
  error,
  onRetry,
  bug,
  onDismissBug,
  onCountNow,
  children,
}: Props) {
  const pause = pauseText(client);
  const known = total ?? (viewCount?.exact ? viewCount.count : undefined);
  return (
    <footer className="td-status" aria-label="Status">
      <span className="td-status-count" data-testid="row-count">
        {countText(loaded, total, viewCount)}
      </span>
      {viewCount?.declined && total === undefined && onCountNow !== undefined && (
        <button
          type="button"
          className="td-status-count-now"
          onClick={onCountNow}
          title="Counting walks the view’s records: 1 API call per 100"
        >
          Count
        </button>
      )}
      {(viewCount !== undefined || total !== undefined) &&
        !viewCount?.declined &&
        (known === undefined || loaded < known) && (
          <span className="td-status-loaded" data-testid="loaded-count">
            {count.format(loaded)} loaded
          </span>
        )}
      {loadingPage !== undefined && (
        <span className="td-status-loading" data-testid="loading-page">
          Loading page {count.format(loadingPage)}…
        </span>
      )}
      {client && (
        <span className="td-status-queue" data-testid="request-queue">
          {[
            `${client.queued} queued`,
            `${client.inFlight} in flight`,
            `${client.ratePerSecond.toFixed(1)} req/s`,
            ...(pause === undefined ? [] : [pause]),
          ].join(' · ')}
        </span>
      )}
      {children}
      <PendingStatus />
      {error !== undefined && <StatusAlert message={error} action="Retry" onAction={onRetry} />}
      {error === undefined && bug !== undefined && (
        <StatusAlert message={bug} action="Dismiss" onAction={onDismissBug} />
      )}
    </footer>
  );
}
