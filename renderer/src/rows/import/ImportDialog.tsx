/**
 * Import CSV into the open table: choose or drop a file, map its columns to fields (by name first; a column
 * can be skipped), create every row or upsert by chosen fields, and see before anything is sent the typed
 * values, the rows that will not be sent and why, and the requests and time at 5 requests/s. Then progress
 * with Cancel, and a report: rows the service refused with its reason, and batches whose answer was lost.
 */
import { useEffect, useState } from 'react';
import type { ChangeEvent, DragEvent } from 'react';
import type { Column } from '../../../../core/contract';
import { importEstimateMs } from '../../../../core/contract/imports';
import type { ImportState } from '../../../../core/contract/imports';
import { plural } from '../../../../core/records/format';
import { titleOf } from '../../commands/shown';
import type { EditTarget } from '../../editing/edit-store';
import { formatCell } from '../../grid/format';
import { ModalDialog } from '../../ui/ModalDialog';
import { autoMap, importable, mergeable, mergeProblem, planImport, readCsv } from './plan';
import type { CsvFile } from './plan';
import { useImportJob } from './useImportJob';

interface Props {
  target: EditTarget;
  fields: readonly Column[];
  /** The connection's request rate, when known (5 on Airtable). */
  requestsPerSecond?: number | undefined;
  onClose: () => void;
}

const PREVIEW_ROWS = 5;
const LISTED = 50;

/** "21 s", "4 min". */
function duration(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  return s < 90 ? `${s} s` : `${Math.round(s / 60)} min`;
}

/** What the import is doing, in words. */
function headOf(job: ImportState): string {
  // The budget's question is open: "Importing: 0 of 60" read as an import that had stalled.
  if (job.waiting)
    return 'Waiting for your answer to the API calls question above: nothing is sent until then';
  switch (job.state) {
    case 'staged':
    case 'running':
      return `Importing: ${job.done.toLocaleString()} of ${plural(job.total, 'row')} answered`;
    case 'done':
      return 'Import finished';
    case 'cancelled':
      if (job.declined)
        return job.done === 0
          ? 'Nothing was imported: its API calls were not agreed to'
          : 'Import stopped: the API calls for the rows left were not agreed to';
      return 'Import cancelled: the rows not sent can be sent with Resume';
    case 'interrupted':
      return 'Import interrupted (TableDesk stopped): Resume sends the rest';
    case 'failed':
      return 'Import stopped';
  }
}

function Report({ job }: { job: ImportState }) {
  const head = headOf(job);
  return (
    <div>
      <progress aria-label="Import progress" value={job.done} max={Math.max(job.total, 1)} />
      <p role="status" data-testid="import-status">
        {head}. {plural(job.created, 'record')} created
        {job.mode === 'upsert' ? `, ${plural(job.updated, 'record')} updated` : ''}
        {job.refusedCount > 0 ? `, ${plural(job.refusedCount, 'row')} refused` : ''}.
      </p>
      {job.error && (
        <p className="td-error" role="alert">
          {job.error.message}
        </p>
      )}
      {job.refused.length > 0 && (
        <ul aria-label="Refused rows" className="td-import-list">
          {job.refused.map((r) => (
            <li key={r.line}>
              Row {r.line}: {r.error.message}
            </li>
          ))}
        </ul>
      )}
      {job.uncertain.length > 0 && (
        <ul aria-label="Uncertain rows" className="td-import-list">
          {job.uncertain.map((u) => (
            <li key={u.lines[0]}>
              Rows {u.lines[0]}–{u.lines.at(-1)} may or may not have been created ({u.error.message}); they
              are not sent again. Check the table.
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function ImportDialog({ target, fields, requestsPerSecond, onClose }: Props) {
  const [file, setFile] = useState<CsvFile>();
  const [fileError, setFileError] = useState<string>();
  const [mapping, setMapping] = useState<(string | null)[]>([]);
  const [mode, setMode] = useState<'create' | 'upsert'>('create');
  const [mergeOn, setMergeOn] = useState<string[]>([]);
  const importer = useImportJob(target);
  const running = importer.sending || importer.job?.state === 'running';
  const closeUnlessRunning = () => {
    if (!running) onClose();
  };
  const { refresh } = importer;
  useEffect(refresh, [refresh]);

  const load = async (chosen: File | undefined) => {
    if (chosen === undefined) return;
    setFileError(undefined);
    const read = readCsv(new Uint8Array(await chosen.arrayBuffer()));
    if (!read.ok) {
      setFile(undefined);
      setFileError(read.error);
      return;
    }
    setFile(read.file);
    const mapped = autoMap(read.file.header, fields);
    setMapping(mapped);
    const primary = fields.find((f) => f.primary)?.name;
    const firstKey = mergeable(fields).find((f) => mapped.includes(f.name) && f.name === primary);
    setMergeOn(firstKey ? [firstKey.name] : []);
  };

  const plan = file && planImport(file, mapping, fields);
  const problem =
    plan === undefined
      ? undefined
      : plan.fields.length === 0
        ? 'Map at least one column to a field.'
        : mode === 'upsert'
          ? mergeProblem(plan, mergeOn)
          : undefined;
  const rate = requestsPerSecond ?? 5;
  const requests = plan ? Math.ceil(plan.rows.length / 10) : 0;
  const byName = new Map(fields.map((f) => [f.name, f]));
  const mergeChoices = mergeable(fields).filter((f) => plan?.fields.includes(f.name));

  const start = () => {
    if (!plan || problem !== undefined || plan.rows.length === 0) return;
    void importer.start({
      mode,
      fields: plan.fields,
      mergeOn: mode === 'upsert' ? mergeOn : [],
      rows: plan.rows,
    });
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    void load(e.dataTransfer.files[0]);
  };

  return (
    <ModalDialog label="Import CSV" className="td-import" onClose={closeUnlessRunning}>
      <h2>Import CSV into {target.table}</h2>
      {importer.left.map((s) => (
        <div key={s.importId} className="td-import-left" role="group" aria-label="Unfinished import">
          <p>
            An earlier import of {plural(s.total, 'row')} into this table is {s.state}:{' '}
            {s.done.toLocaleString()} answered
            {s.uncertain.length > 0 ? `, ${plural(s.uncertain.length, 'batch')} of unknown outcome` : ''}.
          </p>
          <Report job={s} />
          <button type="button" onClick={() => void importer.resume(s.importId)} disabled={running}>
            Resume
          </button>
          <button type="button" onClick={() => void importer.dismiss(s.importId)}>
            Dismiss
          </button>
        </div>
      ))}
      {importer.job ? (
        <Report job={importer.job} />
      ) : (
        <>
          <label className="td-import-drop" onDragOver={(e) => e.preventDefault()} onDrop={onDrop}>
            Choose a CSV file, or drop it here (UTF-8, first row the column names, up to 10,000 rows):{' '}
            <input
              type="file"
              accept=".csv,text/csv"
              aria-label="CSV file"
              onChange={(e: ChangeEvent<HTMLInputElement>) => void load(e.target.files?.[0])}
            />
          </label>
          {fileError && (
            <p className="td-error" role="alert">
              {fileError}
            </p>
          )}
          {file?.note && <p>{file.note}</p>}
          {file && plan && (
            <>
              <table className="td-import-map" aria-label="Columns">
                <thead>
                  <tr>
                    <th>Column</th>
                    <th>Field</th>
                    <th>First row</th>
                  </tr>
                </thead>
                <tbody>
                  {file.header.map((h, i) => (
                    <tr key={i}>
                      <td>{h}</td>
                      <td>
                        <select
                          aria-label={`Field for ${h}`}
                          value={mapping[i] ?? ''}
                          onChange={(e) =>
                            setMapping((m) => m.map((v, j) => (j === i ? e.target.value || null : v)))
                          }
                        >
                          <option value="">Skip</option>
                          {importable(fields)
                            .filter((f) => f.name === mapping[i] || !mapping.includes(f.name))
                            .map((f) => (
                              <option key={f.name} value={f.name}>
                                {f.name}
                              </option>
                            ))}
                        </select>
                      </td>
                      <td>{file.rows[0]?.cells[i] ?? ''}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <fieldset>
                <legend>Rows</legend>
                <label>
                  <input type="radio" checked={mode === 'create'} onChange={() => setMode('create')} /> Create
                  a record for every row
                </label>
                <label>
                  <input type="radio" checked={mode === 'upsert'} onChange={() => setMode('upsert')} /> Update
                  the records that match, create the rest (upsert)
                </label>
                {mode === 'upsert' && (
                  <div role="group" aria-label="Merge on">
                    Match records on:{' '}
                    {mergeChoices.map((f) => (
                      <label key={f.name}>
                        <input
                          type="checkbox"
                          checked={mergeOn.includes(f.name)}
                          onChange={(e) =>
                            setMergeOn((m) =>
                              e.target.checked ? [...m, f.name] : m.filter((x) => x !== f.name),
                            )
                          }
                        />{' '}
                        {f.name}
                      </label>
                    ))}
                    {mergeChoices.length === 0 &&
                      'no mapped field can identify a record (text, number, select or date).'}
                  </div>
                )}
              </fieldset>
              <table className="td-import-preview" aria-label="Preview">
                <thead>
                  <tr>
                    <th>Row</th>
                    {plan.fields.map((f) => (
                      <th key={f}>{f}</th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {plan.rows.slice(0, PREVIEW_ROWS).map((r) => (
                    <tr key={r.line}>
                      <td>{r.line}</td>
                      {r.values.map((v, i) => (
                        <td key={i}>{formatCell(v, byName.get(plan.fields[i]!)!)}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
              {plan.failing.length > 0 && (
                <>
                  <p>{plural(plan.failing.length, 'row')} will not be sent (nothing of them is written):</p>
                  <ul aria-label="Rows that will not be sent" className="td-import-list">
                    {plan.failing.slice(0, LISTED).map((f) => (
                      <li key={f.line}>
                        Row {f.line}: {f.reason}
                      </li>
                    ))}
                    {plan.failing.length > LISTED && <li>and {plan.failing.length - LISTED} more</li>}
                  </ul>
                </>
              )}
              <p data-testid="import-estimate">
                {plural(plan.rows.length, 'row')} to send in {plural(requests, 'request')}, about{' '}
                {duration(importEstimateMs(plan.rows.length, rate))} at {rate} requests/s.
                {mode === 'create'
                  ? ` ${titleOf('grid.undo')} deletes the records it creates.`
                  : ' An upsert cannot be undone.'}
              </p>
              {problem && (
                <p className="td-error" role="alert">
                  {problem}
                </p>
              )}
            </>
          )}
        </>
      )}
      {importer.error && (
        <p className="td-error" role="alert">
          {importer.error}
        </p>
      )}
      <div className="td-modal-actions">
        {running ? (
          <button type="button" onClick={importer.cancel}>
            Cancel
          </button>
        ) : (
          <>
            <button type="button" onClick={onClose}>
              Close
            </button>
            {(importer.job?.state === 'cancelled' || importer.job?.state === 'failed') && (
              <button type="button" onClick={() => void importer.resume(importer.job!.importId)}>
                Resume
              </button>
            )}
            {importer.job === undefined && (
              <button
                type="button"
                className="td-primary"
                disabled={!plan || problem !== undefined || plan.rows.length === 0}
                onClick={start}
              >
                Import {plan ? plural(plan.rows.length, 'row') : ''}
              </button>
            )}
          </>
        )}
      </div>
    </ModalDialog>
  );
}
