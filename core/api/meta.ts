/** The metadata API: bases, base schemas, whoami, and creating bases, tables and fields. */
import { DEFAULT_PAGE_SIZE, OffsetChain } from './offsets';
import type { BaseInfo, FieldSchema, FieldType, TableSchema } from '../records/types';
import type { RequestOptions } from './options';
import { encodeSegment, withQuery } from './query';
import type { Requester } from './requester';
import { asList, asObject } from './responses';
import { asTables } from './schema-answer';

export interface WhoAmI {
  id: string;
  email?: string;
  scopes?: string[];
}

export interface NewField {
  name: string;
  type: FieldType;
  description?: string;
  options?: Record<string, unknown>;
}

export interface NewTable {
  name: string;
  description?: string;
  /** The first field is the primary field. */
  fields: NewField[];
}

export interface NewBase {
  name: string;
  workspaceId?: string;
  tables: NewTable[];
}

export interface CreatedBase {
  id: string;
  tables: TableSchema[];
}

/** What `GET /v0/meta/bases/{baseId}` tells of a base; the workspace where the token may read it. */
export interface BaseDetails {
  id: string;
  workspaceId?: string;
}

export interface MetaClient {
  bases(opts?: RequestOptions): Promise<BaseInfo[]>;
  /**
   * One base's details, its workspace among them. Airtable answers this path ("get base collaborators") only
   * for tokens with an enterprise scope (`workspacesAndBases:read`); others get a 403 or 404, which the caller
   * takes as "workspace unknown". Unverified beyond Airtable's reference, which the research notes do not
   * quote: the answer is read leniently (a workspace id of the usual shape, or none).
   */
  baseDetails(baseId: string, opts?: RequestOptions): Promise<BaseDetails>;
  baseSchema(baseId: string, opts?: RequestOptions): Promise<TableSchema[]>;
  whoami(opts?: RequestOptions): Promise<WhoAmI>;
  createBase(base: NewBase, opts?: RequestOptions): Promise<CreatedBase>;
  createTable(baseId: string, table: NewTable, opts?: RequestOptions): Promise<TableSchema>;
  createField(baseId: string, tableId: string, field: NewField, opts?: RequestOptions): Promise<FieldSchema>;
}

/** Account-level calls (bases, whoami, createBase) share one throttle under this key. */
const ACCOUNT = '';

export class Meta implements MetaClient {
  readonly #requester: Requester;

  constructor(requester: Requester) {
    this.#requester = requester;
  }

  async bases(opts?: RequestOptions): Promise<BaseInfo[]> {
    const out: BaseInfo[] = [];
    let offset: string | undefined;
    // Airtable's pages of bases hold up to 1,000: no full one holds fewer than a page of records.
    const chain = new OffsetChain('GET /v0/meta/bases', DEFAULT_PAGE_SIZE);
    do {
      const query = new URLSearchParams(offset === undefined ? {} : { offset });
      const body = await this.#get(ACCOUNT, withQuery('/v0/meta/bases', query), opts);
      const page = asList(body, (b) => asObject(b, 'a base') as unknown as BaseInfo, 'bases');
      out.push(...page.list);
      offset = chain.next(
        typeof page.body.offset === 'string' && page.body.offset.length > 0 ? page.body.offset : undefined,
        page.list.length,
      );
    } while (offset !== undefined);
    return out;
  }

  async baseDetails(baseId: string, opts?: RequestOptions): Promise<BaseDetails> {
    const body = asObject(await this.#get(baseId, `/v0/meta/bases/${encodeSegment(baseId)}`, opts), 'a base');
    const workspaceId = body['workspaceId'];
    return typeof workspaceId === 'string' && /^wsp[A-Za-z0-9]{1,40}$/.test(workspaceId)
      ? { id: baseId, workspaceId }
      : { id: baseId };
  }

  async baseSchema(baseId: string, opts?: RequestOptions): Promise<TableSchema[]> {
    const path = `/v0/meta/bases/${encodeSegment(baseId)}/tables?include%5B%5D=visibleFieldIds`;
    const body = await this.#get(baseId, path, opts);
    return asTables(body);
  }

  async whoami(opts?: RequestOptions): Promise<WhoAmI> {
    return asObject(await this.#get(ACCOUNT, '/v0/meta/whoami', opts), 'a user') as unknown as WhoAmI;
  }

  async createBase(base: NewBase, opts?: RequestOptions): Promise<CreatedBase> {
    return asObject(
      await this.#create(ACCOUNT, '/v0/meta/bases', base, opts),
      'a base',
    ) as unknown as CreatedBase;
  }

  async createTable(baseId: string, table: NewTable, opts?: RequestOptions): Promise<TableSchema> {
    const path = `/v0/meta/bases/${encodeSegment(baseId)}/tables`;
    return asObject(await this.#create(baseId, path, table, opts), 'a table') as unknown as TableSchema;
  }

  async createField(
    baseId: string,
    tableId: string,
    field: NewField,
    opts?: RequestOptions,
  ): Promise<FieldSchema> {
    const path = `/v0/meta/bases/${encodeSegment(baseId)}/tables/${encodeSegment(tableId)}/fields`;
    return asObject(await this.#create(baseId, path, field, opts), 'a field') as unknown as FieldSchema;
  }

  #get(baseId: string, path: string, opts?: RequestOptions): Promise<unknown> {
    return this.#requester.send({
      signal: opts?.signal,
      priority: opts?.priority,
      purpose: opts?.purpose,
      baseId,
      method: 'GET',
      path,
      creates: false,
    });
  }

  #create(baseId: string, path: string, body: unknown, opts?: RequestOptions): Promise<unknown> {
    return this.#requester.send({
      signal: opts?.signal,
      priority: opts?.priority,
      purpose: opts?.purpose,
      baseId,
      method: 'POST',
      path,
      body,
      creates: true,
    });
  }
}
