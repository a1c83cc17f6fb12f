import { ServiceError } from './errors';
import type { RequestWork } from './cost';
import { Attachments } from './files/attachments';
import { FileStore } from './files/store';
import { Catalog } from './store/catalog';
import { CommentStore } from './store/comments';
import type { Field, Table } from './store/catalog';
import { CursorStore } from './store/cursors';
import type { Db } from './store/db';
import { PageReader } from './store/list';
import { ExpressionIndexes } from './store/indexes';
import { Lookups } from './store/lookups';
import { QueryCache } from './store/query-cache';
import type { StoredRecord } from './store/records';
import { RecordStore } from './store/records';
import { WebhookStore } from './store/webhooks';

/** A filterByFormula text compiled: its test of a record, and the fields that test reads. */
export interface CompiledFilter {
  test: (record: StoredRecord) => boolean;
  /** A record holding only these cells is tested as the whole record is. */
  reads: readonly Field[];
}

/**
 * Turns a filterByFormula text into a test of stored records, or refuses it with a 422. The test spends from
 * `work` (one per request) and refuses the request with a 422 when it is spent.
 */
export type FilterCompiler = (table: Table, formula: string, work: RequestWork) => CompiledFilter;

/**
 * Everything the routes work on: one database, its catalog, records, comments, pages, list cursors and what
 * filtered queries found.
 */
export class Service {
  readonly catalog: Catalog;
  readonly records: RecordStore;
  readonly pages: PageReader;
  readonly lookups: Lookups;
  readonly cursors: CursorStore;
  /** What filtered queries found, while the database is unchanged (see QueryCache). */
  readonly queries: QueryCache;
  readonly comments: CommentStore;
  readonly attachments: Attachments;
  /** Webhooks and the record changes their payloads hold. */
  readonly webhooks: WebhookStore;
  compileFilter: FilterCompiler = () => {
    throw new ServiceError(
      422,
      'INVALID_FILTER_BY_FORMULA',
      'The formula for filtering records is invalid: formulas are not available',
    );
  };

  constructor(
    readonly db: Db,
    opts: { offsetTtlMs: number; dataDir?: string; attachmentUrlTtlMs: number },
  ) {
    this.catalog = new Catalog(db);
    const indexes = new ExpressionIndexes(db);
    this.records = new RecordStore(db, this.catalog, indexes);
    this.pages = new PageReader(db, indexes);
    this.lookups = new Lookups(db, this.pages);
    this.cursors = new CursorStore(opts.offsetTtlMs);
    const changes = db.prepare('SELECT total_changes()').pluck();
    this.queries = new QueryCache(() => changes.get() as number);
    this.comments = new CommentStore(db);
    this.webhooks = new WebhookStore(db);
    this.attachments = new Attachments(new FileStore(db, opts.dataDir), opts.attachmentUrlTtlMs);
    this.records.attachmentAt = (url, filename) => this.attachments.fromUrl(url, filename);
  }
}
