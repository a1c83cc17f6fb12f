/**
 * Airtable's webhooks of one base, read by the app rather than notified: create one watching table data,
 * refresh it before it expires (7 days), read its payloads with the cursor, delete it. Through the base's
 * throttle, like every request of the base. Payloads are checked loosely: a part of a payload that is not the
 * shape expected is left out rather than failing the read.
 */
import { RecordTableError } from './errors';
import type { RequestOptions } from './options';
import { encodeSegment, requireId, withQuery } from './query';
import type { Requester, SendSpec } from './requester';
import { asObject } from './responses';

export interface CreatedWebhook {
  id: string;
  expirationTime: string;
}

export interface ChangedRecord {
  current: Record<string, unknown>;
  previous: Record<string, unknown>;
}

/** One table's part of a payload, cells keyed by field id. */
export interface TableChanges {
  created: Map<string, { createdTime: string; cells: Record<string, unknown> }>;
  changed: Map<string, ChangedRecord>;
  destroyed: string[];
}

export interface PayloadPage {
  /** Table id → its changes, over every payload of the page in order. */
  tables: Map<string, TableChanges>;
  cursor: number;
  mightHaveMore: boolean;
}

export interface WebhooksClient {
  create(opts?: RequestOptions): Promise<CreatedWebhook>;
  refresh(webhookId: string, opts?: RequestOptions): Promise<string>;
  delete(webhookId: string, opts?: RequestOptions): Promise<void>;
  payloads(webhookId: string, cursor: number | undefined, opts?: RequestOptions): Promise<PayloadPage>;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const cellsOf = (v: unknown): Record<string, unknown> =>
  isObject(v) && isObject(v.cellValuesByFieldId) ? v.cellValuesByFieldId : {};

function badAnswer(what: string, body: unknown): RecordTableError {
  return new RecordTableError({
    kind: 'http',
    message: `The service answered ${what} without its ${what === 'a webhook' ? 'id' : 'cursor'}: ${JSON.stringify(body).slice(0, 200)}`,
  });
}

/** Folds a page's payloads into changes per table: a later payload's values win over an earlier one's. */
function foldPayloads(payloads: unknown[]): Map<string, TableChanges> {
  const tables = new Map<string, TableChanges>();
  for (const p of payloads) {
    const byTable = isObject(p) && isObject(p.changedTablesById) ? p.changedTablesById : {};
    for (const [tableId, t] of Object.entries(byTable)) {
      if (!isObject(t)) continue;
      let out = tables.get(tableId);
      if (!out) tables.set(tableId, (out = { created: new Map(), changed: new Map(), destroyed: [] }));
      for (const [id, r] of Object.entries(isObject(t.createdRecordsById) ? t.createdRecordsById : {}))
        out.created.set(id, {
          createdTime: isObject(r) && typeof r.createdTime === 'string' ? r.createdTime : '',
          cells: cellsOf(r),
        });
      for (const [id, r] of Object.entries(isObject(t.changedRecordsById) ? t.changedRecordsById : {})) {
        if (!isObject(r)) continue;
        const created = out.created.get(id);
        // A record created and then changed within the page is one create with its latest cells.
        if (created) created.cells = { ...created.cells, ...cellsOf(r.current) };
        else {
          const before = out.changed.get(id);
          out.changed.set(id, {
            current: { ...before?.current, ...cellsOf(r.current) },
            previous: { ...cellsOf(r.previous), ...before?.previous },
          });
        }
      }
      if (Array.isArray(t.destroyedRecordIds))
        for (const id of t.destroyedRecordIds)
          if (typeof id === 'string') {
            out.created.delete(id);
            out.changed.delete(id);
            out.destroyed.push(id);
          }
    }
  }
  return tables;
}

export class Webhooks implements WebhooksClient {
  readonly #requester: Requester;

  constructor(
    requester: Requester,
    readonly baseId: string,
  ) {
    this.#requester = requester;
  }

  #path(webhookId?: string, action?: string): string {
    const base = `/v0/bases/${encodeSegment(this.baseId)}/webhooks`;
    if (webhookId === undefined) return base;
    const one = `${base}/${encodeSegment(requireId('webhook id', webhookId))}`;
    return action === undefined ? one : `${one}/${action}`;
  }

  #send(opts: RequestOptions | undefined, spec: Pick<SendSpec, 'method' | 'path' | 'body'>, creates = false) {
    return this.#requester.sendFor<unknown>(this.baseId, opts, spec, creates);
  }

  /** No notification URL: the app reads payloads at its own interval. */
  async create(opts?: RequestOptions): Promise<CreatedWebhook> {
    const body = asObject(
      await this.#send(
        opts,
        {
          method: 'POST',
          path: this.#path(),
          body: { specification: { options: { filters: { dataTypes: ['tableData'] } } } },
        },
        true,
      ),
      'a webhook',
    );
    if (typeof body.id !== 'string') throw badAnswer('a webhook', body);
    return {
      id: body.id,
      expirationTime: typeof body.expirationTime === 'string' ? body.expirationTime : '',
    };
  }

  async refresh(webhookId: string, opts?: RequestOptions): Promise<string> {
    const body = asObject(
      await this.#send(opts, { method: 'POST', path: this.#path(webhookId, 'refresh') }),
      'a refreshed webhook',
    );
    return typeof body.expirationTime === 'string' ? body.expirationTime : '';
  }

  async delete(webhookId: string, opts?: RequestOptions): Promise<void> {
    await this.#send(opts, { method: 'DELETE', path: this.#path(webhookId) });
  }

  async payloads(webhookId: string, cursor: number | undefined, opts?: RequestOptions): Promise<PayloadPage> {
    const query = new URLSearchParams();
    if (cursor !== undefined) query.set('cursor', String(cursor));
    const body = asObject(
      await this.#send(opts, { method: 'GET', path: withQuery(this.#path(webhookId, 'payloads'), query) }),
      'webhook payloads',
    );
    if (typeof body.cursor !== 'number' || !Array.isArray(body.payloads))
      throw badAnswer('webhook payloads', body);
    return {
      tables: foldPayloads(body.payloads),
      cursor: body.cursor,
      mightHaveMore: body.mightHaveMore === true,
    };
  }
}
