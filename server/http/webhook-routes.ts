/**
 * Airtable's webhook API for a base: create, list, refresh, delete, and the payloads read with a cursor
 * (`store/webhooks.ts` logs the changes). The server has no token scopes, so any key of the server may manage
 * a base's webhooks (Airtable asks for `webhook:manage`).
 *
 * A `notificationUrl` is accepted and listed but never called: a server that sent requests to any address a
 * key holder names would let that key reach into the network it runs in (the user's machine, their LAN), and
 * the app reads payloads at its own interval anyway. `areNotificationsEnabled` is therefore always false.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ServiceError, invalidRequest } from '../errors';
import type { Service } from '../service';
import type { Table } from '../store/catalog';
import type { RecordChange, Webhook } from '../store/webhooks';
import { MAX_PAYLOADS, MAX_WEBHOOKS_PER_BASE } from '../store/webhooks';
import { renderRecord, writeRender } from './render';
import { resolveTable } from './record-routes';
import { count } from './schemas';

type BaseParams = { baseId: string };
type HookParams = BaseParams & { webhookId: string };

const MAX_URL_LENGTH = 2_000;

// Only what this server implements is accepted: table data, optionally one table. Airtable's other options
// (fields to watch, change types, sources, includes) would silently change what a payload holds, so they
// are refused rather than ignored.
const createBody = z.object({
  notificationUrl: z.string().max(MAX_URL_LENGTH).url().nullable().optional(),
  specification: z.object({
    options: z.object({
      filters: z.object({
        dataTypes: z.array(z.literal('tableData')).min(1).max(1),
        recordChangeScope: z.string().max(100).optional(),
      }),
    }),
  }),
});

const payloadsQuery = z.looseObject({ cursor: count.optional(), limit: count.optional() });

const webhookNotFound = () => new ServiceError(404, 'NOT_FOUND', 'Could not find webhook');

/** A stored cell map (by field id) on the wire: only the table's fields, empty cells as null. */
function wireCells(
  service: Service,
  table: Table | undefined,
  cells: Record<string, unknown>,
): Record<string, unknown> {
  const out = Object.create(null) as Record<string, unknown>;
  if (!table) return out;
  const ids = new Set(Object.keys(cells));
  const rendered = renderRecord(
    table,
    { seq: 0, id: '', createdTime: '', modifiedTime: '', data: cells },
    { ...writeRender(service, true), only: ids },
  ).fields;
  // A cleared cell is named with null, so a reader can tell it from one that did not change (Airtable's
  // representation of a cleared cell in a payload is unverified).
  for (const field of table.fields) if (ids.has(field.id)) out[field.id] = rendered[field.id] ?? null;
  return out;
}

/** One payload per transaction, in order. */
function payloadsOf(service: Service, changes: RecordChange[]): unknown[] {
  const payloads: { txn: number; at: string; tables: Map<string, TableChanges> }[] = [];
  for (const c of changes) {
    let p = payloads.at(-1);
    if (p?.txn !== c.txn) payloads.push((p = { txn: c.txn, at: c.at, tables: new Map() }));
    let t = p.tables.get(c.tableId);
    if (!t) p.tables.set(c.tableId, (t = { created: {}, changed: {}, destroyed: [] }));
    const table = service.catalog.tableById(c.tableId);
    if (c.kind === 'created')
      t.created[c.recordId] = {
        createdTime: c.createdTime,
        cellValuesByFieldId: wireCells(service, table, c.cells ?? {}),
      };
    else if (c.kind === 'changed') {
      const { current, previous } = c.cells as Record<'current' | 'previous', Record<string, unknown>>;
      t.changed[c.recordId] = {
        current: { cellValuesByFieldId: wireCells(service, table, current) },
        previous: { cellValuesByFieldId: wireCells(service, table, previous) },
      };
    } else t.destroyed.push(c.recordId);
  }
  return payloads.map((p) => ({
    timestamp: p.at,
    baseTransactionNumber: p.txn,
    actionMetadata: { source: 'publicApi', sourceMetadata: {} },
    payloadFormat: 'v0',
    changedTablesById: Object.fromEntries(
      [...p.tables].map(([id, t]) => [
        id,
        {
          ...(Object.keys(t.created).length > 0 ? { createdRecordsById: t.created } : {}),
          ...(Object.keys(t.changed).length > 0 ? { changedRecordsById: t.changed } : {}),
          ...(t.destroyed.length > 0 ? { destroyedRecordIds: t.destroyed } : {}),
        },
      ]),
    ),
  }));
}

interface TableChanges {
  created: Record<string, unknown>;
  changed: Record<string, unknown>;
  destroyed: string[];
}

export function registerWebhookRoutes(app: FastifyInstance, service: Service): void {
  const W = '/v0/bases/:baseId/webhooks';
  const store = service.webhooks;

  const hookOf = (p: HookParams): Webhook => {
    const hook = store.get(p.baseId, p.webhookId);
    if (!hook) throw webhookNotFound();
    return hook;
  };

  const listed = (hook: Webhook) => ({
    id: hook.id,
    areNotificationsEnabled: false,
    cursorForNextPayload: store.nextCursor(hook),
    isHookEnabled: true,
    lastSuccessfulNotificationTime: null,
    notificationUrl: hook.notificationUrl,
    expirationTime: hook.expirationTime,
    specification: hook.specification,
    lastNotificationResult: null,
  });

  app.post<{ Params: BaseParams; Body: z.infer<typeof createBody> }>(
    W,
    { schema: { body: createBody } },
    async (req) => {
      const { baseId } = req.params;
      const filters = req.body.specification.options.filters;
      const scope = filters.recordChangeScope;
      // A table scope is named by its id, as on Airtable; a name is resolved too and kept as the id.
      const tableId = scope === undefined ? undefined : resolveTable(service, baseId, scope).id;
      if (store.count(baseId) >= MAX_WEBHOOKS_PER_BASE)
        throw new ServiceError(
          422,
          'TOO_MANY_WEBHOOKS_BY_OAUTH_INTEGRATION_IN_BASE',
          `A base may have at most ${MAX_WEBHOOKS_PER_BASE} webhooks`,
        );
      const spec = {
        options: {
          filters: { dataTypes: ['tableData'], ...(tableId ? { recordChangeScope: tableId } : {}) },
        },
      };
      const { webhook, macSecretBase64 } = store.create(baseId, spec, req.body.notificationUrl ?? null);
      return { id: webhook.id, macSecretBase64, expirationTime: webhook.expirationTime };
    },
  );

  app.get<{ Params: BaseParams }>(W, async (req) => ({
    webhooks: store.list(req.params.baseId).map(listed),
  }));

  // Airtable's answer to a delete is unverified here: an empty JSON object, as its other bodiless answers are
  // JSON, keeps clients that refuse a non-JSON 2xx (TableDesk's does) working.
  app.delete<{ Params: HookParams }>(`${W}/:webhookId`, async (req) => {
    if (!store.delete(req.params.baseId, hookOf(req.params).id)) throw webhookNotFound();
    return {};
  });

  app.post<{ Params: HookParams }>(`${W}/:webhookId/refresh`, async (req) => ({
    expirationTime: store.refresh(req.params.baseId, hookOf(req.params).id),
  }));

  app.get<{ Params: HookParams; Querystring: z.infer<typeof payloadsQuery> }>(
    `${W}/:webhookId/payloads`,
    { schema: { querystring: payloadsQuery } },
    async (req) => {
      const hook = hookOf(req.params);
      const { cursor = 1, limit = MAX_PAYLOADS } = req.query;
      if (cursor < 1 || !Number.isSafeInteger(cursor))
        throw invalidRequest('cursor must be a positive integer');
      if (limit < 1 || limit > MAX_PAYLOADS) throw invalidRequest(`limit must be from 1 to ${MAX_PAYLOADS}`);
      const read = store.changes(hook, cursor, limit);
      return {
        payloads: payloadsOf(service, read.changes),
        cursor: read.cursor,
        mightHaveMore: read.mightHaveMore,
      };
    },
  );
}
