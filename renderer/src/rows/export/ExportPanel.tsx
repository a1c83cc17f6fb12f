/**
 * The CSV export's panel: not modal, so the grid stays usable (browse, edit) while the export runs. A real
 * bar (records written of the view's count when it is known, else pages so far), the time left at the pace so
 * far, Cancel, and Hide: the export goes on, and the Export button shows how far it is.
 */
import { plural } from '../../../../core/records/format';
import { msLeft, timeLeftText } from '../../ui/time-left';
import type { ExportJob } from './useExportJob';
import { useFocusReturn } from '../../ui/useFocusReturn';

interface Props {
  job: ExportJob;
  /** The view's record count when known. */
  total: number | undefined;
  onCancel: () => void;
  onHide: () => void;
  onClose: () => void;
}

const count = new Intl.NumberFormat();

/** An export asks for the service's default page, 100 records. */
const PAGE_SIZE = 100;

/** "24%" of the records when the count is known, else the records so far: for the Export button. */
export function exportShort(job: ExportJob, total: number | undefined): string {
  if (total !== undefined && total > 0) return `${Math.min(99, Math.floor((job.rows / total) * 100))}%`;
  return `${count.format(job.rows)} records`;
}

function runningText(job: ExportJob, total: number | undefined): string {
  const pages = plural(job.pages, 'page');
  if (total === undefined) return `Exporting: ${plural(job.rows, 'record')} written, ${pages}…`;
  const pagesLeft = Math.ceil(Math.max(0, total - job.rows) / PAGE_SIZE);
  const left = msLeft(pagesLeft, { pages: job.pages, ms: job.at - job.startedAt });
  return `Exporting: ${count.format(job.rows)} of ${plural(total, 'record')} written, ${pages} · ${timeLeftText(left)}`;
}

export function ExportPanel({ job, total, onCancel, onHide, onClose }: Props) {
  useFocusReturn();
  const running = job.state === 'running' && job.error === undefined;
  const status =
    job.state === 'done'
      ? `Exported ${plural(job.rows, 'record')}${job.filePath ? ` to ${job.filePath}` : ''}.`
      : job.state === 'cancelled'
        ? 'Export cancelled.'
        : runningText(job, total);
  const max = job.state === 'done' ? Math.max(job.rows, 1) : total;
  return (
    <div className="td-export-panel" role="dialog" aria-label="Export CSV">
      <h2>Export CSV</h2>
      <progress
        aria-label="Export progress"
        {...(max === undefined ? {} : { value: Math.min(job.rows, max), max })}
      />
      <p role="status" data-testid="export-status">
        {status}
      </p>
      {job.error && (
        <p className="td-error" role="alert">
          {job.error}
        </p>
      )}
      <div className="td-modal-actions">
        {running ? (
          <>
            <button
              type="button"
              onClick={onHide}
              title="The export goes on; the Export button shows how far"
            >
              Hide
            </button>
            <button type="button" onClick={onCancel}>
              Cancel
            </button>
          </>
        ) : (
          <button type="button" onClick={onClose}>
            Close
          </button>
        )}
      </div>
    </div>
  );
}
