/**
 * The view's CSV export as the editing frame offers it: started from the Rows toolbar with the grid's sort and
 * displayed columns, its panel hidden while it runs (the button then shows its progress), and shown again
 * rather than started twice.
 */
import { useState } from 'react';
import type { GridPort } from '../../grid/port';
import type { EditTarget } from '../../editing/edit-store';
import { ExportPanel, exportShort } from './ExportPanel';
import { useExportJob } from './useExportJob';
import type { ExportQuery } from './useExportJob';

interface Options {
  target: EditTarget;
  grid: GridPort | undefined;
  /** The tab's query without sort (the grid holds the sort). */
  query: Omit<ExportQuery, 'sort'>;
  /** The field columns as displayed, left to right. */
  displayed: () => string[];
  total: number | undefined;
}

export function useViewExport({ target, grid, query, displayed, total }: Options) {
  const exporter = useExportJob(target);
  const [hidden, setHidden] = useState(false);
  const running = exporter.job?.state === 'running';

  const start = () => {
    setHidden(false);
    // A hidden export is shown again, not started twice.
    if (running) return;
    const sort = (grid?.sort() ?? []).map((s) => ({ field: s.column, direction: s.direction }));
    exporter.start({ ...query, ...(sort.length > 0 ? { sort } : {}) }, displayed());
  };

  const panel =
    exporter.job && (!hidden || !running) ? (
      <ExportPanel
        job={exporter.job}
        total={total}
        onCancel={() => {
          exporter.cancel();
          exporter.dismiss();
        }}
        onHide={() => setHidden(true)}
        onClose={exporter.dismiss}
      />
    ) : null;

  return {
    start,
    /** The running export's progress, for its button while its panel is hidden. */
    note: running && hidden && exporter.job ? ` · ${exportShort(exporter.job, total)}` : '',
    panel,
  };
}
