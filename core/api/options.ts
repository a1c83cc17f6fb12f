import type { SortSpec } from '../records/types';

/**
 * Interactive work (pages the user asks for, edits) starts first; then what the screen shows beside its rows
 * (`visible`: the names of the links on screen); then background work (walks, counts, prefetch, exports).
 */
export type Priority = 'interactive' | 'visible' | 'background';

/**
 * What a request is spent on, for the request budget (a hosted workspace's calls are counted by the month):
 * - rows: pages of records the user asked to see (and comments read);
 * - count: a view's record count (a walk of its ids on the hosted service);
 * - names: the names of linked records;
 * - summary: groups and summaries of a whole view;
 * - find: Find's count and its walks;
 * - export: a CSV export's pages;
 * - offline: making a base available offline, and syncing it;
 * - edits: every write (edits, creates, deletes, uploads, comments written);
 * - live: picking up other users' changes (polls, webhooks);
 * - schema: the metadata API and the server's answer about extensions.
 */
export const PURPOSES = [
  'rows',
  'count',
  'names',
  'summary',
  'find',
  'export',
  'offline',
  'edits',
  'live',
  'schema',
] as const;
export type Purpose = (typeof PURPOSES)[number];

export interface RequestOptions {
  signal?: AbortSignal;
  /** Interactive work (visible pages, edits) starts before visible, visible before background (see Priority). */
  priority?: Priority;
  /** What the request is for; by default the client's own purpose (`withPurpose`), else read from the request. */
  purpose?: Purpose;
}

export interface WriteOptions extends RequestOptions {
  typecast?: boolean;
  returnFieldsByFieldId?: boolean;
}

export interface CellFormatOptions {
  cellFormat?: 'json' | 'string';
  /** Required by the service with `cellFormat: 'string'`. */
  timeZone?: string;
  userLocale?: string;
  returnFieldsByFieldId?: boolean;
}

export interface GetOptions extends RequestOptions, CellFormatOptions {}

export interface ListOptions extends RequestOptions, CellFormatOptions {
  view?: string;
  fields?: string[];
  /** `'-Field'` is the shorthand for a descending sort on Field. */
  sort?: (SortSpec | string)[];
  /** Filter formula text, e.g. built with core/formula's builders. */
  formula?: string;
  pageSize?: number;
  maxRecords?: number;
  recordMetadata?: 'commentCount'[];
}

export interface ListPageOptions extends ListOptions {
  offset?: string;
}

/** What a count depends on: the view and the formula (sort, fields and paging do not change it). */
export interface CountOptions extends RequestOptions {
  view?: string;
  formula?: string;
}
