/**
 * Find in one open view. The service finds the matching records with a formula over the shown fields within
 * the view's own filter (`core/records/find-formula`): it counts them (the `count` extension, else a walk of
 * their ids) and, for Next past the loaded rows, names the next one. The view's row of a match is its place
 * in the view's page chain, which only a walk of that chain can tell (the wire has no rank of a record), so a
 * match beyond the loaded rows is reached the way Go to row reaches a row: the chain is walked until the
 * record the service named is held. The walk of matching ids is what keeps that walk short: it tells at once
 * whether any match lies ahead, and which record ends the walk, so no page past the match is read.
 *
 * Among loaded rows, matches are found by the same text the formula searches, computed from the cells
 * (`recordMatches`), so the grid's highlights, the ordinal ("12 of 340": records, counted in view order among
 * the loaded rows, which always start at the view's first row) and the service's count agree. Everything goes
 * through the base's throttle at interactive priority; a newer search, `find.cancel` or closing the view ends
 * a walk after the page in flight, and a changed search drops the old walk of ids with its request.
 */
import type { ParsedRequest, Response, ViewQuery } from '../../core/contract';
import type { RecordTableClient, TableClient } from '../../core/api/index';
import { COUNT_EXTENSION } from '../../core/api/extensions';
import { findInViewFormula, recordMatches } from '../../core/records/find-formula';
import type { FindField } from '../../core/records/find-formula';
import type { RecordData } from '../../core/records/types';
import { ServiceError } from '../errors';
import { PageChain } from './page-chain';
import type { TableView } from './table-view';

export interface ViewFindOptions {
  view: TableView;
  client: RecordTableClient;
  table: TableClient;
  query: ViewQuery;
  /** The one field the walk of matching ids asks for; undefined when the schema is unknown. */
  primaryFieldId: string | undefined;
  /** Whether a walk for this search may spend its calls (the request budget); asked once per search. */
  consent?: (text: string) => Promise<boolean>;
}

/** Records per request of the walk of matching ids: the service's largest page. */
const IDS_PAGE_SIZE = 100;

type Search = Pick<ParsedRequest<'find.count'>, 'text' | 'fields'>;

export class ViewFind {
  /** The walk of matching ids for the current formula. */
  private ids: { formula: string; chain: PageChain } | undefined;
  private stepping: AbortController | undefined;
  private counting: AbortController | undefined;
  /** The budget's answer per search formula: a walk is asked about once. */
  private readonly allowed = new Map<string, Promise<boolean>>();

  constructor(private readonly opts: ViewFindOptions) {}

  private async walkAllowed(formula: string, text: string): Promise<boolean> {
    let answer = this.allowed.get(formula);
    if (answer === undefined) {
      answer = this.opts.consent?.(text) ?? Promise.resolve(true);
      this.allowed.set(formula, answer);
    }
    return answer;
  }

  async count(request: Search): Promise<Response<'find.count'>> {
    const formula = this.formula(request);
    this.counting?.abort();
    const counting = new AbortController();
    this.counting = counting;
    const signal = counting.signal;
    try {
      if (formula === undefined) return { count: 0, cancelled: false };
      // Asked once per client and shared by its views, so a cancelled search must not cancel it.
      const extensions = await this.opts.client.extensions({ priority: 'interactive' });
      signal.throwIfAborted();
      if (extensions.has(COUNT_EXTENSION)) {
        const { view } = this.opts.query;
        const count = await this.opts.table.count({
          ...(view === undefined ? {} : { view }),
          formula,
          signal,
          priority: 'interactive',
        });
        return { count, cancelled: false };
      }
      if (!(await this.walkAllowed(formula, request.text)))
        return { count: 0, cancelled: false, declined: true };
      signal.throwIfAborted();
      const chain = this.idChain(formula);
      await chain.walkTo(Number.MAX_SAFE_INTEGER, signal);
      return { count: chain.loaded, cancelled: false };
    } catch (error) {
      if (!signal.aborted) throw error;
      return { count: 0, cancelled: true };
    } finally {
      if (this.counting === counting) this.counting = undefined;
    }
  }

  async step(request: ParsedRequest<'find.next'>): Promise<Response<'find.next'>> {
    const fields = this.fields(request.fields);
    const formula = this.formula(request);
    this.stepping?.abort();
    const stepping = new AbortController();
    this.stepping = stepping;
    const { view } = this.opts;
    const matches = (r: RecordData | undefined) =>
      r !== undefined && recordMatches(fields, r.fields, request.text);
    // Set when rows beyond the loaded ones were not searched: their walk was not agreed to.
    let declined = false;
    const answer = (row: number | undefined, wrapped: boolean): Response<'find.next'> => {
      const held = view.loadedRecords;
      const record = row === undefined ? undefined : held[row];
      return {
        cancelled: false,
        loaded: held.length,
        ...(view.complete ? { rowCount: held.length } : {}),
        ...(record === undefined || row === undefined
          ? {}
          : { match: { row, recordId: record.id, ordinal: ordinalOf(held, row, matches), wrapped } }),
        ...(declined ? { declined } : {}),
      };
    };
    /** Whether to search past the loaded rows: the view goes on, and the walk is agreed to. */
    const beyond = async (f: string): Promise<boolean> => {
      if (view.complete) return false;
      declined = !(await this.walkAllowed(f, request.text));
      return !declined;
    };
    try {
      if (formula === undefined) return answer(undefined, false);
      const held = view.loadedRecords;
      const from = Math.min(request.from, held.length);
      if (request.direction === 'next') {
        for (let i = from + 1; i < held.length; i++) if (matches(held[i])) return answer(i, false);
        if (await beyond(formula)) {
          const id = await this.firstIdNotHeld(formula, stepping.signal);
          if (id !== undefined) return answer(await this.walkToRecord(id, stepping.signal), false);
        }
        const all = view.loadedRecords;
        for (let i = 0; i <= Math.min(from, all.length - 1); i++) if (matches(all[i])) return answer(i, true);
        return answer(undefined, false);
      }
      for (let i = from - 1; i >= 0; i--) if (matches(held[i])) return answer(i, false);
      if (await beyond(formula)) {
        const id = await this.lastId(formula, stepping.signal);
        if (id !== undefined && !view.loadedRecords.some((r) => r.id === id))
          return answer(await this.walkToRecord(id, stepping.signal), true);
      }
      const all = view.loadedRecords;
      for (let i = all.length - 1; i >= Math.max(from, 0); i--) if (matches(all[i])) return answer(i, true);
      return answer(undefined, false);
    } catch (error) {
      if (!stepping.signal.aborted) throw error;
      return { cancelled: true, loaded: view.loaded };
    } finally {
      if (this.stepping === stepping) this.stepping = undefined;
    }
  }

  cancel(): boolean {
    const running = this.stepping !== undefined || this.counting !== undefined;
    this.stepping?.abort();
    this.counting?.abort();
    return running;
  }

  close(): void {
    this.cancel();
    this.ids?.chain.close();
  }

  /**
   * Records of the table were created, deleted or edited: the walk of matching ids is read again when next
   * needed (a walk under way ends for its own caller, whose answer the renderer's recount replaces).
   */
  changed(): void {
    this.ids = undefined;
  }

  /** The request's fields as the view's columns: only shown ones the view reads, so loaded cells hold them. */
  private fields(names: readonly string[]): FindField[] {
    const columns = this.opts.view.columns;
    const read = this.opts.query.fields;
    return names.map((name) => {
      const column = columns.find((c) => c.name === name);
      if (column === undefined || (read !== undefined && !read.includes(name)))
        throw new ServiceError(
          'invalid-request',
          `Find cannot search ${JSON.stringify(name)}: it is not a field of this view.`,
        );
      return { name: column.name, type: column.type, options: column.options ?? null };
    });
  }

  private formula(request: Search): string | undefined {
    return findInViewFormula(request.text, this.fields(request.fields), this.opts.query.formula);
  }

  /** The walk of the view's matching ids, in the view's order; a new formula drops the old walk. */
  private idChain(formula: string): PageChain {
    if (this.ids?.formula === formula) return this.ids.chain;
    this.ids?.chain.close();
    const { view, sort } = this.opts.query;
    const { primaryFieldId } = this.opts;
    const chain = new PageChain(
      (offset, signal) =>
        this.opts.table.listPage({
          ...(view === undefined ? {} : { view }),
          ...(sort === undefined ? {} : { sort }),
          formula,
          ...(primaryFieldId === undefined ? {} : { fields: [primaryFieldId], returnFieldsByFieldId: true }),
          pageSize: IDS_PAGE_SIZE,
          signal,
          priority: 'interactive',
          ...(offset === undefined ? {} : { offset }),
        }),
      () => undefined,
    );
    this.ids = { formula, chain };
    return chain;
  }

  /** The first matching record, in the view's order, that the view's loaded rows do not hold. */
  private async firstIdNotHeld(formula: string, signal: AbortSignal): Promise<string | undefined> {
    const chain = this.idChain(formula);
    const held = new Set(this.opts.view.loadedRecords.map((r) => r.id));
    for (let i = 0; ; i++) {
      if (i >= chain.loaded) {
        if (chain.total !== undefined) return undefined;
        await chain.walkTo(i + 1, signal);
        if (i >= chain.loaded) return undefined;
      }
      const id = chain.held[i]?.id;
      if (id !== undefined && !held.has(id)) return id;
    }
  }

  /** The view's last matching record. */
  private async lastId(formula: string, signal: AbortSignal): Promise<string | undefined> {
    const chain = this.idChain(formula);
    await chain.walkTo(Number.MAX_SAFE_INTEGER, signal);
    return chain.held.at(-1)?.id;
  }

  /** Walks the view's page chain until it holds the record; its row, or undefined if the view ends first. */
  private async walkToRecord(id: string, signal: AbortSignal): Promise<number | undefined> {
    const { view } = this.opts;
    let searched = 0;
    for (;;) {
      const held = view.loadedRecords;
      for (; searched < held.length; searched++) if (held[searched]?.id === id) return searched;
      if (view.complete) return undefined;
      await view.walkChain(held.length + 1, signal);
    }
  }
}

/** The match's place among the matching rows from the view's first row (the loaded rows always start there). */
function ordinalOf(
  held: readonly RecordData[],
  row: number,
  matches: (r: RecordData | undefined) => boolean,
): number {
  let n = 0;
  for (let i = 0; i <= row; i++) if (matches(held[i])) n++;
  return n;
}
