/**
 * CSV export of a view (its formula, sort and fields): every page through the throttle at background
 * priority, so edits and visible pages go first; progress after each page; cancel at any point. A file is
 * written beside its destination and renamed into place when complete, so a cancelled or failed export never
 * leaves a truncated file behind.
 *
 * The destination is never named by the renderer: a caller able to send `export.start` would otherwise write
 * any file the user can. Where the app can ask the user (Electron), the door passes `ChooseDestination`, which
 * shows the OS save dialog from the main process; without it (the browser door) the CSV is kept for
 * `export.take` and the browser downloads it.
 */
import { callsOf } from '../budget/budget';
import type { Consent } from '../budget/budget';
import { randomUUID } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import Papa from 'papaparse';
import type { ListOptions } from '../../core/api';
import type { ViewQuery } from '../../core/contract';
import type { RecordData } from '../../core/records/types';
import { toChannelError } from '../errors';
import type { TableFor, WalkCalls } from './ports';
import type { Emit } from './queue';
import type { EditTarget } from './types';
import { exportFileName } from '../../core/records/copy-names';

export interface ExportRequest {
  target: EditTarget;
  query: ViewQuery;
  columns?: string[];
  includeRecordId?: boolean;
  /** Both given: the service formats every cell (cellFormat=string) in this zone and locale. */
  timeZone?: string;
  userLocale?: string;
}

/**
 * Asks the user where to save (a suggested file name; a title for a file that is not an export or a report);
 * undefined when they cancel.
 */
export type ChooseDestination = (
  suggestedName: string,
  options?: { title?: string },
) => Promise<string | undefined>;

interface Job {
  controller: AbortController;
  done: Promise<void>;
  csv?: string;
  rows: number;
}

/** One cell as text, the way a spreadsheet shows it. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  // Airtable's own CSV export writes a ticked checkbox as "checked" and an unticked one as empty.
  if (typeof value === 'boolean') return value ? 'checked' : '';
  if (Array.isArray(value)) return value.map(cellText).join(', ');
  if (typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.url === 'string' && typeof o.filename === 'string') return `${o.filename} (${o.url})`;
    if (typeof o.name === 'string') return o.name;
    if (typeof o.text === 'string') return o.text;
    if (o.specialValue === 'NaN') return 'NaN';
    if (typeof o.error === 'string') return o.error;
  }
  return JSON.stringify(value);
}

/** The column order: asked for, else the query's fields, else the order fields first appear in. */
function columnsFor(req: ExportRequest, records: readonly RecordData[]): string[] {
  if (req.columns !== undefined && req.columns.length > 0) return req.columns;
  if (req.query.fields !== undefined && req.query.fields.length > 0) return req.query.fields;
  const seen = new Set<string>();
  for (const r of records) for (const f of Object.keys(r.fields)) seen.add(f);
  return [...seen];
}

/**
 * A text cell starting with one of these is run as a formula by spreadsheet apps (CSV injection, OWASP): it is
 * written with a leading `'` (and quoted), which they show as text. Papa's own `escapeFormulae: true` pattern
 * ends in `.*$` without the `s` flag, so it misses a cell whose text goes on to a second line: this one does not.
 * A negative amount as the service writes it for people (`-5`, `-$1,200.50`, `-12%`, `-1:30`) is data, not a
 * formula: nothing but a sign, a currency symbol, digits and separators, so it is left as it is.
 */
const FORMULA_START = /^(?!-\p{Sc}?\d[\d.,: \u00a0\u202f]*%?$)[=+\-@\t\r]/u;

/** A cell for the CSV: a number stays a number, which is never escaped (a negative number is data). */
function csvCell(value: unknown): string | number {
  return typeof value === 'number' ? value : cellText(value);
}

export function toCsv(req: ExportRequest, records: readonly RecordData[]): string {
  const columns = columnsFor(req, records);
  const header = req.includeRecordId ? ['Record ID', ...columns] : columns;
  const rows = records.map((r) => {
    const cells = columns.map((c) => csvCell(r.fields[c]));
    return req.includeRecordId ? [r.id, ...cells] : cells;
  });
  return Papa.unparse({ fields: header, data: rows }, { newline: '\r\n', escapeFormulae: FORMULA_START });
}

export class CsvExports {
  private readonly jobs = new Map<string, Job>();

  /**
   * `settleEdits`: resolves once the edits made to the table's base have reached the service, so that a cell
   * typed just before Export is in the file as the grid shows it (else the service's older value would be).
   */
  constructor(
    private readonly tableFor: TableFor,
    private readonly emit: Emit,
    private readonly chooseDestination?: ChooseDestination,
    private readonly settleEdits?: (target: EditTarget) => Promise<void>,
    /** The request budget's word on the walk: every record of the view, a call per 100 (see run). */
    private readonly consent?: Consent,
    private readonly walkCalls?: WalkCalls,
    /** Whether the target is a table of an offline copy, whose file is named so (copy-names.ts). */
    private readonly isCopy?: (target: EditTarget) => Promise<boolean>,
  ) {}

  /**
   * Starts an export, after asking the user where to save it when the app can ask; its progress and end
   * arrive as `export.progress` events (a declined save dialog ends it as cancelled).
   */
  async start(req: ExportRequest): Promise<string> {
    const exportId = randomUUID();
    const filePath = await this.chooseDestination?.(
      exportFileName(req.target.table, (await this.isCopy?.(req.target).catch(() => false)) ?? false),
    );
    if (this.chooseDestination !== undefined && filePath === undefined) {
      this.emit('export.progress', { exportId, rows: 0, pages: 0, state: 'cancelled' });
      return exportId;
    }
    const controller = new AbortController();
    const job: Job = { controller, rows: 0, done: Promise.resolve() };
    this.jobs.set(exportId, job);
    job.done = this.run(exportId, job, req, filePath);
    return exportId;
  }

  cancel(exportId: string): boolean {
    const job = this.jobs.get(exportId);
    if (job === undefined || job.controller.signal.aborted) return false;
    job.controller.abort();
    return true;
  }

  /** Waits for an export to end (tests, shutdown). */
  async settled(exportId: string): Promise<void> {
    await this.jobs.get(exportId)?.done;
  }

  /** Hands over the CSV of a finished in-memory export, once. */
  take(exportId: string): { csv: string; rows: number } | undefined {
    const job = this.jobs.get(exportId);
    if (job?.csv === undefined) return undefined;
    this.jobs.delete(exportId);
    return { csv: job.csv, rows: job.rows };
  }

  async close(): Promise<void> {
    for (const job of this.jobs.values()) job.controller.abort();
    await Promise.all([...this.jobs.values()].map((j) => j.done));
  }

  private async run(exportId: string, job: Job, req: ExportRequest, filePath?: string): Promise<void> {
    const signal = job.controller.signal;
    const partial = filePath === undefined ? undefined : `${filePath}.partial`;
    const progress = (state: 'running' | 'done' | 'cancelled' | 'failed', pages: number, extra = {}) =>
      this.emit('export.progress', {
        exportId,
        rows: job.rows,
        pages,
        state,
        ...(filePath === undefined ? {} : { filePath }),
        ...extra,
      });
    let pages = 0;
    try {
      await this.settleEdits?.(req.target);
      // The walk reads the whole view, a call per 100 records: on a limited plan (a Free workspace has 1,000
      // calls a month) it says so first, and a no ends the export as cancelled, nothing read (issue 26).
      const { connectionId, baseId, table: tableName } = req.target;
      const view = req.query.view === undefined ? tableName : `${tableName} (${req.query.view})`;
      const agreed =
        (await this.consent?.({
          connectionId,
          baseId,
          purpose: 'export',
          subject: `Export ${view} as CSV: read every record of it`,
          ...callsOf(this.walkCalls?.(req.target, req.query)),
          signal,
        })) ?? true;
      if (!agreed) job.controller.abort();
      signal.throwIfAborted();
      const table = await this.tableFor(req.target);
      const opts: ListOptions = { priority: 'background', purpose: 'export', signal };
      if (req.query.view !== undefined) opts.view = req.query.view;
      if (req.query.fields !== undefined) opts.fields = req.query.fields;
      if (req.query.sort !== undefined) opts.sort = req.query.sort;
      if (req.query.formula !== undefined && req.query.formula.trim() !== '')
        opts.formula = req.query.formula;
      if (req.timeZone !== undefined && req.userLocale !== undefined) {
        opts.cellFormat = 'string';
        opts.timeZone = req.timeZone;
        opts.userLocale = req.userLocale;
      }
      const records: RecordData[] = [];
      // One offset chain, not the mirror's partitioned walk: a CSV keeps the view's order (and its sort), and
      // pages of disjoint partitions cannot be merged back into an order the service alone knows.
      for await (const page of table.pages(opts)) {
        records.push(...page);
        pages++;
        job.rows = records.length;
        progress('running', pages);
        if (signal.aborted) break;
      }
      if (signal.aborted) throw signal.reason;
      const csv = toCsv(req, records);
      if (partial !== undefined && filePath !== undefined) {
        await writeFile(partial, csv, { signal });
        await rename(partial, filePath);
      } else {
        job.csv = csv;
      }
      if (filePath !== undefined) this.jobs.delete(exportId);
      progress('done', pages);
    } catch (e) {
      if (partial !== undefined) await rm(partial, { force: true });
      this.jobs.delete(exportId);
      if (signal.aborted) progress('cancelled', pages);
      else progress('failed', pages, { error: toChannelError(e) });
    }
  }
}
