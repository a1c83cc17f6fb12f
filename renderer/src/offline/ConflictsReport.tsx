/**
 * A mirror's conflicts: for each cell changed on both sides since the last sync, the table, the record (by its
 * primary field, its id in the tooltip), field,
 * the value at the last sync, mine and theirs, decided one by one (Keep mine, Take theirs, Edit) or all at
 * once; a record deleted on one side and edited on the other is listed too. Until decided both values are
 * kept. The report can be saved as JSON (a download in the browser, the save dialog in Electron).
 */
import { useCallback, useEffect, useState } from 'react';
import type { MirrorConflictInfo, MirrorInfo, MirrorResolutionInfo } from '../../../core/contract';
import { plural } from '../../../core/records/format';
import { useApi } from '../api/ApiProvider';
import { errorMessage } from '../api/call-errors';
import { ModalDialog } from '../ui/ModalDialog';
import { editedValue, valueText } from './conflict-values';

interface Props {
  mirror: MirrorInfo;
  onClose: () => void;
  /** Some conflicts were decided: the table shows the rows again. */
  onResolved: () => void;
}

function download(json: string, name: string): void {
  const url = URL.createObjectURL(new Blob([json], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A side's value, or what stands for its absence. */
function sideText(c: MirrorConflictInfo, side: 'base' | 'mine' | 'theirs'): string {
  if (side === 'mine' && c.kind === 'deleted-local') return '(deleted here)';
  if (side === 'theirs' && c.kind === 'deleted-remote') return '(deleted on the service)';
  return valueText(c[side]);
}

export function ConflictsReport({ mirror, onClose, onResolved }: Props) {
  const api = useApi();
  const [conflicts, setConflicts] = useState<MirrorConflictInfo[]>();
  const [editing, setEditing] = useState<{ id: string; text: string }>();
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<{ text: string; failed: boolean }>();

  const load = useCallback(
    () =>
      api.call('mirror.conflicts', { mirrorId: mirror.id }).then(
        (r) => setConflicts(r.conflicts),
        (e: unknown) => setNote({ text: errorMessage(e), failed: true }),
      ),
    [api, mirror.id],
  );
  useEffect(() => void load(), [load]);

  const resolve = async (resolutions: MirrorResolutionInfo[]) => {
    setBusy(true);
    setNote(undefined);
    try {
      const { resolved, changed } = await api.call('mirror.resolve', {
        mirrorId: mirror.id,
        resolutions,
      });
      setEditing(undefined);
      const left =
        changed === 0
          ? ''
          : ` ${plural(changed, 'conflict')} left open: edited in the copy since listed, shown again with the new value.`;
      setNote({ text: `${plural(resolved, 'conflict')} resolved.${left}`, failed: false });
      onResolved();
    } catch (e) {
      setNote({ text: errorMessage(e), failed: true });
    } finally {
      setBusy(false);
      await load();
    }
  };

  const save = async () => {
    setNote(undefined);
    try {
      const r = await api.call('mirror.saveReport', { mirrorId: mirror.id });
      if (r.json !== undefined) download(r.json, r.fileName);
      if (r.filePath !== undefined) setNote({ text: `Saved to ${r.filePath}.`, failed: false });
    } catch (e) {
      setNote({ text: errorMessage(e), failed: true });
    }
  };

  const all = (choice: 'mine' | 'theirs') =>
    conflicts && void resolve(conflicts.map((c) => ({ conflictId: c.id, choice })));

  return (
    <ModalDialog label="Conflicts" className="td-conflicts" onClose={onClose}>
      <h2>
        Conflicts in the offline copy of {mirror.source.baseName}
        {conflicts && ` (${conflicts.length})`}
      </h2>
      <p className="td-muted">
        Changed here and on the service since the last sync. Until you decide, both values are kept.
      </p>
      {conflicts === undefined ? (
        <p className="td-muted">Loading the conflicts…</p>
      ) : conflicts.length === 0 ? (
        <p role="status">No conflicts left.</p>
      ) : (
        <table className="td-conflicts-table">
          <thead>
            <tr>
              <th>Table</th>
              <th>Record</th>
              <th>Field</th>
              <th>At the last sync</th>
              <th>Mine</th>
              <th>Theirs</th>
              <th>Decide</th>
            </tr>
          </thead>
          <tbody>
            {conflicts.map((c) => (
              <tr key={c.id} data-conflict={c.id}>
                <td>{c.tableName}</td>
                <td title={c.recordId}>{c.recordName ?? c.recordId}</td>
                <td>
                  {c.fieldName ??
                    (c.kind === 'deleted-local' ? 'record deleted here' : 'record deleted there')}
                </td>
                <td>{sideText(c, 'base')}</td>
                <td>{sideText(c, 'mine')}</td>
                <td>{sideText(c, 'theirs')}</td>
                <td className="td-conflict-actions">
                  {editing?.id === c.id ? (
                    <form
                      onSubmit={(e) => {
                        e.preventDefault();
                        void resolve([
                          { conflictId: c.id, choice: 'edit', value: editedValue(editing.text, c) },
                        ]);
                      }}
                    >
                      <input
                        aria-label={`Value for ${c.fieldName ?? c.recordName ?? c.recordId}`}
                        value={editing.text}
                        onChange={(e) => setEditing({ id: c.id, text: e.target.value })}
                        autoFocus
                      />
                      <button type="submit" disabled={busy}>
                        Save
                      </button>
                    </form>
                  ) : (
                    <>
                      <button
                        type="button"
                        disabled={busy}
                        onClick={() => void resolve([{ conflictId: c.id, choice: 'mine' }])}
                      >
                        Keep mine
                      </button>
                      <button
                        type="button"
                        disabled={busy}
                        onClick={() => void resolve([{ conflictId: c.id, choice: 'theirs' }])}
                      >
                        Take theirs
                      </button>
                      {c.fieldName !== undefined && (
                        <button
                          type="button"
                          disabled={busy}
                          onClick={() => setEditing({ id: c.id, text: valueText(c.mine, '') })}
                        >
                          Edit
                        </button>
                      )}
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {note && (
        <p role={note.failed ? 'alert' : 'status'} className={note.failed ? 'td-error' : 'td-ok'}>
          {note.text}
        </p>
      )}
      <div className="td-modal-actions">
        <button type="button" disabled={busy || !conflicts?.length} onClick={() => all('mine')}>
          Keep all mine
        </button>
        <button type="button" disabled={busy || !conflicts?.length} onClick={() => all('theirs')}>
          Take all theirs
        </button>
        <button type="button" onClick={() => void save()}>
          Save as JSON
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </ModalDialog>
  );
}
