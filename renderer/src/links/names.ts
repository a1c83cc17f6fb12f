/**
 * The renderer's names of linked records, by linked table id (table ids are unique across bases). Names are
 * asked of the services for what a person sees, never before: the grid asks for the link cells on screen once
 * its scroll rests (useLinkCells), a form for the chips it shows. A chip whose name has not come shows a quiet
 * placeholder, never the id: a brisk scroll passes rows whose names are never asked. A link the services
 * could not name (a deleted record, a refused or failed read) shows its id. Only the cells holding the ids
 * named are refreshed. Renames made here arrive as `links.renamed`.
 */
import type { Column, TableDeskApi } from '../../../core/contract';
import { effectiveType } from '../grid/format';

export const RECORD_ID = /^rec[A-Za-z0-9]{3,40}$/;

/** A chip's text while its record's name is on its way (or not asked yet: it flew past). */
export const NAME_PENDING = '…';

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
  /** Ids asked for and not named in the answer: shown by id (until a later ask names them). */
  private readonly unnamed = new Set<string>();
  private readonly listeners = new Set<NamesListener>();
  /** The apis whose renames this store hears (the page has one; a test may bring its own). */
  private readonly heard = new WeakSet<TableDeskApi>();

  name(tableId: string, id: string): string | undefined {
    return this.tables.get(tableId)?.get(id);
  }

  /**
   * What a chip shows for a linked record: its name, or its id once the services could not name it;
   * undefined while its name is not known yet (the chip shows a placeholder).
   */
  shown(tableId: string | undefined, id: string): string | undefined {
    if (tableId === undefined || !RECORD_ID.test(id)) return id;
    return this.name(tableId, id) ?? (this.unnamed.has(`${tableId}/${id}`) ? id : undefined);
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
   * Asks for the names the store lacks among link cells (the grid's on screen): a call per linked table,
   * which the services read in one request per page of ids. Nothing waits for the answer.
   */
  want(
    api: TableDeskApi,
    target: { connectionId: string; baseId: string },
    cells: Iterable<{ field: Pick<Column, 'type' | 'options'>; value: unknown }>,
  ): void {
    const wanted = new Map<string, string[]>();
    for (const { field, value } of cells) {
      const tableId = linkedTableId(field);
      if (tableId === undefined) continue;
      const ids = wanted.get(tableId) ?? [];
      ids.push(...linkIds(value));
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
          (answer) => answer.tables.find((t) => t.tableId === table.tableId)?.names ?? {},
          // Unnamed links show their ids; a later look at them asks again.
          (): Record<string, string> => ({}),
        )
        .then((names) => {
          for (const id of table.ids) this.asked.delete(`${table.tableId}/${id}`);
          this.settle(table.tableId, table.ids, names);
        });
    }
  }

  /** An answer: its names, and the ids asked for that it left out, shown by id from now on. */
  private settle(tableId: string, ids: readonly string[], names: Readonly<Record<string, string>>): void {
    const left = new Set<string>();
    for (const id of ids) {
      const key = `${tableId}/${id}`;
      if (names[id] !== undefined || this.name(tableId, id) !== undefined) this.unnamed.delete(key);
      else if (!this.unnamed.has(key)) {
        this.unnamed.add(key);
        left.add(id);
      }
    }
    this.add(tableId, names);
    if (left.size > 0) for (const l of this.listeners) l(tableId, left);
  }

  /** Renames matter once a name is known, and a name is known only after it was asked for: listen then. */
  private listen(api: TableDeskApi): void {
    if (this.heard.has(api)) return;
    this.heard.add(api);
    api.on('links.renamed', (e) => this.add(e.tableId, e.names));
  }
}

export const linkNames = new LinkNameStore();

const QUOTE = '"';

/** A name with a comma or a quote is quoted (its quotes doubled), so pasting the text back finds the same names. */
function quoted(name: string): string {
  if (!name.includes(QUOTE) && !name.includes(',')) return name;
  return QUOTE + name.replaceAll(QUOTE, QUOTE + QUOTE) + QUOTE;
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
  let at = 0;
  while (at < text.length) {
    const { token, next } = quotedAt(text, at) ?? plainAt(text, at);
    if (token !== '') tokens.push(token);
    at = next;
  }
  return tokens;
}

interface Token {
  token: string;
  /** Where the next token starts: past the comma that ends this one. */
  next: number;
}

const spaceAt = (text: string, i: number): boolean => i < text.length && /\s/.test(text.charAt(i));

/** A quoted name (doubled quotes inside) from `at`, spaces around it, then a comma or the end; else nothing. */
function quotedAt(text: string, at: number): Token | undefined {
  let i = at;
  while (spaceAt(text, i)) i++;
  if (text.charAt(i) !== QUOTE) return undefined;
  let token = '';
  for (i++; i < text.length; i++) {
    if (text.charAt(i) !== QUOTE) token += text.charAt(i);
    else if (text.charAt(i + 1) === QUOTE) token += text.charAt(i++);
    else break;
  }
  if (i >= text.length) return undefined;
  for (i++; spaceAt(text, i); i++);
  return i === text.length || text.charAt(i) === ',' ? { token, next: i + 1 } : undefined;
}

/** Everything up to the next comma, trimmed (an unclosed or stray quote is part of the name). */
function plainAt(text: string, at: number): Token {
  const comma = text.indexOf(',', at);
  const end = comma === -1 ? text.length : comma;
  return { token: text.slice(at, end).trim(), next: end + 1 };
}
