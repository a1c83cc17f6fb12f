/**
 * Names of linked records: the primary values of records of a linked table, as text, by id. Ids asked for
 * within a short window are gathered per table and fetched together, a page of at most 100 ids a request
 * (`OR(RECORD_ID() = …, …)` with only the primary field, at background priority through the connection's
 * throttle; the client sends it as POST listRecords when the URL would be long). Answers are cached per
 * table; a record renamed through an edit here updates the cache and is announced.
 */
import type { RecordData } from '../../core/records/types';
import type { LinkedTable, LinkedTables, TableRef } from './tables';

/** How long ids are gathered before a batch goes out: the grid asks for several blocks at once. */
const BATCH_WINDOW_MS = 15;
/** The service's largest page: one request names at most this many records. */
const IDS_PER_REQUEST = 100;
/** Past this many names a table's cache starts again, so a long session cannot grow it without bound. */
const MAX_CACHED = 50_000;

export const UNNAMED = 'Unnamed record';

interface TableNames {
  /** A name, or null for an id the service does not know (a deleted record). */
  readonly names: Map<string, string | null>;
  /** Ids gathered for the next batch, and the promise it settles. */
  queued: Set<string>;
  batch: Promise<void> | undefined;
  /** Ids in a batch not yet answered, with that batch. */
  readonly waiting: Map<string, Promise<void>>;
}

export type Renamed = (table: TableRef, names: Record<string, string>) => void;

export class LinkNames {
  private readonly tables = new Map<string, TableNames>();

  constructor(
    private readonly linked: LinkedTables,
    private readonly onRenamed: Renamed,
    private readonly onError: (connectionId: string, message: string) => void,
  ) {}

  /** The names of `ids` in a table; ids it has no record for are left out. */
  async names(ref: TableRef, ids: readonly string[]): Promise<Record<string, string>> {
    const table = this.table(ref);
    const waits = new Set<Promise<void>>();
    for (const id of ids) {
      if (table.names.has(id)) continue;
      waits.add(table.waiting.get(id) ?? this.enqueue(ref, table, id));
    }
    await Promise.all(waits);
    const out: Record<string, string> = {};
    for (const id of ids) {
      const name = table.names.get(id);
      if (typeof name === 'string') out[id] = name;
    }
    return out;
  }

  /** Remembers names learnt elsewhere (a search of the same table). */
  learn(ref: TableRef, names: Record<string, string>): void {
    const table = this.table(ref);
    for (const [id, name] of Object.entries(names)) table.names.set(id, name);
  }

  /**
   * A record of a table saved through the edit queue: when its name is cached, the cache follows the saved
   * primary value (or asks the service again when that value is not text), and a change is announced.
   */
  async applySaved(ref: TableRef, record: RecordData): Promise<void> {
    const table = this.tables.get(key(ref));
    if (table === undefined || !table.names.has(record.id)) return;
    const before = table.names.get(record.id);
    const { primary } = await this.linked.table(ref);
    const value = record.fields[primary];
    if (typeof value === 'string' || value === undefined || value === null) {
      table.names.set(record.id, nameOf(value));
    } else {
      table.names.delete(record.id);
      await this.names(ref, [record.id]);
    }
    const after = table.names.get(record.id);
    if (typeof after === 'string' && after !== before) this.onRenamed(ref, { [record.id]: after });
  }

  applyDeleted(ref: TableRef, ids: readonly string[]): void {
    const table = this.tables.get(key(ref));
    for (const id of ids) table?.names.set(id, null);
  }

  private table(ref: TableRef): TableNames {
    const k = key(ref);
    let table = this.tables.get(k);
    if (table === undefined || table.names.size > MAX_CACHED) {
      table = { names: new Map(), queued: new Set(), batch: undefined, waiting: table?.waiting ?? new Map() };
      this.tables.set(k, table);
    }
    return table;
  }

  private enqueue(ref: TableRef, table: TableNames, id: string): Promise<void> {
    table.queued.add(id);
    table.batch ??= new Promise<void>((resolve) => setTimeout(resolve, BATCH_WINDOW_MS)).then(() => {
      const ids = [...table.queued];
      table.queued = new Set();
      table.batch = undefined;
      const requests: Promise<void>[] = [];
      for (let i = 0; i < ids.length; i += IDS_PER_REQUEST)
        requests.push(this.fetch(ref, table, ids.slice(i, i + IDS_PER_REQUEST)));
      return Promise.all(requests).then(() => undefined);
    });
    table.waiting.set(id, table.batch);
    return table.batch;
  }

  /** One request for up to 100 ids. A failure leaves them unnamed (shown by id) and uncached, for a later ask. */
  private async fetch(ref: TableRef, table: TableNames, ids: string[]): Promise<void> {
    try {
      const linked: LinkedTable = await this.linked.table(ref);
      const found = await linked.byIds(ids);
      for (const id of ids) table.names.set(id, found.has(id) ? nameOf(found.get(id)) : null);
    } catch (error) {
      this.onError(ref.connectionId, `Names of linked records could not be read: ${messageOf(error)}`);
    } finally {
      for (const id of ids) table.waiting.delete(id);
    }
  }
}

const key = (ref: TableRef) => `${ref.connectionId}\u0000${ref.baseId}\u0000${ref.tableId}`;

/** A primary value as cellFormat=string gives it; an empty one reads as Airtable shows it. */
export function nameOf(value: unknown): string {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return UNNAMED;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
