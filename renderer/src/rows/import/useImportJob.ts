/**
 * A table's CSV import as the services run it: the typed rows go over in parts that each fit a frame of the
 * browser door (`import.stage`, `import.rows`…, `import.run`), then `import.progress` follows the job. Imports
 * an earlier run of TableDesk left unfinished for this table are listed, to resume or dismiss.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ImportRow, ImportState } from '../../../../core/contract/imports';
import { utf8Length } from '../../../../core/contract/split-calls';
import { useApi } from '../../api/ApiProvider';
import { errorMessage } from '../../api/call-errors';
import type { EditTarget } from '../../editing/edit-store';

/** JSON bytes of rows per `import.rows` call: well under the door's 1 MiB frame. */
const PART_BYTES = 512 * 1024;

const sameTarget = (a: EditTarget, b: EditTarget) =>
  a.connectionId === b.connectionId && a.baseId === b.baseId && a.table === b.table;

export function parts(rows: readonly ImportRow[]): ImportRow[][] {
  const out: ImportRow[][] = [];
  let current: ImportRow[] = [];
  let used = 0;
  for (const row of rows) {
    const size = utf8Length(JSON.stringify(row)) + 1;
    if (current.length > 0 && used + size > PART_BYTES) {
      out.push(current);
      current = [];
      used = 0;
    }
    current.push(row);
    used += size;
  }
  if (current.length > 0) out.push(current);
  return out;
}

export interface ImportRequest {
  mode: 'create' | 'upsert';
  fields: string[];
  mergeOn: string[];
  rows: ImportRow[];
}

export function useImportJob(target: EditTarget) {
  const api = useApi();
  const [job, setJob] = useState<ImportState>();
  const [left, setLeft] = useState<ImportState[]>([]);
  const [error, setError] = useState<string>();
  const [sending, setSending] = useState(false);
  const current = useRef<string | undefined>(undefined);

  useEffect(
    () =>
      api.on('import.progress', (p) => {
        if (p.importId === current.current) setJob(p);
      }),
    [api],
  );

  /**
   * A run's answer is its state when it started; its progress events (the first sent before that answer) are
   * newer, such as the wait for the API calls question, which the answer would otherwise hide.
   */
  const keepNewer = useCallback((started: ImportState) => {
    setJob((shown) => (shown?.importId === started.importId ? shown : started));
  }, []);

  const refresh = useCallback(() => {
    api.call('import.list', {}).then(
      ({ imports }) =>
        setLeft(
          imports.filter(
            (s) => sameTarget(s.target, target) && s.state !== 'running' && s.importId !== current.current,
          ),
        ),
      (e: unknown) => setError(errorMessage(e)),
    );
  }, [api, target]);

  const start = useCallback(
    async (request: ImportRequest) => {
      setError(undefined);
      setSending(true);
      try {
        const { importId } = await api.call('import.stage', {
          target,
          mode: request.mode,
          fields: request.fields,
          mergeOn: request.mergeOn,
          total: request.rows.length,
        });
        for (const rows of parts(request.rows)) await api.call('import.rows', { importId, rows });
        current.current = importId;
        keepNewer(await api.call('import.run', { importId }));
      } catch (e) {
        setError(errorMessage(e));
      } finally {
        setSending(false);
      }
    },
    [api, target, keepNewer],
  );

  const cancel = useCallback(() => {
    if (current.current !== undefined) void api.call('import.cancel', { importId: current.current });
  }, [api]);

  const resume = useCallback(
    async (importId: string) => {
      setError(undefined);
      try {
        current.current = importId;
        setLeft((l) => l.filter((s) => s.importId !== importId));
        keepNewer(await api.call('import.resume', { importId }));
      } catch (e) {
        setError(errorMessage(e));
      }
    },
    [api, keepNewer],
  );

  const dismiss = useCallback(
    async (importId: string) => {
      await api.call('import.dismiss', { importId }).catch((e: unknown) => setError(errorMessage(e)));
      setLeft((l) => l.filter((s) => s.importId !== importId));
      if (current.current === importId) {
        current.current = undefined;
        setJob(undefined);
      }
    },
    [api],
  );

  const reset = useCallback(() => {
    current.current = undefined;
    setJob(undefined);
    setError(undefined);
  }, []);

  return { job, left, error, sending, start, cancel, resume, dismiss, refresh, reset };
}
