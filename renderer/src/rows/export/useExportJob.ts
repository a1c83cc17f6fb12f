/**
 * A table tab's CSV export, run in the background: the services walk the view's pages at background priority
 * through the connection's throttle, so the grid and its edits go first, and report each page
 * (`export.progress`). The job outlives its panel being hidden; it is cancelled when the tab closes. In the
 * browser the finished CSV is taken (`export.take`) and downloaded; in Electron the main process has written
 * it where the user chose.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { EventPayload, Request } from '../../../../core/contract';
import { useApi } from '../../api/ApiProvider';
import { errorMessage } from '../../api/call-errors';
import type { EditTarget } from '../../editing/edit-store';
import { exportFileName } from '../../../../core/records/copy-names';
import { mirrorServedAs, useMirrors } from '../../offline/mirrors';

export type ExportQuery = NonNullable<Request<'export.start'>['query']>;

export interface ExportJob {
  exportId?: string;
  state: EventPayload<'export.progress'>['state'];
  rows: number;
  pages: number;
  filePath?: string;
  error?: string;
  startedAt: number;
  /** When the last page arrived, for the pace. */
  at: number;
}

function download(csv: string, name: string): void {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The user's zone and locale: the service writes dates, numbers and the rest as they read them. */
function readingFormat(): { timeZone: string; userLocale: string } {
  return { timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone, userLocale: navigator.language };
}

export function useExportJob(target: EditTarget) {
  const api = useApi();
  const { mirrors } = useMirrors();
  const fileName = exportFileName(
    target.table,
    mirrorServedAs(mirrors, target.connectionId, target.baseId) !== undefined,
  );
  const [job, setJob] = useState<ExportJob>();
  const current = useRef<string | undefined>(undefined);
  const starting = useRef(false);
  // Progress may arrive before `export.start` answers (a one-page export): the latest per export, until then.
  const early = useRef(new Map<string, EventPayload<'export.progress'>>());

  const handle = useCallback(
    (p: EventPayload<'export.progress'>) => {
      setJob(
        (j) =>
          j && {
            ...j,
            state: p.state,
            rows: p.rows,
            pages: p.pages,
            at: Date.now(),
            ...(p.filePath === undefined ? {} : { filePath: p.filePath }),
            ...(p.error === undefined ? {} : { error: p.error.message }),
          },
      );
      if (p.state === 'done' && p.filePath === undefined) {
        api.call('export.take', { exportId: p.exportId }).then(
          ({ csv }) => download(csv, fileName),
          (e: unknown) => setJob((j) => j && { ...j, error: errorMessage(e) }),
        );
      }
    },
    [api, fileName],
  );

  useEffect(
    () =>
      api.on('export.progress', (p) => {
        if (p.exportId === current.current) handle(p);
        else if (starting.current) early.current.set(p.exportId, p);
      }),
    [api, handle],
  );

  const cancel = useCallback(() => {
    const exportId = current.current;
    if (exportId !== undefined) void api.call('export.cancel', { exportId });
  }, [api]);

  // A closed tab takes its export with it: nobody would be left to download it.
  useEffect(() => cancel, [cancel]);

  const start = useCallback(
    (query: ExportQuery, columns: string[]) => {
      cancel();
      current.current = undefined;
      early.current.clear();
      starting.current = true;
      const now = Date.now();
      setJob({ state: 'running', rows: 0, pages: 0, startedAt: now, at: now });
      api.call('export.start', { target, query, columns, ...readingFormat() }).then(
        ({ exportId }) => {
          starting.current = false;
          current.current = exportId;
          setJob((j) => j && { ...j, exportId });
          const seen = early.current.get(exportId);
          early.current.clear();
          if (seen) handle(seen);
        },
        (e: unknown) => {
          starting.current = false;
          setJob((j) => j && { ...j, state: 'failed', error: errorMessage(e) });
        },
      );
    },
    [api, target, cancel, handle],
  );

  const dismiss = useCallback(() => setJob(undefined), []);

  return { job, start, cancel, dismiss };
}
