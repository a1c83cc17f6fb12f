/**
 * A hosted base's offline copy, in the table picker: Make available offline (the whole base; one table from
 * its row), the pull's progress (and what holds it: the service's rate limit, a failure retried) with
 * Cancel, a partial copy with Resume, and a finished one to open. The pull runs in the services; leaving the
 * picker does not stop it, and its progress is found again by its base.
 */
import type { MirrorInfo } from '../../../core/contract';
import { plural } from '../../../core/records/format';
import { tabledesk } from '../bridge';
import { serviceWaitText } from '../status/client-wait';
import { useClientStatus } from '../status/useClientStatus';
import { mirrorOf, mirrorStore, sourceKey, syncedText, useMirrors } from './mirrors';
import { progressText } from './progress-text';

interface Props {
  connectionId: string;
  baseId: string;
  baseName: string;
  /** Opens a table of the offline copy (served by the local server). */
  onOpen: (mirror: MirrorInfo, table: string) => void;
}

export function OfflinePanel({ connectionId, baseId, baseName, onOpen }: Props) {
  const { mirrors, progress, pulls } = useMirrors();
  const mirror = mirrorOf(mirrors, connectionId, baseId);
  const pull = pulls.get(sourceKey(connectionId, baseId));
  const running =
    [...progress.values()].find(
      (p) => p.source?.connectionId === connectionId && p.source.baseId === baseId,
    ) ?? (mirror ? progress.get(mirror.id) : undefined);
  const pulling = pull?.running === true || mirror?.state === 'pulling';
  const waiting = serviceWaitText(useClientStatus(connectionId));
  const cancel = () => {
    const mirrorId = running?.mirrorId ?? mirror?.id;
    if (mirrorId !== undefined) void tabledesk().call('mirror.cancel', { mirrorId });
  };

  return (
    <section className="td-offline-panel" aria-label="Offline copy">
      {pulling ? (
        <>
          <p role="status" data-testid="mirror-progress">
            {running ? progressText(running) : `Making ${baseName} available offline…`}
          </p>
          {waiting && (
            <p className="td-warning" data-testid="pull-waiting">
              {waiting}
            </p>
          )}
          <button type="button" onClick={cancel} disabled={running === undefined && mirror === undefined}>
            Cancel
          </button>
        </>
      ) : mirror === undefined ? (
        <button
          type="button"
          onClick={() => mirrorStore.pull(connectionId, baseId)}
          title="Copy every table, record and file of this base, to work on without a network"
        >
          Make available offline
        </button>
      ) : mirror.state === 'partial' ? (
        <>
          <p className="td-warning">Partial offline copy of {baseName}: the pull stopped before the end.</p>
          <button
            type="button"
            onClick={() =>
              mirrorStore.pull(
                connectionId,
                baseId,
                mirror.tables.length > 0 ? mirror.tables.map((t) => t.id) : undefined,
              )
            }
          >
            Resume
          </button>
        </>
      ) : (
        <>
          <p>
            <span className="td-badge td-mirror-badge">Available offline</span>{' '}
            {plural(mirror.tables.length, 'table')}, {syncedText(mirror.lastSyncedAt)}
          </p>
          {mirror.tables[0] && (
            <button type="button" onClick={() => onOpen(mirror, mirror.tables[0]!.name)}>
              Open offline copy
            </button>
          )}
        </>
      )}
      {pull?.note && !pulling && (
        <p className="td-muted" role="status">
          {pull.note}
        </p>
      )}
    </section>
  );
}
