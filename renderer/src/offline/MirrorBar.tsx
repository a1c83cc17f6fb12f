/**
 * The toolbar of a table served from an offline mirror: a badge saying it is a copy, when it was last synced,
 * how many local changes wait and how many attachments are linked only (not downloaded); Sync with its result
 * (sent, received, conflicts), or what holds it (the service's rate limit, a failure being retried); the
 * conflicts report; and how often the mirror syncs by itself (off by default, remembered by the services).
 */
import { useState } from 'react';
import type { MirrorInfo, Response } from '../../../core/contract';
import { plural } from '../../../core/records/format';
import { useApi } from '../api/ApiProvider';
import { errorMessage } from '../api/call-errors';
import { serviceWaitText } from '../status/client-wait';
import { useClientStatus } from '../status/useClientStatus';
import { ConflictsReport } from './ConflictsReport';
import { syncedText, useMirrorStore, useMirrors } from './mirrors';
import { progressText } from './progress-text';
import { syncOutcome } from './sync-outcome';

const AUTO_SYNC_CHOICES = [0, 5, 15, 30, 60];

/** The conflicts a sync found, and how many of them are left once some are decided. */
function conflictsText(found: number, left: number): string {
  if (left >= found) return plural(found, 'conflict');
  return `${plural(found, 'conflict')} (${left === 0 ? 'resolved' : `${left} left`})`;
}

function resultText(r: Response<'mirror.sync'>, conflictsLeft: number): string {
  const parts = [`Sent ${r.sent}`, `received ${r.received}`];
  if (r.deleted > 0) parts.push(`deleted ${r.deleted}`);
  parts.push(conflictsText(r.conflicts, conflictsLeft));
  if (r.filesMissing > 0) parts.push(`${plural(r.filesMissing, 'file')} not downloaded (linked only)`);
  const schema = r.schemaChanges.length > 0 ? ` Schema: ${r.schemaChanges.join('; ')}.` : '';
  return `${parts.join(', ')}.${schema}`;
}

interface Props {
  mirror: MirrorInfo;
  /** The tab shows the service's rows again (after a sync or a resolution brought other values). */
  onReload: () => void;
}

export function MirrorBar({ mirror, onReload }: Props) {
  const api = useApi();
  const { progress } = useMirrors();
  const mirrorStore = useMirrorStore();
  const [syncing, setSyncing] = useState(false);
  /** The last manual sync's answer (its conflicts told as they stand now), or why it failed, and when. */
  const [result, setResult] = useState<
    ({ synced: Response<'mirror.sync'> } | { failed: string }) & { at: number }
  >();
  const [report, setReport] = useState(false);
  const running = progress.get(mirror.id);
  const service = useClientStatus(mirror.source.connectionId);

  const sync = () => {
    setSyncing(true);
    setResult(undefined);
    api
      .call('mirror.sync', { mirrorId: mirror.id })
      .then(
        (r) => {
          setResult({ synced: r, at: Date.now() });
          if (r.received > 0 || r.deleted > 0 || r.schemaChanges.length > 0) onReload();
          if (r.conflicts > 0) setReport(true);
        },
        (e: unknown) => setResult({ failed: `Not synced: ${errorMessage(e)}`, at: Date.now() }),
      )
      .finally(() => {
        setSyncing(false);
        mirrorStore.ended(mirror.id);
      });
  };

  const setAutoSync = (minutes: number) =>
    void api
      .call('mirror.autoSync', { mirrorId: mirror.id, minutes })
      .catch((e: unknown) => setResult({ failed: errorMessage(e), at: Date.now() }));

  const busy = syncing || mirror.state === 'syncing';
  const waiting = busy ? serviceWaitText(service) : undefined;
  const outcome = syncOutcome(mirror, result?.at);
  const shown = outcome === 'manual' ? result : undefined;
  return (
    <div className="td-mirror-bar" role="group" aria-label="Offline copy">
      <span
        className="td-badge td-mirror-badge"
        data-testid="mirror-badge"
        title={`A copy of ${mirror.source.baseName}, served by the local server`}
      >
        Offline copy · {syncedText(mirror.lastSyncedAt)} · {plural(mirror.localChanges, 'local change')}
        {mirror.filesMissing > 0 && ` · ${plural(mirror.filesMissing, 'file')} not downloaded`}
      </span>
      <button type="button" onClick={sync} disabled={busy || mirror.state !== 'ready'}>
        {busy ? 'Syncing…' : 'Sync'}
      </button>
      {mirror.conflicts > 0 && (
        <button type="button" className="td-mirror-conflicts" onClick={() => setReport(true)}>
          {plural(mirror.conflicts, 'conflict')}
        </button>
      )}
      <label>
        Sync by itself
        <select value={mirror.autoSyncMinutes} onChange={(e) => setAutoSync(Number(e.target.value))}>
          {[...new Set([...AUTO_SYNC_CHOICES, mirror.autoSyncMinutes])].map((m) => (
            <option key={m} value={m}>
              {m === 0 ? 'never' : `every ${m} min`}
            </option>
          ))}
        </select>
      </label>
      {busy && running && <span role="status">{progressText(running)}</span>}
      {waiting && (
        <span className="td-warning" data-testid="sync-waiting">
          {waiting}
        </span>
      )}
      {shown && 'failed' in shown && (
        <span role="alert" className="td-error" data-testid="sync-result">
          {shown.failed}
        </span>
      )}
      {shown && 'synced' in shown && (
        <span role="status" data-testid="sync-result">
          {resultText(shown.synced, mirror.conflicts)}
        </span>
      )}
      {outcome === 'auto-error' && (
        <span className="td-warning" title={mirror.autoSyncError}>
          The last automatic sync failed: {mirror.autoSyncError}
        </span>
      )}
      {report && <ConflictsReport mirror={mirror} onClose={() => setReport(false)} onResolved={onReload} />}
    </div>
  );
}
