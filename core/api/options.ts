import type { SortSpec } from '../records/types';

export type Priority = 'interactive' | 'background';

export interface RequestOptions {
  signal?: AbortSignal;
  /** Interactive work (visible pages, edits) starts before background work (prefetch, exports). */
  priority?: Priority;
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
