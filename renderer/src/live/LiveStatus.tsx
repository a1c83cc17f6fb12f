/**
 * Other people's changes in the status bar: records created elsewhere since the table was opened wait as
 * "3 changes — Refresh" (rows never move under the cursor), and how often the app looks for changes.
 */
import { useEffect, useMemo, useState } from 'react';
import { LIVE_INTERVALS } from '../../../core/contract/live';
import { plural } from '../../../core/records/format';
import { useApi } from '../api/ApiProvider';
import { errorMessage } from '../api/call-errors';
import { sameTarget } from '../editing/edit-store';
import { intervalLabel } from './interval-label';

interface Props {
  connectionId: string;
  baseId: string;
  table: string;
  /** Refresh applied: the grid reads its rows again. */
  onRefreshed: () => void;
}

export function LiveStatus({ connectionId, baseId, table, onRefreshed }: Props) {
  const api = useApi();
  const target = useMemo(() => ({ connectionId, baseId, table }), [connectionId, baseId, table]);
  const [waiting, setWaiting] = useState<{ created: number; many: boolean }>({ created: 0, many: false });
  const [seconds, setSeconds] = useState<number>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    const off = api.on('live.changes', (e) => {
      if (sameTarget(e.target, target)) setWaiting({ created: e.created, many: e.many });
    });
    api.call('live.interval', {}).then(
      (r) => setSeconds(r.seconds),
      () => undefined,
    );
    return off;
  }, [api, target]);
  useEffect(() => {
    // The prompt choice reads every second only while someone looks at the window (a call each): not once it
    // loses focus, nor while it is hidden (minimized, behind another desktop) though it kept focus.
    const tell = () =>
      void api
        .call('live.focus', { focused: document.hasFocus() && document.visibilityState === 'visible' })
        .catch(() => undefined);
    tell();
    window.addEventListener('focus', tell);
    window.addEventListener('blur', tell);
    document.addEventListener('visibilitychange', tell);
    return () => {
      window.removeEventListener('focus', tell);
      window.removeEventListener('blur', tell);
      document.removeEventListener('visibilitychange', tell);
    };
  }, [api]);
  const choose = (s: number) =>
    void api.call('live.interval', { seconds: s }).then(
      (r) => setSeconds(r.seconds),
      (e: unknown) => setError(errorMessage(e)),
    );
  const refresh = () =>
    void api.call('live.refresh', target).then(
      () => {
        setWaiting({ created: 0, many: false });
        onRefreshed();
      },
      (e: unknown) => setError(errorMessage(e)),
    );
  return (
    <>
      {(waiting.created > 0 || waiting.many) && (
        <button
          type="button"
          className="td-status-budget td-status-live"
          data-testid="live-changes"
          onClick={refresh}
        >
          {waiting.many ? 'Many changes' : plural(waiting.created, 'change')} — Refresh
        </button>
      )}
      {seconds !== undefined && (
        <label
          className="td-status-live-interval"
          title="How often this app looks for other people’s changes: one API call a look for each open table (one a base by webhook), counted in API calls"
        >
          Changes:{' '}
          <select
            aria-label="Look for other people’s changes"
            value={seconds}
            onChange={(e) => choose(Number(e.target.value))}
          >
            {[...new Set([...LIVE_INTERVALS, seconds])].map((s) => (
              <option key={s} value={s}>
                {intervalLabel(s)}
              </option>
            ))}
          </select>
        </label>
      )}
      {error !== undefined && (
        <span className="td-status-error" role="alert">
          {error}
        </span>
      )}
    </>
  );
}
