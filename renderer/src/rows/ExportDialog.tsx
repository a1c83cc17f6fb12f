/**
 * CSV export of the current view (formula, sort, fields) with progress and cancel. The services walk every
 * page through the throttle. The renderer never names a file: in Electron the main process asks where to save
 * (its save dialog) and writes the file, and the last progress names it; in the browser the finished CSV is
 * taken and downloaded by the page.
 */
import { useEffect, useRef, useState } from 'react';
import type { EventPayload, Request } from '../../../core/contract';
import { plural } from '../../../core/records/format';
import { errorMessage, tabledesk } from '../bridge';
import type { EditTarget } from '../editing/edit-store';

type Progress = EventPayload<'export.progress'>;

interface Props {
  target: EditTarget;
  query: NonNullable<Request<'export.start'>['query']>;
  columns: string[];
  /** The view's row count when known, for the bar's length. */
  total: number | undefined;
  onClose: () => void;
}

function download(csv: string, name: string): void {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function ExportDialog({ target, query, columns, total, onClose }: Props) {
  const [progress, setProgress] = useState<Progress>();
  const [error, setError] = useState<string>();
  const exportId = useRef<string>(undefined);

  useEffect(() => {
    const api = tabledesk();
    let closed = false;
    // Progress may arrive before `export.start` answers (a one-page export): keep the latest per export.
    const early = new Map<string, Progress>();
    const handle = (p: Progress) => {
      setProgress(p);
      if (p.state === 'failed') setError(p.error?.message ?? 'The export failed');
      if (p.state === 'done' && p.filePath === undefined) {
        api.call('export.take', { exportId: p.exportId }).then(
          ({ csv }) => {
            if (!closed) download(csv, `${target.table}.csv`);
          },
          (e: unknown) => setError(errorMessage(e)),
        );
      }
    };
    const off = api.on('export.progress', (p) => {
      if (p.exportId === exportId.current) handle(p);
      else if (exportId.current === undefined) early.set(p.exportId, p);
    });
    api.call('export.start', { target, query, columns }).then(
      (r) => {
        exportId.current = r.exportId;
        const seen = early.get(r.exportId);
        if (seen) handle(seen);
      },
      (e: unknown) => setError(errorMessage(e)),
    );
    return () => {
      closed = true;
      off();
    };
  }, [target, query, columns]);

  const state = progress?.state ?? 'running';
  const cancel = () => {
    const id = exportId.current;
    if (id !== undefined && state === 'running') void tabledesk().call('export.cancel', { exportId: id });
    onClose();
  };

  return (
    <div className="td-modal-backdrop">
      <div className="td-modal" role="dialog" aria-modal="true" aria-label="Export CSV">
        <h2>Export CSV</h2>
        <progress
          aria-label="Export progress"
          value={progress?.rows ?? 0}
          max={total ?? Math.max(progress?.rows ?? 0, 1)}
        />
        <p role="status" data-testid="export-status">
          {state === 'done'
            ? `Exported ${plural(progress?.rows ?? 0, 'row')}${progress?.filePath ? ` to ${progress.filePath}` : ''}.`
            : state === 'cancelled'
              ? 'Export cancelled.'
              : `${plural(progress?.rows ?? 0, 'row')}, ${plural(progress?.pages ?? 0, 'page')}…`}
        </p>
        {error && (
          <p className="td-error" role="alert">
            {error}
          </p>
        )}
        <div className="td-modal-actions">
          {state === 'running' && !error ? (
            <button type="button" onClick={cancel}>
              Cancel
            </button>
          ) : (
            <button type="button" onClick={onClose}>
              Close
            </button>
          )}
        </div>
      </div>
    </div>
  );
}
