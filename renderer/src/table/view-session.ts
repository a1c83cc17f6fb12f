/**
 * One table tab's views on the services side. Each distinct query (view, fields, sort, formula) is one view
 * with its own page chain; asking for another query closes the previous view, which cancels its queued
 * requests. `restart()` forgets the current view so the next request opens a fresh one (retry after an error).
 */
import type { Request, Response, TableDeskApi } from '../../../core/contract';
import type { TableSchema } from '../../../core/records/types';

export type ViewTarget = Omit<Request<'view.open'>, 'query'>;

/** A table to open in a tab; `schema` comes from the metadata API and is absent when it was refused. */
export interface TableTarget extends ViewTarget {
  schema?: TableSchema | undefined;
}
export type OpenedView = Response<'view.open'>;
/** What the renderer sends (sort directions may be left out). */
export type ViewQuery = NonNullable<Request<'view.open'>['query']>;

export class SupersededError extends Error {
  constructor() {
    super('The view was replaced by a newer one');
  }
}

export class ViewSession {
  private current: { key: string; opened: Promise<OpenedView> } | undefined;
  /** The query whose rows arrived last: where a tab goes back when the service refuses a newer one. */
  lastLoaded: ViewQuery = {};

  constructor(
    private readonly api: TableDeskApi,
    private readonly target: ViewTarget,
    private readonly onOpened: (view: OpenedView, query: ViewQuery) => void,
  ) {}

  open(query: ViewQuery): Promise<OpenedView> {
    const key = JSON.stringify(query);
    if (this.current?.key === key) return this.current.opened;
    this.restart();
    const opened = this.api.call('view.open', { ...this.target, query }).then((view) => {
      if (this.current?.opened === opened) this.onOpened(view, query);
      return view;
    });
    this.current = { key, opened };
    return opened;
  }

  async rows(
    query: ViewQuery,
    start: number,
    end: number,
    screen?: Request<'view.rows'>['screen'],
  ): Promise<Response<'view.rows'>> {
    const opened = this.open(query);
    try {
      const view = await opened;
      const rows = await this.api.call('view.rows', {
        viewId: view.viewId,
        start,
        end,
        ...(screen === undefined ? {} : { screen }),
      });
      if (this.current?.opened === opened) this.lastLoaded = query;
      return rows;
    } catch (e) {
      // A view closed under a request (the query changed meanwhile) is not an error the user should see.
      if (this.current?.opened !== opened) throw new SupersededError();
      throw e;
    }
  }

  /**
   * Groups and summaries of the view of `query` (opened if need be), or of the view open now when no query is
   * given (undefined when none is).
   */
  async aggregate(
    query: ViewQuery | undefined,
    request: Omit<Request<'view.aggregate'>, 'viewId'>,
  ): Promise<Response<'view.aggregate'> | undefined> {
    const opened = query === undefined ? this.current?.opened : this.open(query);
    if (opened === undefined) return undefined;
    try {
      const view = await opened;
      return await this.api.call('view.aggregate', { ...request, viewId: view.viewId });
    } catch (e) {
      if (this.current?.opened !== opened) throw new SupersededError();
      throw e;
    }
  }

  restart(): void {
    const previous = this.current;
    this.current = undefined;
    // Closing is best effort: a view that failed to open, or a door that went away, has nothing to close.
    previous?.opened.then(
      (view) => this.api.call('view.close', { viewId: view.viewId }).catch(() => undefined),
      () => undefined,
    );
  }
}
