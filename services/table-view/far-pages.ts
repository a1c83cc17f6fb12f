/**
 * Rows of a view far ahead of its page chain, read where they are instead of walked to: a page of 100 rows
 * at any position, by one of two readers. On the local server the `seek` extension hands out the offset at
 * the position (seek, then the page: two requests; the page's own offset makes the next page one). Where the
 * service only walks (Airtable), the view's map (`view-map.ts`) names the ids at the position and the page is
 * one request by id; the answer is checked against the map, and a stretch that comes back otherwise (a record
 * deleted, or moved by someone else) is mapped again before its rows are shown, so no row is shown at a
 * position it does not hold. A reader that cannot (no map, a walk that failed) leaves the rows to the chain.
 */
import { isExpiredOffset } from '../../core/api/index';
import type { ListPageOptions, TableClient } from '../../core/api/index';
import type { RecordData } from '../../core/records/types';
import type { ViewMap } from './view-map';

/** Rows per far page: the grid's block and the service's page, so a block is one page. */
export const FAR_PAGE_SIZE = 100;

export interface FarReader {
  /** Rows [start, start + FAR_PAGE_SIZE), fewer at the view's end; undefined when this reader cannot. */
  page(start: number, signal: AbortSignal): Promise<RecordData[] | undefined>;
}

/** What the view lists: its named view, fields, formula and sort. */
export type ViewList = Pick<ListPageOptions, 'view' | 'fields' | 'formula' | 'sort'>;

/** The rows read far ahead, by page start; pages are read once, together by every caller waiting. */
export class FarPages {
  private readonly pages = new Map<number, RecordData[]>();
  private readonly reading = new Map<number, Promise<RecordData[] | undefined>>();
  private generation = 0;

  /** `signal` ends with the view: pages are shared by every caller, so none of them may cancel one. */
  constructor(
    private readonly reader: () => Promise<FarReader | undefined>,
    private readonly signal: AbortSignal,
  ) {}

  /** Rows [start, end), or undefined when they cannot be read where they are (the chain must walk). */
  async rows(start: number, end: number): Promise<RecordData[] | undefined> {
    const first = Math.floor(start / FAR_PAGE_SIZE) * FAR_PAGE_SIZE;
    const out: RecordData[] = [];
    for (let at = first; at < end; at += FAR_PAGE_SIZE) {
      const page = await this.page(at);
      if (page === undefined) return undefined;
      out.push(...page);
      if (page.length < FAR_PAGE_SIZE) break;
    }
    return out.slice(start - first, end - first);
  }

  /** Puts the service's newer copy of a record in place of a held one (an acknowledged edit). */
  replace(record: RecordData): void {
    for (const page of this.pages.values()) {
      const at = page.findIndex((r) => r.id === record.id);
      if (at !== -1) page[at] = record;
    }
  }

  /** The records held, page by page. */
  *held(): Iterable<RecordData> {
    for (const page of this.pages.values()) yield* page;
  }

  /** Rows were added or removed: every position after them moved, so nothing held is trusted. */
  clear(): void {
    this.generation++;
    this.pages.clear();
    this.reading.clear();
  }

  private page(start: number): Promise<RecordData[] | undefined> {
    const held = this.pages.get(start);
    if (held !== undefined) return Promise.resolve(held);
    let reading = this.reading.get(start);
    if (reading === undefined) {
      const generation = this.generation;
      reading = this.read(start).finally(() => {
        if (this.generation === generation) this.reading.delete(start);
      });
      this.reading.set(start, reading);
    }
    return reading;
  }

  private async read(start: number): Promise<RecordData[] | undefined> {
    const generation = this.generation;
    const reader = await this.reader();
    const page = await reader?.page(start, this.signal);
    if (page !== undefined && this.generation === generation) this.pages.set(start, page);
    return page;
  }
}

/** Whether the records come in the order of `ids` (some may be missing). */
function inOrder(ids: readonly string[], records: readonly RecordData[]): boolean {
  let at = 0;
  for (const r of records) {
    while (at < ids.length && ids[at] !== r.id) at++;
    if (at++ >= ids.length) return false;
  }
  return true;
}

/** Pages through the view's map: the ids the map holds at the position, read by id and checked. */
export function mapReader(table: TableClient, list: ViewList, map: ViewMap): FarReader {
  return {
    async page(start, signal) {
      // A stretch read twice and found otherwise both times is changing under us: the chain shows it.
      for (let tries = 0; tries < 2; tries++) {
        if (!(await map.reach(start + FAR_PAGE_SIZE, signal))) return undefined;
        const ids = map.idsAt(start, start + FAR_PAGE_SIZE);
        if (ids === undefined) return undefined;
        if (ids.length === 0) return [];
        const records = await table.recordsByIds(ids, {
          ...list,
          inServiceOrder: true,
          priority: 'interactive',
          signal,
        });
        if (records.length === ids.length && records.every((r, i) => r.id === ids[i])) return records;
        // Records gone (deleted, or out of the filter) leave the rows before them where they were; a record
        // out of its order may have moved anywhere before, which moves every row up to it.
        map.remapFrom(inOrder(ids, records) ? start : 0);
      }
      return undefined;
    },
  };
}

/**
 * Pages through the `seek` extension: the offset at the page's start, then the page. A page's own offset
 * starts the next one, so reading on from a far page costs one request a page, as the chain does. `onTotal`
 * hears the view's size from each seek.
 */
export function seekReader(table: TableClient, list: ViewList, onTotal: (total: number) => void): FarReader {
  const offsets = new Map<number, string>();
  const seek = async (start: number, signal: AbortSignal): Promise<string | undefined> => {
    const found = await table.seek(start, { ...list, priority: 'interactive', signal });
    onTotal(found.total);
    return found.offset ?? undefined;
  };
  const read = async (start: number, offset: string | undefined, signal: AbortSignal) => {
    const page = await table.listPage({
      ...list,
      pageSize: FAR_PAGE_SIZE,
      priority: 'interactive',
      signal,
      ...(offset === undefined ? {} : { offset }),
    });
    if (page.offset !== undefined) offsets.set(start + page.records.length, page.offset);
    return page.records;
  };
  return {
    async page(start, signal) {
      const kept = offsets.get(start);
      if (kept === undefined) return read(start, start > 0 ? await seek(start, signal) : undefined, signal);
      return read(start, kept, signal).catch(async (e: unknown) => {
        // An offset kept from an earlier page expired: seek it again, once.
        if (!isExpiredOffset(e)) throw e;
        offsets.delete(start);
        return read(start, await seek(start, signal), signal);
      });
    },
  };
}
