/**
 * Names of linked records: the primary values of records of a linked table, as text, by id. Ids asked for
 * within a short window are gathered per table and read together by the client's reader by ids
 * (`recordsByIds`: a page of ids a request at most, fewer where the service refuses that many, only the
 * primary field, at `visible` priority through the connection's throttle: after the pages the user asks for,
 * before the walks and counts of the background, so the names of the rows on screen come next). Answers are
 * cached per table; a record renamed through an edit here updates the cache and is announced. Ids that could
 * not be read stay unnamed (their chips show the id) and uncached, for a later ask; the error names a few of
 * them, never all.
 *
 * On a metered connection (the hosted service, whose calls a workspace's month allows; services/budget) a
 * table's first names are read as its first pages instead, all of it where it is small (people, teams): the
 * rows scrolled past name the same few records again and again, and by ids each page of rows cost a call for
 * the one or two it had not seen (issue 26: 11 calls of names for 11 pages of Tasks, 3 this way). Ids those
 * pages did not hold (a larger table, a record made since) are read by ids as before.
 *
 * Names cost calls of a hosted workspace's monthly allowance, a call per 100. The names of the rows a screen
 * shows are part of what the user asked to see, so they never ask; a read of more than NAMES_UNASKED at once
 * (a form's list of thousands of links) asks the request budget first with its calls, and a no leaves them
 * unnamed (issue 26).
 */
import { MAX_IDS_PER_REQUEST } from '../../core/api/by-ids';
import type { RecordData } from '../../core/records/types';
import type { Consent } from '../budget/budget';
import type { LinkedTable, LinkedTables, TableRef } from './tables';

/** How long ids are gathered before a batch goes out: the grid asks for several blocks at once. */
const BATCH_WINDOW_MS = 15;
/** Ids an error message names before it only counts the rest. */
const IDS_NAMED_IN_ERRORS = 3;
/** Past this many names a table's cache starts again, so a long session cannot grow it without bound. */
const MAX_CACHED = 50_000;
/** Pages of a linked table a metered connection reads whole before it reads names by ids. */
export const SWEEP_PAGES = 3;

export const UNNAMED = 'Unnamed record';

/**
 * Names read at once without asking: 10 calls. A page of 100 rows with a few links each, or a screen's blocks
 * together, name fewer; more is a walk through someone's thousands of links.
 */
export const NAMES_UNASKED = 1000;

interface TableNames {
  /** A name, or null for an id the service does not know (a deleted record). */
  readonly names: Map<string, string | null>;
  /** Ids gathered for the next batch, and the promise it settles. */
  queued: Set<string>;
  batch: Promise<void> | undefined;
  /** Ids in a batch not yet answered, with that batch. */
  readonly waiting: Map<string, Promise<void>>;
  /** The read of the table's first pages (a metered connection), once. */
  sweep?: Promise<void>;
}

export type Renamed = (table: TableRef, names: Record<string, string>) => void;

export class LinkNames {
  private readonly tables = new Map<string, TableNames>();

  constructor(
    private readonly linked: LinkedTables,
    private readonly onRenamed: Renamed,
    private readonly onError: (connectionId: string, message: string) => void,
    /** Whether a connection's calls are counted against an allowance (then tables are read whole first). */
    private readonly metered: (connectionId: string) => Promise<boolean> = async () => false,
    /** The request budget's word on a read of many names; without it, always yes. */
    private readonly consent?: Consent,
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
    if (!this.tables.get(key(ref))?.names.has(record.id)) return;
    const { primary } = await this.linked.table(ref);
    await this.follow(ref, record.id, record.fields[primary]);
  }

  /**
   * Cells of a record put back by a discard: a cached name follows its primary value back. A save can have
   * shown a newer, unsaved name (`edits.saved` carries values edited since), which the discard takes away.
   */
  async applyReverted(ref: TableRef, recordId: string, fields: Record<string, unknown>): Promise<void> {
    if (!this.tables.get(key(ref))?.names.has(recordId)) return;
    const { primary } = await this.linked.table(ref);
    if (Object.hasOwn(fields, primary)) await this.follow(ref, recordId, fields[primary]);
  }

  /** A cached name becomes the primary value `value` (read again where it is not text); a change is announced. */
  private async follow(ref: TableRef, id: string, value: unknown): Promise<void> {
    const table = this.tables.get(key(ref));
    if (table === undefined || !table.names.has(id)) return;
    const before = table.names.get(id);
    if (typeof value === 'string' || value === undefined || value === null) {
      table.names.set(id, nameOf(value));
    } else {
      table.names.delete(id);
      await this.names(ref, [id]);
    }
    const after = table.names.get(id);
    if (typeof after === 'string' && after !== before) this.onRenamed(ref, { [id]: after });
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
      return this.fetch(ref, table, ids);
    });
    table.waiting.set(id, table.batch);
    return table.batch;
  }

  /** The table's first pages, read once; a failure leaves the names to the reads by ids. */
  private sweep(ref: TableRef, table: TableNames): Promise<void> {
    table.sweep ??= (async () => {
      if (!(await this.metered(ref.connectionId).catch(() => false))) return;
      const { read } = await (await this.linked.table(ref)).firstNames(SWEEP_PAGES);
      for (const [id, name] of read) if (!table.names.has(id)) table.names.set(id, nameOf(name));
    })().catch(() => undefined);
    return table.sweep;
  }

  /** One read of the ids gathered. Ids it could not read stay unnamed (shown by id) and uncached. */
  private async fetch(ref: TableRef, table: TableNames, all: string[]): Promise<void> {
    await this.sweep(ref, table);
    const ids = all.filter((id) => !table.names.has(id));
    try {
      if (ids.length === 0) return;
      const linked: LinkedTable = await this.linked.table(ref);
      if (!(await this.agreed(ref, linked.name, ids.length))) {
        this.onError(ref.connectionId, unnamedMessage(ids, 'their API calls were not agreed to'));
        return;
      }
      const { read, unread, error } = await linked.byIds(ids);
      for (const [id, name] of read) table.names.set(id, name === null ? null : nameOf(name));
      if (unread.length > 0) this.onError(ref.connectionId, unnamedMessage(unread, error));
    } catch (error) {
      this.onError(ref.connectionId, unnamedMessage(ids, error));
    } finally {
      for (const id of all) table.waiting.delete(id);
    }
  }

  /** Whether the names of `count` records may be read: up to NAMES_UNASKED unasked, more ask the budget. */
  private async agreed(ref: TableRef, table: string, count: number): Promise<boolean> {
    if (this.consent === undefined || count <= NAMES_UNASKED) return true;
    return this.consent({
      connectionId: ref.connectionId,
      baseId: ref.baseId,
      purpose: 'names',
      subject: `Show the names of ${count.toLocaleString('en-US')} linked records of ${table}`,
      calls: Math.ceil(count / MAX_IDS_PER_REQUEST),
    });
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

/** "Names of 250 linked records could not be read (recA, recB, recC and 247 more): why". */
export function unnamedMessage(ids: readonly string[], error: unknown): string {
  const shown = ids.slice(0, IDS_NAMED_IN_ERRORS).join(', ');
  const more = ids.length > IDS_NAMED_IN_ERRORS ? ` and ${ids.length - IDS_NAMED_IN_ERRORS} more` : '';
  const what = ids.length === 1 ? 'The name of 1 linked record' : `Names of ${ids.length} linked records`;
  return `${what} could not be read (${shown}${more}): ${messageOf(error)}`;
}
