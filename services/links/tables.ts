/**
 * A linked table as the link features read it: by id, through the connection's client, with the name of its
 * primary field from the schema. Every formula here is built from checked ids and quoted text, never spliced.
 */
import { RecordTableError } from '../../core/api/index';
import type { RecordTableClient } from '../../core/api/index';
import type { TableClient } from '../../core/api/table';
import { fieldRef, or, quoteString } from '../../core/formula/build';
import type { RecordData } from '../../core/records/types';
import { ServiceError } from '../errors';
import type { Metadata } from '../metadata/metadata';

export interface TableRef {
  connectionId: string;
  baseId: string;
  tableId: string;
}

/** Primary values as the service shows them: text in the user's time zone, whatever the field's type. */
const AS_TEXT = {
  cellFormat: 'string' as const,
  timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  userLocale: 'en-us',
};

/** What a read by ids found: primary values by id, the ids it could not read, and why. */
export interface ByIds {
  /** Each id read: its primary value, or null for an id the table does not have. */
  read: Map<string, unknown>;
  /** Ids not read (a request failed): `error` says why. */
  unread: string[];
  error?: unknown;
}

export interface LinkedTable {
  /** The table's name, as questions about its names say it. */
  name: string;
  primary: string;
  /** The primary values of the records among `ids`, through the client's reader by ids. */
  byIds(ids: readonly string[]): Promise<ByIds>;
  /**
   * The primary values of the table's first `pages` pages of 100 (every record where it has no more: `done`),
   * an offset chain at `visible` priority.
   */
  firstNames(pages: number): Promise<{ read: Map<string, unknown>; done: boolean }>;
  /** A page of records whose primary value contains `text`, with their primary values as text. */
  search(
    text: string,
    offset?: string,
  ): Promise<{ records: { id: string; name: unknown }[]; offset?: string }>;
  /** For each name, the first record with exactly that primary value. */
  idsOf(names: readonly string[]): Promise<Map<string, string>>;
  record(id: string): Promise<RecordData>;
}

/** Names per request when resolving pasted text: each name is a comparison in one formula. */
const NAMES_PER_REQUEST = 100;

export class LinkedTables {
  constructor(
    private readonly clientFor: (connectionId: string) => Promise<RecordTableClient>,
    private readonly metadata: Metadata,
  ) {}

  async table(ref: TableRef): Promise<LinkedTable> {
    const schema = await this.metadata.table(ref.connectionId, ref.baseId, ref.tableId);
    const primary = schema?.fields.find((f) => f.id === schema.primaryFieldId)?.name;
    if (!schema || primary === undefined)
      throw new ServiceError(
        'not-found',
        `The base ${ref.baseId} has no table ${ref.tableId} in its schema.`,
      );
    const table = (await this.clientFor(ref.connectionId)).table(ref.baseId, schema.id);
    return linkedTable(table, schema.name, primary);
  }
}

function linkedTable(table: TableClient, name: string, primary: string): LinkedTable {
  const list = (formula: string | undefined, priority: 'interactive' | 'visible', offset?: string) =>
    table.listPage({
      ...AS_TEXT,
      fields: [primary],
      pageSize: 100,
      priority,
      ...(formula === undefined ? {} : { formula }),
      ...(offset === undefined ? {} : { offset }),
    });
  return {
    name,
    primary,
    async byIds(ids) {
      const distinct = [...new Set(ids)];
      let records: (RecordData | null | undefined)[];
      let error: unknown;
      try {
        const found = new Map(
          (await table.recordsByIds(distinct, { ...AS_TEXT, fields: [primary], priority: 'visible' })).map(
            (r) => [r.id, r],
          ),
        );
        records = distinct.map((id) => found.get(id) ?? null);
      } catch (e) {
        if (!(e instanceof RecordTableError) || e.completed === undefined) throw e;
        records = e.completed as (RecordData | null | undefined)[];
        error = e;
      }
      const read = new Map<string, unknown>();
      const unread: string[] = [];
      distinct.forEach((id, i) => {
        const r = records[i];
        if (r === undefined) unread.push(id);
        else read.set(id, r === null ? null : r.fields[primary]);
      });
      return { read, unread, ...(error === undefined ? {} : { error }) };
    },
    async firstNames(pages) {
      const read = new Map<string, unknown>();
      let offset: string | undefined;
      for (let i = 0; i < pages; i++) {
        const page = await list(undefined, 'visible', offset);
        for (const r of page.records) read.set(r.id, r.fields[primary]);
        offset = page.offset;
        if (offset === undefined) return { read, done: true };
      }
      return { read, done: false };
    },
    async search(text, offset) {
      const wanted = text.trim();
      const formula =
        wanted === '' ? undefined : `SEARCH(LOWER(${quoteString(wanted)}), LOWER(${fieldRef(primary)} & ''))`;
      const page = await list(formula, 'interactive', offset);
      return {
        records: page.records.map((r) => ({ id: r.id, name: r.fields[primary] })),
        ...(page.offset === undefined ? {} : { offset: page.offset }),
      };
    },
    async idsOf(names) {
      const ids = new Map<string, string>();
      const distinct = [...new Set(names)];
      for (let i = 0; i < distinct.length; i += NAMES_PER_REQUEST) {
        const chunk = distinct.slice(i, i + NAMES_PER_REQUEST);
        const formula = or(...chunk.map((n) => `${fieldRef(primary)} & '' = ${quoteString(n)}`));
        for await (const records of table.pages({
          ...AS_TEXT,
          fields: [primary],
          formula,
          priority: 'interactive',
        }))
          for (const r of records) {
            const name = r.fields[primary];
            if (typeof name === 'string' && !ids.has(name)) ids.set(name, r.id);
          }
      }
      return ids;
    },
    record: (id) => table.get(id, { priority: 'interactive' }),
  };
}
