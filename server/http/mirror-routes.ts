/**
 * The private write path of a mirror (services/mirror): a hosted base copied into this server with its own
 * ids and times. Not part of the public API: not under `/v0` or `/_tabledesk/v1`, never named by the
 * extensions answer, and refused to every key but the server's own (the app that runs it). The routes'
 * parameter is `id`, not `baseId`, so the per-base rate limit (which counts `baseId` routes) does not apply:
 * the mirror writes what the hosted service's throttle already paced, and the user's own requests to the
 * copy keep their budget.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { FIELD_TYPE_NAME } from '../../core/records/types';
import { ServiceError } from '../errors';
import type { Service } from '../service';
import type { Table } from '../store/catalog';
import { MirrorWrites } from '../store/mirror-writes';
import { nameProblem } from '../store/names';
import type { User } from '../users';
import { LOCAL_USER } from '../users';
import { renderRecord, writeRender } from './render';

export const MIRROR_PREFIX = '/_tabledesk/mirror';

const id = (prefix: string) => z.string().regex(new RegExp(`^${prefix}[A-Za-z0-9]{14}$`));
const name = z
  .string()
  .min(1)
  .max(255)
  .refine((n) => nameProblem(n) === undefined, 'a name may hold no control or bidirectional characters');
const options = z.record(z.string(), z.unknown()).nullable().optional();

const schemaBody = z.object({
  name,
  tables: z
    .array(
      z.object({
        id: id('tbl'),
        name,
        description: z.string().max(20_000).optional(),
        primaryFieldId: id('fld'),
        fields: z
          .array(
            z.object({
              id: id('fld'),
              name,
              type: z.string().regex(FIELD_TYPE_NAME),
              description: z.string().max(20_000).optional(),
              options,
            }),
          )
          .min(1)
          .max(500),
        views: z
          .array(
            z.object({
              id: id('viw'),
              name,
              type: z.string().min(1).max(64),
              filterByFormula: z.string().max(100_000).optional(),
              sort: z
                .array(z.object({ fieldId: id('fld'), direction: z.enum(['asc', 'desc']) }))
                .max(20)
                .optional(),
            }),
          )
          .max(1000),
        outside: z.boolean().optional(),
      }),
    )
    .min(1)
    .max(1000),
});

const fieldsObject = z.custom<Record<string, unknown>>(
  (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
  { message: 'fields must be an object' },
);

/** By record id, the modification time the caller read: a record written since is skipped (see putRecords). */
const expectTimes = z
  .record(id('rec'), z.iso.datetime())
  .refine((m) => Object.keys(m).length <= 1000, 'at most 1000 records')
  .optional();
const putBody = z.object({
  records: z
    .array(z.object({ id: id('rec'), createdTime: z.iso.datetime(), fields: fieldsObject }))
    .max(1000),
  expect: expectTimes,
});
const deleteBody = z.object({ ids: z.array(id('rec')).max(1000), expect: expectTimes });
/** Ids to move to the end of a table's order: a part of a second's work (see MirrorWrites.moveToEnd). */
export const MAX_MOVED = 5000;
const moveBody = z.object({ ids: z.array(id('rec')).min(1).max(MAX_MOVED) });
const renameBody = z.object({ from: id('rec'), to: id('rec'), createdTime: z.iso.datetime() });
const readQuery = z.object({
  after: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(1000),
});
/**
 * Pages of ids: ten times a page of records, about 200 KB of ids; the touched records among them stop a page
 * at a records page's worth (MAX_TOUCHED_PER_PAGE).
 */
const touchedQuery = z.object({
  after: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(10_000).default(10_000),
});

/**
 * The largest body of a write of records: parsing and checking one holds every other request, so it is bounded
 * to what takes a small part of a second (a 64 MB body held them for seconds); the mirror writes in pieces
 * under it (services/mirror/local.ts).
 */
export const MAX_RECORDS_BODY = 8 * 1024 * 1024;

/** Files as raw bytes, up to this size (Airtable's attachments may be far larger than an upload's 5 MB). */
export const MAX_FILE_BYTES = 100 * 1024 * 1024;

type BaseParams = { id: string };
type TableParams = { id: string; tableId: string };

export function registerMirrorRoutes(
  app: FastifyInstance,
  service: Service,
  userOf: (req: FastifyRequest) => User,
): void {
  const writes = new MirrorWrites(service.db, service.catalog, service.records, (hash) =>
    service.attachments.files.get(hash),
  );

  const tableOf = (params: TableParams): Table => {
    const base = service.catalog.base(params.id);
    const table = base?.tables.find((t) => t.id === params.tableId);
    if (!table) throw new ServiceError(404, 'TABLE_NOT_FOUND', 'No such mirrored table');
    return table;
  };

  void app.register(async (scope) => {
    scope.addHook('onRequest', async (req) => {
      if (userOf(req) !== LOCAL_USER) throw new ServiceError(404, null);
    });
    scope.addContentTypeParser(
      'application/octet-stream',
      { parseAs: 'buffer', bodyLimit: MAX_FILE_BYTES },
      (_req, body, done) => done(null, body),
    );

    scope.put<{ Params: BaseParams; Body: z.infer<typeof schemaBody> }>(
      `${MIRROR_PREFIX}/bases/:id`,
      { schema: { body: schemaBody, params: z.object({ id: id('app') }) } },
      async (req) => writes.applySchema(req.params.id, req.body.name, req.body.tables),
    );

    scope.delete<{ Params: BaseParams }>(
      `${MIRROR_PREFIX}/bases/:id`,
      { schema: { params: z.object({ id: id('app') }) } },
      async (req) => ({ deleted: writes.dropBase(req.params.id) }),
    );

    scope.post<{ Params: TableParams; Body: z.infer<typeof putBody> }>(
      `${MIRROR_PREFIX}/bases/:id/tables/:tableId/records`,
      { schema: { body: putBody }, bodyLimit: MAX_RECORDS_BODY },
      async (req) => {
        const written = writes.putRecords(tableOf(req.params), req.body.records, req.body.expect);
        await writes.settleInverse(written);
        const { skipped, modifiedTime } = written;
        return { written: req.body.records.length - skipped.length, skipped, modifiedTime };
      },
    );

    scope.post<{ Params: TableParams; Body: z.infer<typeof deleteBody> }>(
      `${MIRROR_PREFIX}/bases/:id/tables/:tableId/delete`,
      { schema: { body: deleteBody } },
      async (req) => {
        const done = writes.deleteRecords(tableOf(req.params), req.body.ids, req.body.expect);
        await writes.settleInverse(done);
        return { deleted: done.deleted, skipped: done.skipped };
      },
    );

    scope.post<{ Params: TableParams; Body: z.infer<typeof moveBody> }>(
      `${MIRROR_PREFIX}/bases/:id/tables/:tableId/move-to-end`,
      { schema: { body: moveBody } },
      async (req) => writes.moveToEnd(tableOf(req.params), req.body.ids),
    );

    scope.post<{ Params: TableParams; Body: z.infer<typeof renameBody> }>(
      `${MIRROR_PREFIX}/bases/:id/tables/:tableId/rename`,
      { schema: { body: renameBody } },
      async (req) => {
        writes.renameRecord(tableOf(req.params), req.body.from, req.body.to, req.body.createdTime);
        return { renamed: true };
      },
    );

    // Every record as the wire has it by field id, in creation order, `after` a row number (a keyset).
    scope.get<{ Params: TableParams; Querystring: z.infer<typeof readQuery> }>(
      `${MIRROR_PREFIX}/bases/:id/tables/:tableId/records`,
      { schema: { querystring: readQuery } },
      async (req) => {
        const table = tableOf(req.params);
        const { records, after } = writes.readRecords(table, req.query.after, req.query.limit);
        const render = writeRender(service, true);
        // With each record's modification time, which a write of the mirror's may name (see putBody).
        return {
          records: records.map((r) => ({ ...renderRecord(table, r, render), modifiedTime: r.modifiedTime })),
          after,
        };
      },
    );

    // Every id, and the records written here since the mirror wrote them (see MirrorWrites.touchedRecords).
    scope.get<{ Params: TableParams; Querystring: z.infer<typeof touchedQuery> }>(
      `${MIRROR_PREFIX}/bases/:id/tables/:tableId/touched`,
      { schema: { querystring: touchedQuery } },
      async (req) => {
        const table = tableOf(req.params);
        const { ids, touched, after } = writes.touchedRecords(table, req.query.after, req.query.limit);
        const render = writeRender(service, true);
        return { ids, touched: touched.map((r) => renderRecord(table, r, render)), after };
      },
    );

    scope.post<{ Body: Buffer }>(`${MIRROR_PREFIX}/files`, { bodyLimit: MAX_FILE_BYTES }, async (req) => {
      if (!Buffer.isBuffer(req.body))
        throw new ServiceError(415, 'INVALID_REQUEST_UNKNOWN', 'Send the file as application/octet-stream');
      return service.attachments.files.put(req.body);
    });
  });
}
