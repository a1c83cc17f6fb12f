/** The open table views, by id: open (schema columns or inference), rows, close (cancels its requests). */
import { randomBytes } from 'node:crypto';
import { SEEK_EXTENSION } from '../../core/api/index';
import type { RecordTableClient, TableClient } from '../../core/api/index';
import type { EventPayload, ParsedRequest, Response, ViewQuery } from '../../core/contract';
import type { RecordData } from '../../core/records/types';
import type { Connections } from '../connections/connections';
import { ServiceError } from '../errors';
import type { Metadata } from '../metadata/metadata';
import { RECORDS_PER_CALL, viewSizeKey } from '../budget/budget';
import type { Budget } from '../budget/budget';
import { aggregateView } from './aggregate';
import { mapReader, seekReader } from './far-pages';
import type { FarReader } from './far-pages';
import { schemaColumns } from './columns';
import { TableView } from './table-view';
import { ViewCount } from './view-count';
import { ViewFind } from './find';

/** Which table a view shows, as the edit services name it in their events. */
export interface ViewTarget {
  connectionId: string;
  baseId: string;
  table: string;
}

const sameTable = (a: ViewTarget, b: ViewTarget): boolean =>
  a.connectionId === b.connectionId && a.baseId === b.baseId && a.table === b.table;

/** The service's maximum page size, and the grid's block size, so one block is one request. */
export const PAGE_SIZE = 100;

/** What the views need of the request budget: its consent for walks, and the sizes it remembers. */
export type ViewBudget = Pick<Budget, 'consent' | 'noteSize' | 'callsFor' | 'sizeOf'>;

/** One view's question to the budget, its base and its closing already known. */
export type ViewConsent = (
  purpose: 'count' | 'summary' | 'find' | 'rows',
  subject: string,
  calls?: number,
  signal?: AbortSignal,
) => Promise<boolean>;

const rowNumber = new Intl.NumberFormat('en-US');

/**
 * How the view's far rows are read: by the `seek` extension where the server names it (the local server),
 * else through the view's map where it has one (the service only walks).
 */
async function farReader(
  client: RecordTableClient,
  table: TableClient,
  query: ViewQuery,
  count: ViewCount,
  viewName: string,
): Promise<FarReader | undefined> {
  const extensions = await client
    .extensions({ priority: 'interactive' })
    .catch((): ReadonlySet<string> => new Set());
  if (extensions.has(SEEK_EXTENSION)) return seekReader(table, query, (total) => count.told(total));
  const map = await count.map().catch(() => undefined);
  return map === undefined
    ? undefined
    : mapReader(
        table,
        query,
        map,
        (end) => count.mayWalk(end, 'block'),
        (end) =>
          new ServiceError(
            'invalid-request',
            `Rows this far into ${viewName} are not read: the walk to row ${rowNumber.format(end)} was not agreed to. Use Go to row to be asked again.`,
          ),
      );
}

export class TableViews {
  private readonly views = new Map<
    string,
    {
      view: TableView;
      count: ViewCount;
      find: ViewFind;
      target: ViewTarget;
      fields?: string[];
      walk?: AbortController;
      query: ViewQuery;
      closed: AbortController;
      consent: ViewConsent;
    }
  >();

  constructor(
    private readonly connections: Connections,
    private readonly metadata: Metadata,
    private readonly emitState: (state: EventPayload<'view.state'>) => void,
    private readonly emitCount: (count: EventPayload<'view.count'>) => void = () => undefined,
    private readonly budget?: ViewBudget,
  ) {}

  async open(request: ParsedRequest<'view.open'>): Promise<Response<'view.open'>> {
    const { connectionId, baseId, table, query } = request;
    const client = await this.connections.client(connectionId);
    const schema = await this.metadata.table(connectionId, baseId, table);
    if (schema === null)
      throw new ServiceError('not-found', `The base ${baseId} has no table named ${table}.`);
    const tableClient = client.table(baseId, table);
    const viewId = `view${randomBytes(8).toString('hex')}`;
    const target = { connectionId, baseId, table };
    const closed = new AbortController();
    const budget = this.budget;
    const consent: ViewConsent = async (purpose, subject, calls, signal) =>
      budget === undefined
        ? true
        : budget.consent({
            connectionId,
            baseId,
            purpose,
            subject,
            ...(calls === undefined ? {} : { calls }),
            signal: signal === undefined ? closed.signal : AbortSignal.any([closed.signal, signal]),
          });
    const viewName = query.view === undefined ? table : `${table} (${query.view})`;
    const counted = viewSizeKey(target, query);
    // Counted (and, where the service only walks, mapped) by the view's own query, beside the rows and never
    // ahead of them (see view-count.ts).
    const count = new ViewCount({
      client,
      table: client.withPurpose('count').table(baseId, table),
      query: { view: query.view, formula: query.formula, sort: query.sort },
      primaryFieldId: schema?.primaryFieldId,
      onCount: (state) => this.emitCount({ viewId, ...state }),
      consent: () => consent('count', `Count the records of ${viewName}`, budget?.callsFor(counted)),
      onWalked: (records) => budget?.noteSize(counted, records),
      jumpConsent: (end, calls, signal) =>
        consent(
          'rows',
          `Show row ${rowNumber.format(end)} of ${viewName}: walk the view’s records up to it`,
          calls,
          signal,
        ),
    });
    /**
     * What a search may spend where the view's size is known: the walk of its matching ids (at most the whole
     * view, 100 a call) and, to show a match beyond the loaded rows, the view's own pages up to it (at most
     * the rest of the view): the walk to a match's row is Find's too, not only the count of matches.
     */
    const findCalls = (loaded: number): number | undefined => {
      const size = count.exact ?? budget?.sizeOf(counted);
      if (size === undefined) return undefined;
      return Math.ceil(size / RECORDS_PER_CALL) + Math.ceil(Math.max(0, size - loaded) / PAGE_SIZE);
    };
    let reader: Promise<FarReader | undefined> | undefined;
    const view = new TableView({
      viewId,
      columns: schema === undefined ? undefined : schemaColumns(schema, query),
      onState: this.emitState,
      onError: (e) => this.connections.noteError(connectionId, e.message),
      fetchPage: (offset, signal) =>
        tableClient.listPage({
          ...query,
          pageSize: PAGE_SIZE,
          signal,
          priority: 'interactive',
          ...(offset === undefined ? {} : { offset }),
        }),
      farReader: () => (reader ??= farReader(client, tableClient, query, count, viewName)),
      map: () => count.map(),
      mayWalk: (to, reach, signal) => count.mayWalk(to, reach, signal),
      count: () => count.exact,
      createdLast: query.view === undefined && !query.formula?.trim() && (query.sort ?? []).length === 0,
    });
    const find = new ViewFind({
      view,
      client,
      table: client.withPurpose('find').table(baseId, table),
      query,
      primaryFieldId: schema?.primaryFieldId,
      consent: (text) =>
        consent(
          'find',
          `Find “${text}” in ${viewName}: walk its matching records, and the view up to a match`,
          findCalls(view.loaded),
        ),
    });
    this.views.set(viewId, {
      view,
      count,
      find,
      target,
      fields: query.fields,
      query,
      closed,
      consent,
    });
    const primary = schema?.fields.find((f) => f.id === schema.primaryFieldId)?.name;
    return {
      viewId,
      columns: view.columns,
      pageSize: PAGE_SIZE,
      ...(primary === undefined ? {} : { primaryField: primary }),
    };
  }

  async rows(request: ParsedRequest<'view.rows'>): Promise<Response<'view.rows'>> {
    const entry = this.entry(request.viewId);
    const rows = await entry.view.rows(request.start, request.end, request.screen);
    entry.count.start();
    return rows;
  }

  /** Go to row: one walk per view; a newer one, a cancel or closing the view ends the one before. */
  async walk(request: ParsedRequest<'view.walk'>): Promise<Response<'view.walk'>> {
    const entry = this.entry(request.viewId);
    entry.walk?.abort();
    const walk = new AbortController();
    entry.walk = walk;
    try {
      const row = Math.min(request.row ?? request.to, request.to);
      const { declined, ...walked } = await entry.view.walk(request.to, row, walk.signal, request.screenRows);
      // Declined: the grid stays where it was, as after Cancel.
      return { ...walked, cancelled: declined === true };
    } catch (error) {
      if (!walk.signal.aborted) throw error;
      return { loaded: entry.view.loaded, cancelled: true };
    } finally {
      if (entry.walk === walk) delete entry.walk;
    }
  }

  /** The user asked for the view's count: the walk goes ahead (a click on "Count" is the consent). */
  countNow(viewId: string): { started: boolean } {
    return { started: this.entry(viewId).count.countNow() };
  }

  cancelWalk(viewId: string): { cancelled: boolean } {
    const walk = this.views.get(viewId)?.walk;
    walk?.abort();
    return { cancelled: walk !== undefined };
  }

  /** Find: the count of matching records, and the next or previous match (see find.ts). */
  findCount(request: ParsedRequest<'find.count'>): Promise<Response<'find.count'>> {
    return this.entry(request.viewId).find.count(request);
  }

  findNext(request: ParsedRequest<'find.next'>): Promise<Response<'find.next'>> {
    return this.entry(request.viewId).find.step(request);
  }

  cancelFind(viewId: string): { cancelled: boolean } {
    return { cancelled: this.views.get(viewId)?.find.cancel() ?? false };
  }

  /** Groups and summaries of an open view (see aggregate.ts). */
  async aggregate(request: ParsedRequest<'view.aggregate'>): Promise<Response<'view.aggregate'>> {
    const entry = this.views.get(request.viewId);
    if (entry === undefined)
      throw new ServiceError('not-found', 'This view was closed; open the table again.');
    const { connectionId, baseId, table } = entry.target;
    const client = await this.connections.client(connectionId);
    return aggregateView(
      {
        client: client.withPurpose('summary'),
        consent: () =>
          entry.consent(
            'summary',
            `Summarise the whole of ${entry.query.view === undefined ? table : `${table} (${entry.query.view})`}`,
            this.budget?.callsFor(viewSizeKey(entry.target, entry.query)),
          ),
        baseId,
        table,
        query: entry.query,
        loaded: () => entry.view.loadedRecords,
        complete: () => entry.view.complete,
        loadFirst: async () => {
          await entry.view.rows(0, PAGE_SIZE);
        },
        signal: entry.closed.signal,
      },
      request,
    );
  }

  close(viewId: string): { closed: boolean } {
    const entry = this.views.get(viewId);
    entry?.walk?.abort();
    entry?.view.close();
    entry?.count.close();
    entry?.find.close();
    entry?.closed.abort();
    this.views.delete(viewId);
    return { closed: entry !== undefined };
  }

  /** Keeps every view of the table in step with acknowledged edits, so rows asked for again are current. */
  applySaved(target: ViewTarget, record: RecordData): void {
    for (const entry of this.views.values()) {
      if (sameTable(entry.target, target)) {
        entry.view.applySaved(record, entry.fields);
        entry.find.changed();
      }
    }
  }

  /**
   * Cells a discard shows again as they were, in every view of the table: an earlier save may have put the
   * discarded values in its copy of the record (see `edits.saved`).
   */
  applyReverted(target: ViewTarget, recordId: string, cells: Readonly<Record<string, unknown>>): void {
    for (const entry of this.views.values()) {
      if (sameTable(entry.target, target)) {
        entry.view.applyReverted(recordId, cells, entry.fields);
        entry.find.changed();
      }
    }
  }

  applyCreated(target: ViewTarget, records: readonly RecordData[]): void {
    const ids = records.map((r) => r.id);
    for (const entry of this.views.values())
      if (sameTable(entry.target, target)) {
        entry.view.applyCreated(records);
        entry.count.applyCreated(ids);
        entry.find.changed();
      }
  }

  applyDeleted(target: ViewTarget, ids: readonly string[]): void {
    const set = new Set(ids);
    for (const entry of this.views.values())
      if (sameTable(entry.target, target)) {
        entry.view.applyDeleted(set);
        entry.count.applyDeleted(set);
        entry.find.changed();
      }
  }

  /** Every view of the table read again from its first row. */
  readAgain(target: ViewTarget): void {
    for (const entry of this.views.values())
      if (sameTable(entry.target, target)) {
        entry.view.readAgain();
        entry.find.changed();
      }
  }

  /** The tables with an open view. */
  openTargets(): ViewTarget[] {
    return [...this.views.values()].map((e) => e.target);
  }

  /** The records the table's views hold, by id (the fields each shows; later views win). */
  held(target: ViewTarget): Map<string, RecordData> {
    const out = new Map<string, RecordData>();
    for (const entry of this.views.values())
      if (sameTable(entry.target, target)) for (const r of entry.view.heldRecords()) out.set(r.id, r);
    return out;
  }

  private entry(viewId: string) {
    const entry = this.views.get(viewId);
    if (entry === undefined)
      throw new ServiceError('not-found', 'This view was closed; open the table again.');
    return entry;
  }

  closeAll(): void {
    for (const id of [...this.views.keys()]) this.close(id);
  }
}
