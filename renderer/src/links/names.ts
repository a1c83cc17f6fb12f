/**
 * The renderer's names of linked records, by linked table id (table ids are unique across bases). Names are
 * asked of the services after rows arrive, never before: a link cell shows ids until its names come, then
 * only the cells holding those ids are refreshed. Renames made here arrive as `links.renamed`.
 */
import type { Column, TableDeskApi } from '../../../core/contract';
import type { RecordData } from '../../../core/records/types';
import { effectiveType } from '../grid/format';

export const RECORD_ID = /^rec[A-Za-z0-9]{3,40}$/;

export type NamesListener = (tableId: string, ids: ReadonlySet<string>) => void;

/** The table a link field (or a lookup of one) points at. */
export function linkedTableId(field: Pick<Column, 'type' | 'options'>): string | undefined {
  if (effectiveType(field) !== 'multipleRecordLinks') return undefined;
  const result = field.options?.['result'] as { options?: Record<string, unknown> } | undefined;
  const id = field.options?.['linkedTableId'] ?? result?.options?.['linkedTableId'];
  return typeof id === 'string' ? id : undefined;
}

export function linkIds(value: unknown): string[] {
  if (!Array.isArray(value)) return typeof value === 'string' ? [value] : [];
  return value.filter((v): v is string => typeof v === 'string');
}

class LinkNameStore {
  private readonly tables = new Map<string, Map<string, string>>();
  private readonly asked = new Set<string>();
  private readonly listeners = new Set<NamesListener>();
  /** The apis whose renames this store hears (the page has one; a test may bring its own). */
  private readonly heard = new WeakSet<TableDeskApi>();

  name(tableId: string, id: string): string | undefined {
    return this.tables.get(tableId)?.get(id);
  }

  add(tableId: string, names: Readonly<Record<string, string>>): void {
    let table = this.tables.get(tableId);
    if (!table) this.tables.set(tableId, (table = new Map()));
    const changed = new Set<string>();
    for (const [id, name] of Object.entries(names)) {
      if (table.get(id) === name) continue;
      table.set(id, name);
      changed.add(id);
    }
    if (changed.size > 0) for (const l of this.listeners) l(tableId, changed);
  }

  subscribe(listener: NamesListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Asks for the names the store lacks among the rows' link cells: one call for all linked tables, which
   * the services turn into one request per linked table per page of ids. Nothing waits for the answer.
   */
  want(
    api: TableDeskApi,
    target: { connectionId: string; baseId: string },
    columns: readonly Column[],
    records: readonly RecordData[],
  ): void {
    const wanted = new Map<string, string[]>();
    for (const field of columns) {
      const tableId = linkedTableId(field);
      if (tableId === undefined) continue;
      const ids = wanted.get(tableId) ?? [];
      for (const record of records) ids.push(...linkIds(record.fields[field.name]));
      wanted.set(tableId, ids);
    }
    this.ask(api, target, wanted);
  }

  /** The same for ids of one linked table (a form's or a picker's chips). */
  wantIds(
    api: TableDeskApi,
    target: { connectionId: string; baseId: string },
    tableId: string,
    ids: readonly string[],
  ): void {
    this.ask(api, target, new Map([[tableId, ids]]));
  }

  private ask(
    api: TableDeskApi,
    target: { connectionId: string; baseId: string },
    wanted: Map<string, readonly string[]>,
  ): void {
    this.listen(api);
    const tables: { tableId: string; ids: string[] }[] = [];
    for (const [tableId, ids] of wanted) {
      const missing = new Set<string>();
      for (const id of ids) {
        const key = `${tableId}/${id}`;
        // Only record ids are asked for: one odd value must not make the services refuse the whole call.
        if (!RECORD_ID.test(id) || this.name(tableId, id) !== undefined || this.asked.has(key)) continue;
        this.asked.add(key);
        missing.add(id);
      }
      if (missing.size > 0) tables.push({ tableId, ids: [...missing] });
    }
    // A call per table: each table's names show as soon as its own request answers, not with the slowest.
    for (const table of tables) {
      api
        .call('links.names', { ...target, tables: [table] })
        .then(
          (answer) => {
            for (const t of answer.tables) this.add(t.tableId, t.names);
          },
          // Unnamed links keep showing their ids; a later page may ask again.
          () => undefined,
        )
        .finally(() => {
          for (const id of table.ids) this.asked.delete(`${table.tableId}/${id}`);
        });
    }
  }

  /** Renames matter once a name is known, and a name is known only after it was asked for: listen then. */
  private listen(api: TableDeskApi): void {
    if (this.heard.has(api)) return;
    this.heard.add(api);
    api.on('links.renamed', (e) => this.add(e.tableId, e.names));
  }
}

export const linkNames = new LinkNameStore();

/** A name with a comma or a quote is quoted, so pasting the text back finds the same names. */
function quoted(name: string): string {
  return /[",]/.test(name) ? `"${name.replace(/"/g, '""')}"` : name;
}

/** Link cell text as copied and exported: the linked records' names (their ids while names are unknown). */
export function linkText(field: Pick<Column, 'type' | 'options'>, value: unknown): string | undefined {
  const tableId = linkedTableId(field);
  if (tableId === undefined) return undefined;
  return linkIds(value)
    .map((id) => quoted(linkNames.name(tableId, id) ?? id))
    .join(', ');
}

/** The names (or ids) in a link cell's text: comma separated, a quoted one may hold commas and quotes. */
export function linkTokens(text: string): string[] {
  const tokens: string[] = [];
  const re = /\s*(?:"((?:[^"]|"")*)"|([^,]*))\s*(?:,|$)/gy;
  let m: RegExpExecArray | null;
  while (re.lastIndex < text.length && (m = re.exec(text)) !== null) {
    const token = m[1] !== undefined ? m[1].replace(/""/g, '"') : (m[2] ?? '').trim();
    if (token !== '') tokens.push(token);
    if (m[0] === '') break;
  }
  return tokens;
}
