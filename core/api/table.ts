/** Records of one table: list (pages, iteration), get, create, update, replace, upsert, delete. */
import { DEFAULT_PAGE_SIZE, OffsetChain, WalkedIds } from './offsets';
import type { CellValue, RecordData } from '../records/types';
import { runBatches } from './batches';
import { readRecordsByIds } from './by-ids';
import type { IdsPerRequest, RecordsByIdsOptions } from './by-ids';
import { RecordTableError } from './errors';
import { countPath, seekPath } from './extensions';
import type {
  CountOptions,
  GetOptions,
  ListOptions,
  ListPageOptions,
  RequestOptions,
  WriteOptions,
} from './options';
import {
  getQuery,
  requireId,
  listBody,
  listQuery,
  localeQuery,
  MAX_URL_LENGTH,
  recordPath,
  tablePath,
  withQuery,
} from './query';
import type { Requester, SendSpec } from './requester';
import type { BasePace } from './scheduler';
import { asCount, asDeleted, asList, asRecord, asRecordList, asSeek, asStringArray } from './responses';
import type { DeletedRecord, SeekResult } from './responses';
import { invariant } from '../invariant';

export type Fields = Record<string, CellValue>;
export interface RecordUpdate {
  id: string;
  fields: Fields;
}
export interface UpsertRecord {
  id?: string;
  fields: Fields;
}
export interface UpsertOptions extends WriteOptions {
  fieldsToMergeOn: string[];
  /** PUT instead of PATCH: fields absent from a record are cleared. */
  replace?: boolean;
}
export interface UpsertResult {
  records: RecordData[];
  createdRecords: string[];
  updatedRecords: string[];
}
export interface ListPage {
  records: RecordData[];
  offset?: string;
}

export interface TableClient {
  readonly baseId: string;
  readonly table: string;
  listPage(opts?: ListPageOptions): Promise<ListPage>;
  /** Every page; after an expired offset it restarts and skips the records it already handed out. */
  pages(opts?: ListOptions): AsyncIterable<RecordData[]>;
  all(opts?: ListOptions): Promise<RecordData[]>;
  /**
   * The records among `ids` that the table has (and `formula` keeps), each once, in the order of `ids`: a
   * page of ids a request as `OR(RECORD_ID() = …)`, fewer where the service refuses that many (see by-ids.ts).
   */
  recordsByIds(ids: readonly string[], opts?: RecordsByIdsOptions): Promise<RecordData[]>;
  /** The `count` extension: only where `client.extensions()` names it (never on Airtable's service). */
  count(opts?: CountOptions): Promise<number>;
  /**
   * The `seek` extension (only where `client.extensions()` names it): the offset at which `listPage` with the
   * same options answers the records from `position` (0-based) on, and how many records the list has in all.
   */
  seek(position: number, opts?: ListOptions): Promise<SeekResult>;
  get(id: string, opts?: GetOptions): Promise<RecordData>;
  create(fields: Fields, opts?: WriteOptions): Promise<RecordData>;
  createMany(fieldsList: readonly Fields[], opts?: WriteOptions): Promise<RecordData[]>;
  update(id: string, fields: Fields, opts?: WriteOptions): Promise<RecordData>;
  updateMany(records: readonly RecordUpdate[], opts?: WriteOptions): Promise<RecordData[]>;
  replace(id: string, fields: Fields, opts?: WriteOptions): Promise<RecordData>;
  replaceMany(records: readonly RecordUpdate[], opts?: WriteOptions): Promise<RecordData[]>;
  upsertMany(records: readonly UpsertRecord[], opts: UpsertOptions): Promise<UpsertResult>;
  delete(id: string, opts?: RequestOptions): Promise<DeletedRecord>;
  deleteMany(ids: readonly string[], opts?: RequestOptions): Promise<DeletedRecord[]>;
  /** The base's throttle: its spacing of starts and its measured round trip (for walks of several chains). */
  pace(): BasePace;
}

/** How often a full iteration restarts after expired offsets before it gives up. */
const MAX_RESTARTS = 3;

function writeFlags(opts: WriteOptions | undefined): Record<string, boolean> {
  const flags: Record<string, boolean> = {};
  if (opts?.typecast !== undefined) flags.typecast = opts.typecast;
  if (opts?.returnFieldsByFieldId !== undefined) flags.returnFieldsByFieldId = opts.returnFieldsByFieldId;
  return flags;
}

export function isExpiredOffset(error: unknown): boolean {
  return error instanceof RecordTableError && error.type === 'LIST_RECORDS_ITERATOR_NOT_AVAILABLE';
}

/** Records of a batch of updates touching one id twice must be written in order, not concurrently. */
function hasRepeatedIds(records: readonly RecordUpdate[]): boolean {
  return new Set(records.map((r) => r.id)).size !== records.length;
}

export class Table implements TableClient {
  readonly #requester: Requester;
  readonly #baseUrl: string;
  readonly #idsPerRequest: IdsPerRequest;

  constructor(
    requester: Requester,
    baseUrl: string,
    readonly baseId: string,
    readonly table: string,
    idsPerRequest: IdsPerRequest,
  ) {
    this.#requester = requester;
    this.#baseUrl = baseUrl;
    this.#idsPerRequest = idsPerRequest;
  }

  get #path(): string {
    return tablePath(this.baseId, this.table);
  }

  pace(): BasePace {
    return this.#requester.scheduler(this.baseId).pace();
  }

  async listPage(opts: ListPageOptions = {}): Promise<ListPage> {
    const body = await this.#sendList(opts, this.#path, `${this.#path}/listRecords`);
    const { list, body: page } = asRecordList(body);
    return typeof page.offset === 'string' && page.offset.length > 0
      ? { records: list, offset: page.offset }
      : { records: list };
  }

  async *pages(opts: ListOptions = {}): AsyncGenerator<RecordData[]> {
    const seen = new Set<string>();
    const max = opts.maxRecords;
    let offset: string | undefined;
    let restarts = 0;
    const pageSize = opts.pageSize ?? DEFAULT_PAGE_SIZE;
    let chain = new OffsetChain(`GET ${this.#path}`, pageSize);
    let walked = new WalkedIds(`GET ${this.#path}`);
    for (;;) {
      let page: ListPage;
      try {
        page = await this.listPage({ ...opts, offset });
      } catch (e) {
        if (offset !== undefined && isExpiredOffset(e) && restarts < MAX_RESTARTS) {
          restarts++;
          offset = undefined;
          // A new iteration: the service may name the offsets of the old one again.
          chain = new OffsetChain(`GET ${this.#path}`, pageSize);
          walked = new WalkedIds(`GET ${this.#path}`);
          continue;
        }
        throw e;
      }
      walked.add(page.records);
      let fresh = page.records.filter((r) => !seen.has(r.id));
      if (max !== undefined) fresh = fresh.slice(0, Math.max(0, max - seen.size));
      for (const r of fresh) seen.add(r.id);
      if (fresh.length > 0) yield fresh;
      if (page.offset === undefined || (max !== undefined && seen.size >= max)) return;
      offset = chain.next(page.offset, page.records.length);
    }
  }

  async all(opts: ListOptions = {}): Promise<RecordData[]> {
    const out: RecordData[] = [];
    for await (const page of this.pages(opts)) out.push(...page);
    return out;
  }

  recordsByIds(ids: readonly string[], opts: RecordsByIdsOptions = {}): Promise<RecordData[]> {
    const key = `${this.baseId}\u0000${this.table}`;
    return readRecordsByIds((o) => this.listPage(o), ids, opts, {
      get: () => this.#idsPerRequest.get(key),
      lower: (size) => this.#idsPerRequest.lower(key, size),
    });
  }

  async count(opts: CountOptions = {}): Promise<number> {
    const path = countPath(this.baseId, this.table);
    const { view, formula, signal, priority, purpose } = opts;
    return asCount(await this.#sendList({ view, formula, signal, priority, purpose }, path, path));
  }

  async seek(position: number, opts: ListOptions = {}): Promise<SeekResult> {
    invariant(
      Number.isSafeInteger(position) && position >= 0,
      `position must be a whole number from 0, got ${position}`,
    );
    const path = seekPath(this.baseId, this.table);
    return asSeek(await this.#sendList(opts, path, path, { position }));
  }

  async get(id: string, opts: GetOptions = {}): Promise<RecordData> {
    const path = withQuery(recordPath(this.baseId, this.table, id), getQuery(opts));
    return asRecord(await this.#send(opts, { method: 'GET', path }));
  }

  async create(fields: Fields, opts?: WriteOptions): Promise<RecordData> {
    return asRecord(await this.#write('POST', this.#path, { fields, ...writeFlags(opts) }, opts));
  }

  createMany(fieldsList: readonly Fields[], opts?: WriteOptions): Promise<RecordData[]> {
    return runBatches(fieldsList, async (batch) => {
      const body = { records: batch.map((fields) => ({ fields })), ...writeFlags(opts) };
      return asRecordList(await this.#write('POST', this.#path, body, opts)).list;
    });
  }

  update(id: string, fields: Fields, opts?: WriteOptions): Promise<RecordData> {
    return this.#writeOne('PATCH', id, fields, opts);
  }

  updateMany(records: readonly RecordUpdate[], opts?: WriteOptions): Promise<RecordData[]> {
    return this.#writeMany('PATCH', records, opts);
  }

  replace(id: string, fields: Fields, opts?: WriteOptions): Promise<RecordData> {
    return this.#writeOne('PUT', id, fields, opts);
  }

  replaceMany(records: readonly RecordUpdate[], opts?: WriteOptions): Promise<RecordData[]> {
    return this.#writeMany('PUT', records, opts);
  }

  async upsertMany(records: readonly UpsertRecord[], opts: UpsertOptions): Promise<UpsertResult> {
    const created: string[] = [];
    const updated: string[] = [];
    // Sequential: two concurrent batches with the same merge key would both create a record.
    const list = await runBatches(
      records,
      async (batch) => {
        const body = {
          records: batch.map((r) =>
            r.id === undefined ? { fields: r.fields } : { id: r.id, fields: r.fields },
          ),
          performUpsert: { fieldsToMergeOn: opts.fieldsToMergeOn },
          ...writeFlags(opts),
        };
        const result = asRecordList(
          await this.#write(opts.replace ? 'PUT' : 'PATCH', this.#path, body, opts),
        );
        created.push(...asStringArray(result.body.createdRecords));
        updated.push(...asStringArray(result.body.updatedRecords));
        return result.list;
      },
      true,
    );
    return { records: list, createdRecords: created, updatedRecords: updated };
  }

  async delete(id: string, opts?: RequestOptions): Promise<DeletedRecord> {
    try {
      const path = recordPath(this.baseId, this.table, id);
      return asDeleted(await this.#send(opts, { method: 'DELETE', path }));
    } catch (e) {
      // A retry that finds the record gone: an earlier attempt, whose answer was lost, deleted it.
      if (e instanceof RecordTableError && e.status === 404 && (e.attempts ?? 1) > 1)
        return { id, deleted: true };
      throw e;
    }
  }

  async deleteMany(ids: readonly string[], opts?: RequestOptions): Promise<DeletedRecord[]> {
    // Checked before anything is sent, so that bad input never leaves half of a call done.
    for (const id of ids) requireId('record id', id);
    return runBatches(ids, async (batch) => {
      // A lone id uses the single-record form: `records[]` with one id is refused by some versions (pyairtable#94).
      if (batch.length === 1 && batch[0] !== undefined) return [await this.delete(batch[0], opts)];
      const query = new URLSearchParams();
      for (const id of batch) query.append('records[]', id);
      const path = withQuery(this.#path, query);
      return asList(await this.#send(opts, { method: 'DELETE', path }), asDeleted).list;
    });
  }

  async #writeOne(
    method: 'PATCH' | 'PUT',
    id: string,
    fields: Fields,
    opts?: WriteOptions,
  ): Promise<RecordData> {
    const path = recordPath(this.baseId, this.table, id);
    return asRecord(await this.#write(method, path, { fields, ...writeFlags(opts) }, opts));
  }

  async #writeMany(
    method: 'PATCH' | 'PUT',
    records: readonly RecordUpdate[],
    opts?: WriteOptions,
  ): Promise<RecordData[]> {
    for (const r of records) requireId('record id', r.id);
    return runBatches(
      records,
      async (batch) => {
        const body = {
          records: batch.map((r) => ({ id: r.id, fields: r.fields })),
          ...writeFlags(opts),
        };
        return asRecordList(await this.#write(method, this.#path, body, opts)).list;
      },
      hasRepeatedIds(records),
    );
  }

  #write(
    method: 'POST' | 'PATCH' | 'PUT',
    path: string,
    body: unknown,
    opts?: RequestOptions,
  ): Promise<unknown> {
    return this.#send(opts, { method, path, body, creates: method === 'POST' });
  }

  /**
   * List options (and an extension's `extra` ones) in the query, or as a JSON body POSTed to `postPath` where
   * the URL would be too long.
   */
  #sendList(
    opts: ListPageOptions,
    getBase: string,
    postPath: string,
    extra: Record<string, number> = {},
  ): Promise<unknown> {
    const query = listQuery(opts);
    for (const [name, value] of Object.entries(extra)) query.append(name, String(value));
    const getPath = withQuery(getBase, query);
    const long = this.#baseUrl.length + getPath.length > MAX_URL_LENGTH;
    return this.#send(
      opts,
      long
        ? {
            method: 'POST',
            path: withQuery(postPath, localeQuery(opts)),
            body: { ...listBody(opts), ...extra },
          }
        : { method: 'GET', path: getPath },
    );
  }

  /** Every request of the table goes out here, through its base's throttle; only #write's POSTs create. */
  #send(
    opts: RequestOptions | undefined,
    spec: Pick<SendSpec, 'method' | 'path' | 'body'> & { creates?: boolean },
  ): Promise<unknown> {
    return this.#requester.send({
      signal: opts?.signal,
      priority: opts?.priority,
      purpose: opts?.purpose,
      baseId: this.baseId,
      creates: false,
      ...spec,
    });
  }
}
