/**
 * A hosted base's offline copy, in the table picker: Make available offline (the whole base; one table from
 * its row), the pull's progress (and what holds it: the service's rate limit, a failure retried) with
 * Cancel, a partial copy with Resume, and a finished one to open; either may be removed (after a question
 * that says what is not synced). The pull runs in the services; leaving the
 * picker does not stop it, and its progress is found again by its base.
 */
import { useState } from 'react';
import type { MirrorInfo } from '../../../core/contract';
import { plural } from '../../../core/records/format';
import { useApi } from '../api/ApiProvider';
import { errorMessage } from '../api/call-errors';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import type { Confirmation } from '../ui/ConfirmDialog';
import { serviceWaitText } from '../status/client-wait';
import { useClientStatus } from '../status/useClientStatus';
import { mirrorOf, sourceKey, syncedText, useMirrorStore, useMirrors } from './mirrors';
import { progressText } from './progress-text';

interface Props {
  connectionId: string;
  baseId: string;
  baseName: string;
  /** Opens a table of the offline copy (served by the local server). */
  onOpen: (mirror: MirrorInfo, table: string) => void;
}

export function OfflinePanel({ connectionId, baseId, baseName, onOpen }: Props) {
  const api = useApi();
  const { mirrors, progress, pulls } = useMirrors();
  const mirrorStore = useMirrorStore();
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
    if (mirrorId !== undefined) void api.call('mirror.cancel', { mirrorId });
  };
  const [ask, setAsk] = useState<Confirmation | undefined>();
  const [removeError, setRemoveError] = useState<string | undefined>();
  const askRemove = (m: MirrorInfo) => {
    const unsynced = [
      m.localChanges > 0 ? plural(m.localChanges, 'local change') : '',
      m.conflicts > 0 ? plural(m.conflicts, 'conflict') : '',
    ].filter(Boolean);
    setRemoveError(undefined);
    setAsk({
      title: 'Remove the offline copy?',
      text:
        `The offline copy of ${baseName} is removed from this computer; the base on the service is not touched.` +
        (unsynced.length > 0 ? ` ${unsynced.join(' and ')} not synced will be lost.` : ''),
      action: 'Remove copy',
      run: () =>
        void api.call('mirror.remove', { mirrorId: m.id, force: true }).then(
          () => mirrorStore.refresh(),
          (e: unknown) => setRemoveError(errorMessage(e)),
        ),
    });
  };
  const removeButton = (m: MirrorInfo) => (
    <button type="button" className="td-link-button" onClick={() => askRemove(m)}>
      Remove offline copy…
    </button>
  );

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
          {removeButton(mirror)}
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
          {removeButton(mirror)}
        </>
      )}
      {removeError && (
        <p className="td-warning" role="alert">
          {removeError}
        </p>
      )}
      {ask && <ConfirmDialog ask={ask} onClose={() => setAsk(undefined)} />}
      {pull?.note && !pulling && (
        <p className="td-muted" role="status">
          {pull.note}
        </p>
      )}
    </section>
  );
}
