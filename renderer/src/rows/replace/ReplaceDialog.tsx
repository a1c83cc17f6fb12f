/**
 * Find and replace: what to find and what to put instead (plain text or an RE2 regular expression, case and
 * whole-cell options) over the view, the selected rows or one column. Preview lists every change before anything
 * is sent (the first ones shown, all counted), what it costs in requests and time, and what it refuses with why;
 * Replace sends through the edit queue, with Stop, the list of what was sent, and Resume for the rest.
 */
import { useEffect, useState } from 'react';
import type { Column, EventPayload, Response } from '../../../../core/contract';
import { plural } from '../../../../core/records/format';
import { leftOutText } from '../../../../core/records/replace';
import { useApi } from '../../api/ApiProvider';
import { errorMessage } from '../../api/call-errors';
import { ModalDialog } from '../../ui/ModalDialog';

export type ReplaceScope = 'view' | 'selection' | 'column';

export interface ReplaceContext {
  target: { connectionId: string; baseId: string; table: string };
  query: { view?: string | undefined; formula?: string | undefined };
  /** The field columns shown, left to right. */
  fields: Column[];
  selectedIds: string[];
  focusedColumn: string | undefined;
}

type Preview = Response<'replace.preview'>;
type Applied = Response<'replace.apply'>;

type Phase =
  | { kind: 'form' }
  | { kind: 'reading'; replaceId: string }
  | { kind: 'preview'; replaceId: string; preview: Preview }
  | { kind: 'sending'; replaceId: string; preview: Preview }
  | { kind: 'ended'; replaceId: string; preview: Preview; applied: Applied };

/** "about 21 s", "about 3 min". */
function duration(seconds: number): string {
  if (seconds < 90) return `about ${Math.max(1, Math.round(seconds))} s`;
  return `about ${Math.round(seconds / 60)} min`;
}

const recordName = (row: { recordId: string; label?: string | undefined }) => row.label ?? row.recordId;

export function ReplaceDialog({ context, onClose }: { context: ReplaceContext; onClose: () => void }) {
  const api = useApi();
  const [find, setFind] = useState('');
  const [replacement, setReplacement] = useState('');
  const [regex, setRegex] = useState(false);
  const [matchCase, setMatchCase] = useState(false);
  const [wholeCell, setWholeCell] = useState(false);
  const [scope, setScope] = useState<ReplaceScope>(context.selectedIds.length > 0 ? 'selection' : 'view');
  const [column, setColumn] = useState(context.focusedColumn ?? context.fields[0]?.name ?? '');
  const [phase, setPhase] = useState<Phase>({ kind: 'form' });
  const [progress, setProgress] = useState<EventPayload<'replace.progress'>>();
  const [error, setError] = useState<string>();
  const busy = phase.kind === 'reading' || phase.kind === 'sending';
  const closeUnlessBusy = () => {
    if (!busy) onClose();
  };
  const replaceId = 'replaceId' in phase ? phase.replaceId : undefined;

  useEffect(() => {
    if (replaceId === undefined) return;
    return api.on('replace.progress', (p) => {
      if (p.replaceId === replaceId) setProgress(p);
    });
  }, [api, replaceId]);

  // Any change to the search makes the preview stale: it must be made again before replacing.
  const edited =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      if (phase.kind === 'preview' || phase.kind === 'ended') setPhase({ kind: 'form' });
      setError(undefined);
    };

  const primaryField = context.fields.find((f) => f.primary)?.name;
  const preview = async () => {
    const id = crypto.randomUUID();
    setPhase({ kind: 'reading', replaceId: id });
    setProgress(undefined);
    setError(undefined);
    const fields = (
      scope === 'column' ? context.fields.filter((f) => f.name === column) : context.fields
    ).map((f) => ({
      name: f.name,
      type: f.type,
      ...(f.options === undefined ? {} : { options: f.options }),
    }));
    try {
      const result = await api.call('replace.preview', {
        replaceId: id,
        target: context.target,
        query: context.query,
        ...(scope === 'selection' ? { recordIds: context.selectedIds } : {}),
        fields,
        ...(primaryField === undefined ? {} : { primaryField }),
        spec: { find, replacement, regex, matchCase, wholeCell },
      });
      setPhase({ kind: 'preview', replaceId: id, preview: result });
    } catch (e) {
      setPhase({ kind: 'form' });
      setError(errorMessage(e));
    }
  };

  const apply = async (id: string, shown: Preview) => {
    setPhase({ kind: 'sending', replaceId: id, preview: shown });
    setError(undefined);
    try {
      const applied = await api.call('replace.apply', { replaceId: id });
      setPhase({ kind: 'ended', replaceId: id, preview: shown, applied });
    } catch (e) {
      setPhase({ kind: 'preview', replaceId: id, preview: shown });
      setError(errorMessage(e));
    }
  };

  const stop = () => {
    if (replaceId !== undefined) void api.call('replace.stop', { replaceId });
  };

  const shown = 'preview' in phase ? phase.preview : undefined;
  return (
    <ModalDialog label="Find and replace" className="td-replace" onClose={closeUnlessBusy}>
      <h2>Find and replace</h2>
      <form
        className="td-replace-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (!busy && find !== '') void preview();
        }}
      >
        <label>
          Find
          <input value={find} disabled={busy} onChange={(e) => edited(setFind)(e.target.value)} />
        </label>
        <label>
          Replace with
          <input
            value={replacement}
            disabled={busy}
            onChange={(e) => edited(setReplacement)(e.target.value)}
          />
        </label>
        <div className="td-replace-options">
          <label>
            <input
              type="checkbox"
              checked={regex}
              disabled={busy}
              onChange={(e) => edited(setRegex)(e.target.checked)}
            />
            Regular expression
          </label>
          <label>
            <input
              type="checkbox"
              checked={matchCase}
              disabled={busy}
              onChange={(e) => edited(setMatchCase)(e.target.checked)}
            />
            Match case
          </label>
          <label>
            <input
              type="checkbox"
              checked={wholeCell}
              disabled={busy}
              onChange={(e) => edited(setWholeCell)(e.target.checked)}
            />
            Whole cell
          </label>
        </div>
        <div className="td-replace-options">
          <label>
            In
            <select
              aria-label="Replace in"
              value={scope}
              disabled={busy}
              onChange={(e) => edited(setScope)(e.target.value as ReplaceScope)}
            >
              <option value="view">The whole view</option>
              <option value="selection" disabled={context.selectedIds.length === 0}>
                Selected rows ({context.selectedIds.length.toLocaleString()})
              </option>
              <option value="column">One column</option>
            </select>
          </label>
          {scope === 'column' && (
            <label>
              Column
              <select
                aria-label="Column"
                value={column}
                disabled={busy}
                onChange={(e) => edited(setColumn)(e.target.value)}
              >
                {context.fields.map((f) => (
                  <option key={f.name} value={f.name}>
                    {f.name}
                  </option>
                ))}
              </select>
            </label>
          )}
          <button type="submit" disabled={busy || find === ''}>
            Preview
          </button>
        </div>
      </form>
      {error && (
        <p className="td-error" role="alert">
          {error}
        </p>
      )}
      {phase.kind === 'reading' && (
        <p role="status" data-testid="replace-reading">
          {progress?.waiting
            ? 'Waiting for your answer to the API calls question above: nothing is read until then.'
            : `Reading the records that may match: ${(progress?.done ?? 0).toLocaleString()} so far…`}
        </p>
      )}
      {shown && <PreviewLists preview={shown} />}
      {phase.kind === 'sending' && progress?.phase === 'sending' && progress.waiting && (
        <p role="status" data-testid="replace-status">
          Waiting for your answer to the API calls question above: nothing is sent until then.
        </p>
      )}
      {phase.kind === 'sending' && !(progress?.phase === 'sending' && progress.waiting) && (
        <div role="status" data-testid="replace-status">
          Replacing: {(progress?.phase === 'sending' ? progress.done : 0).toLocaleString()} of{' '}
          {plural(shown?.recordCount ?? 0, 'record')} saved
          <progress
            aria-label="Replace progress"
            max={Math.max(1, shown?.recordCount ?? 1)}
            value={progress?.phase === 'sending' ? progress.done : 0}
          />
        </div>
      )}
      {phase.kind === 'ended' && <Ended applied={phase.applied} />}
      <div className="td-modal-actions">
        {busy ? (
          <button type="button" onClick={stop}>
            Stop
          </button>
        ) : (
          <button type="button" onClick={onClose}>
            Close
          </button>
        )}
        {phase.kind === 'preview' && (
          <button
            type="button"
            className="td-primary"
            disabled={phase.preview.recordCount === 0}
            onClick={() => void apply(phase.replaceId, phase.preview)}
          >
            Replace in {plural(phase.preview.recordCount, 'record')}
          </button>
        )}
        {phase.kind === 'ended' && phase.applied.state === 'stopped' && (
          <button
            type="button"
            className="td-primary"
            onClick={() => void apply(phase.replaceId, phase.preview)}
          >
            Resume ({plural(phase.applied.left, 'record')} left)
          </button>
        )}
      </div>
    </ModalDialog>
  );
}

function PreviewLists({ preview }: { preview: Preview }) {
  return (
    <div className="td-replace-preview">
      <p role="status" data-testid="replace-summary">
        {/* `read` counts the records the search picked out (by the service's formula where it can), not the
            table's: "of 1 record read" read as if the table held one record. */}
        {plural(preview.changeCount, 'change')} in {plural(preview.recordCount, 'record')} of{' '}
        {plural(preview.read, 'record')} the search picked out ·{' '}
        {preview.requests === 0
          ? 'nothing to send'
          : `${plural(preview.requests, 'request')} · ${duration(preview.seconds)} at 5 requests/s`}
        {preview.refusedCount > 0 ? ` · ${plural(preview.refusedCount, 'change')} refused` : ''}
      </p>
      {preview.leftOut.length > 0 && (
        <p className="td-muted" data-testid="replace-left-out">
          {leftOutText(preview.leftOut)}
        </p>
      )}
      {preview.changes.length > 0 && (
        <table aria-label="Changes">
          <thead>
            <tr>
              <th>Record</th>
              <th>Field</th>
              <th>Before → after</th>
            </tr>
          </thead>
          <tbody>
            {preview.changes.map((c) => (
              <tr key={`${c.recordId}/${c.field}`}>
                <td>{recordName(c)}</td>
                <td>{c.field}</td>
                <td>
                  <del>{c.before}</del> → <ins>{c.after}</ins>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {preview.changeCount > preview.changes.length && (
        <p>The first {preview.changes.length.toLocaleString()} changes are listed; all are made.</p>
      )}
      {preview.refused.length > 0 && (
        <table aria-label="Refused changes">
          <thead>
            <tr>
              <th>Record</th>
              <th>Field</th>
              <th>Would be</th>
              <th>Why not</th>
            </tr>
          </thead>
          <tbody>
            {preview.refused.map((c) => (
              <tr key={`${c.recordId}/${c.field}`}>
                <td>{recordName(c)}</td>
                <td>{c.field}</td>
                <td>{c.after}</td>
                <td>{c.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

function Ended({ applied }: { applied: Applied }) {
  if (applied.state === 'done')
    return (
      <div role="status" data-testid="replace-status">
        <p>Replaced in {plural(applied.sentCount, 'record')}. Undo takes it back in one step.</p>
        <Skipped applied={applied} />
      </div>
    );
  return (
    <div role="status" data-testid="replace-status">
      <p>
        Stopped: {plural(applied.sentCount, 'record')} sent, {plural(applied.left, 'record')} not sent.
      </p>
      <details>
        <summary>Records sent</summary>
        <ul aria-label="Records sent">
          {applied.sent.map((r) => (
            <li key={r.recordId}>{recordName(r)}</li>
          ))}
        </ul>
      </details>
      <Skipped applied={applied} />
    </div>
  );
}

/** Cells edited after the preview: left as edited, so the user knows which ones the replace did not change. */
function Skipped({ applied }: { applied: Applied }) {
  if (applied.skippedCount === 0) return null;
  return (
    <details data-testid="replace-skipped">
      <summary>{plural(applied.skippedCount, 'cell')} edited after the preview, left as edited</summary>
      <ul aria-label="Cells left as edited">
        {applied.skipped.map((c) => (
          <li key={`${c.recordId}/${c.field}`}>
            {recordName(c)}: {c.field}
          </li>
        ))}
      </ul>
    </details>
  );
}
