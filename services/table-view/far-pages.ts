/**
 * Rows of a view far ahead of its page chain, read where they are instead of walked to, by one of two readers.
 * On the local server the `seek` extension hands out the offset at a page's start (seek, then the page: two
 * requests; the page's own offset makes the next page one), so it reads whole pages. Where the service only
 * walks (Airtable), the view's map (`view-map.ts`) names the ids at any rows and a stretch is one request by
 * id; the answer is checked against the map, and a stretch that comes back otherwise (a record deleted, or
 * moved by someone else) is mapped again before its rows are shown, so no row is shown at a position it does
 * not hold. A reader that cannot (no map, a walk that failed) leaves the rows to the chain.
 *
 * Rows are held by position. A caller that says which rows are on screen (a jump: go to row, a scrollbar
 * drag) needs only those of its block: the first such caller reads JUMP_WINDOW rows for the screen's rows not
 * held yet, in one request by id, and the other blocks of the same screen wait for that read. The window is
 * centred on them after a jump, and runs on from the rows held beside them when the screen scrolls into rows
 * not read (down from the rows held above, up from those below), so that scrolling on costs a request per
 * JUMP_WINDOW rows, not per half of it. A block is then answered with the run of rows held around its screen
 * rows, and a block off the screen with the run held nearest the screen, without a read (ag-grid asks for
 * every block it holds again when it reads its blocks again); the rest is read when it comes on screen.
 */
import { isExpiredOffset } from '../../core/api/index';
import type { ListPageOptions, TableClient } from '../../core/api/index';
import type { RecordData } from '../../core/records/types';
import type { ViewMap } from './view-map';

/** Rows per far page: the grid's block and the service's page, so a block is one page. */
export const FAR_PAGE_SIZE = 100;
/** Rows read for a jump: the screen and the rows around it, one request by id (the service's largest page). */
export const JUMP_WINDOW = 100;

export interface FarReader {
  /**
   * Rows [start, end), fewer at the view's end; undefined when this reader cannot. Unless `anyRange`, `start`
   * and `end` are page boundaries (multiples of FAR_PAGE_SIZE).
   */
  read(start: number, end: number, signal: AbortSignal): Promise<RecordData[] | undefined>;
  readonly anyRange: boolean;
}

/** Rows [start, end) of the view. */
export interface RowRange {
  start: number;
  end: number;
}

/** The rows on screen, and the stretch shown around them without a break (a grouped view's, else the view). */
export interface ScreenRange extends RowRange {
  within?: RowRange | undefined;
}

/** A block's rows held: `records` are rows [first, first + records.length). */
export interface FarRows {
  records: RecordData[];
  first: number;
}

/** What the view lists: its named view, fields, formula and sort. */
export type ViewList = Pick<ListPageOptions, 'view' | 'fields' | 'formula' | 'sort'>;

/** A read under way: rows [start, end) (fewer at the view's end), undefined when the reader could not. */
interface Reading {
  start: number;
  end: number;
  rows: Promise<RecordData[] | undefined>;
}

/** A read that was under way, and what it read. */
interface Answer {
  r: Reading;
  rows: RecordData[] | undefined;
}

/** The rows read far ahead, by position; each read once, together by every caller waiting for it. */
export class FarPages {
  private readonly byRow = new Map<number, RecordData>();
  private readonly reading = new Set<Reading>();
  /** The view's end, once a read came back short. */
  private end = Infinity;
  private generation = 0;

  /** `signal` ends with the view: reads are shared by every caller, so none of them may cancel one. */
  constructor(
    private readonly reader: () => Promise<FarReader | undefined>,
    private readonly signal: AbortSignal,
  ) {}

  /**
   * Rows [start, end), or, given the rows on `screen`, the run held around those of them in [start, end)
   * (`first` says where it starts); undefined when they cannot be read where they are (the chain must walk).
   */
  async rows(start: number, end: number, screen?: ScreenRange): Promise<FarRows | undefined> {
    const reader = await this.reader();
    if (reader === undefined) return undefined;
    const generation = this.generation;
    const jump = screen !== undefined && reader.anyRange;
    const needFrom = screen === undefined ? start : Math.max(start, screen.start);
    const needTo = screen === undefined ? end : Math.min(end, screen.end);
    // A block off the screen needs none of its rows now: what is held, or soon, nearest the screen.
    if (jump && needFrom >= needTo) {
      const answers = await this.settled(start, end);
      const row = this.rowOf(generation, answers);
      const anchor = screen.start >= end ? Math.min(end, this.end) - 1 : start;
      if (anchor < start || row(anchor) === undefined) return { records: [], first: start };
      return this.runAround(start, end, anchor, row);
    }
    const [from, to] = needFrom < needTo ? [needFrom, needTo] : [start, end];
    // Registered before any other wait, so a block asked for next by the same screen finds this read under way.
    if (!this.holds(from, to)) {
      this.readMissing(reader, jump ? this.window(screen) : { start: from, end: to });
    }
    const answers = await this.settled(from, to);
    if (answers.some((a) => a.rows === undefined)) return undefined;
    const row = this.rowOf(generation, answers);
    const last = Math.min(to, this.end);
    for (let p = from; p < last; p++) if (row(p) === undefined) return undefined;
    return this.runAround(start, end, from, row);
  }

  /** The reads under way that hold rows of [from, to), once they are done. */
  private settled(from: number, to: number): Promise<Answer[]> {
    const readings = [...this.reading].filter((r) => r.start < to && r.end > from);
    return Promise.all(readings.map(async (r) => ({ r, rows: await r.rows })));
  }

  /** The row at a position: held, or, when what is held was dropped since `generation`, as `answers` read it. */
  private rowOf(generation: number, answers: readonly Answer[]): (p: number) => RecordData | undefined {
    // Rows of a read whose result was dropped meanwhile (rows created or deleted) still answer this caller.
    return (p) => {
      if (generation === this.generation) return this.byRow.get(p);
      const a = answers.find((x) => p >= x.r.start && p < x.r.end);
      return a?.rows?.[p - a.r.start];
    };
  }

  /** The run of rows of [start, end) held around `at` (which is). */
  private runAround(
    start: number,
    end: number,
    at: number,
    row: (p: number) => RecordData | undefined,
  ): FarRows {
    let first = at;
    while (first > start && row(first - 1) !== undefined) first--;
    const records: RecordData[] = [];
    for (let p = first; p < end; p++) {
      const r = row(p);
      if (r === undefined) break;
      records.push(r);
    }
    return { records, first };
  }

  /**
   * The rows to read for the screen: JUMP_WINDOW rows (the screen's rows not held, when more) from the first
   * of them down where the rows above are held, up to the last where the rows below are, else centred on them;
   * moved into the stretch shown around the screen, where it is given.
   */
  private window(screen: ScreenRange): RowRange {
    const known = (p: number) => p >= this.end || this.byRow.has(p) || this.underWay(p);
    let from = screen.start;
    let to = Math.min(screen.end, this.end);
    while (from < to && known(from)) from++;
    while (to > from && known(to - 1)) to--;
    // Every row on screen is held or on its way (the screen's other block): nothing more to read.
    if (from === to) return { start: from, end: from };
    if (to - from >= JUMP_WINDOW) return { start: from, end: to };
    const above = from > 0 && known(from - 1);
    const below = known(to);
    if (above && !below) return shownOf({ start: from, end: from + JUMP_WINDOW }, screen.within);
    if (below && !above) return shownOf({ start: Math.max(0, to - JUMP_WINDOW), end: to }, screen.within);
    return shownOf(around({ start: from, end: to }), screen.within);
  }

  /** Puts the service's newer copy of a record in place of a held one (an acknowledged edit). */
  replace(record: RecordData): void {
    this.update(record.id, () => record);
  }

  /** Changes the held copies of a record. */
  update(id: string, change: (held: RecordData) => RecordData): void {
    for (const [p, r] of this.byRow) if (r.id === id) this.byRow.set(p, change(r));
  }

  /** The records held. */
  held(): Iterable<RecordData> {
    return this.byRow.values();
  }

  /** Rows were added or removed: every position after them moved, so nothing held is trusted. */
  clear(): void {
    this.generation++;
    this.byRow.clear();
    this.reading.clear();
    this.end = Infinity;
  }

  private holds(from: number, to: number): boolean {
    for (let p = from; p < Math.min(to, this.end); p++) if (!this.byRow.has(p)) return false;
    return true;
  }

  private underWay(p: number): boolean {
    for (const r of this.reading) if (p >= r.start && p < r.end) return true;
    return false;
  }

  /** Reads the rows of `range` neither held nor under way: the stretch from the first of them to the last. */
  private readMissing(reader: FarReader, range: RowRange): void {
    let from = -1;
    let to = -1;
    for (let p = range.start; p < Math.min(range.end, this.end); p++) {
      if (this.byRow.has(p) || this.underWay(p)) continue;
      if (from === -1) from = p;
      to = p + 1;
    }
    if (from === -1) return;
    const generation = this.generation;
    const reading: Reading = { start: from, end: to, rows: Promise.resolve(undefined) };
    reading.rows = this.read(reader, from, to).then(
      (rows) => {
        if (this.generation !== generation) return rows;
        this.reading.delete(reading);
        if (rows === undefined) return rows;
        rows.forEach((r, i) => this.byRow.set(from + i, r));
        if (rows.length < to - from) this.end = Math.min(this.end, from + rows.length);
        return rows;
      },
      (e: unknown) => {
        if (this.generation === generation) this.reading.delete(reading);
        throw e;
      },
    );
    this.reading.add(reading);
  }

  /** Rows [from, to) through the reader, by whole pages where it reads only those. */
  private async read(reader: FarReader, from: number, to: number): Promise<RecordData[] | undefined> {
    if (reader.anyRange) return reader.read(from, to, this.signal);
    const first = Math.floor(from / FAR_PAGE_SIZE) * FAR_PAGE_SIZE;
    const generation = this.generation;
    const out: RecordData[] = [];
    for (let at = first; at < to; at += FAR_PAGE_SIZE) {
      const page = await reader.read(at, at + FAR_PAGE_SIZE, this.signal);
      if (page === undefined) return undefined;
      // The whole page is kept, rows outside the stretch asked for too.
      if (generation === this.generation) page.forEach((r, i) => this.byRow.set(at + i, r));
      out.push(...page);
      if (page.length < FAR_PAGE_SIZE) break;
    }
    return out.slice(from - first, to - first);
  }
}

/** The JUMP_WINDOW rows centred on `rows` (smaller than it). */
function around(rows: RowRange): RowRange {
  const size = rows.end - rows.start;
  const start = Math.max(0, rows.start - Math.floor((JUMP_WINDOW - size) / 2));
  return { start, end: start + JUMP_WINDOW };
}

/** `rows` moved into `within` (and cut to it where it is smaller): rows outside it are not shown. */
function shownOf(rows: RowRange, within: RowRange | undefined): RowRange {
  if (within === undefined) return rows;
  const size = rows.end - rows.start;
  const start = Math.max(within.start, Math.min(rows.start, within.end - size));
  return { start, end: Math.min(within.end, start + size) };
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

/**
 * Reads through the view's map: the ids the map holds at the rows, read by id and checked. `mayWalk` says
 * whether the map may walk to a stretch not mapped yet (the request budget); a stretch it may not reach is
 * refused with `declined`'s error rather than left to the chain, whose walk would cost the same calls.
 */
export function mapReader(
  table: TableClient,
  list: ViewList,
  map: ViewMap,
  mayWalk: (end: number) => Promise<boolean>,
  declined: (end: number) => Error,
): FarReader {
  return {
    anyRange: true,
    async read(start, end, signal) {
      if (!(await mayWalk(end))) throw declined(end);
      // A stretch read twice and found otherwise both times is changing under us: the chain shows it.
      for (let tries = 0; tries < 2; tries++) {
        if (!(await map.reach(end, signal))) return undefined;
        const ids = map.idsAt(start, end);
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
        if (inOrder(ids, records)) map.remapFrom(start);
        else map.reordered();
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
    anyRange: false,
    async read(start, _end, signal) {
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
