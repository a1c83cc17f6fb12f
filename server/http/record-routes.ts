import type { FastifyInstance } from 'fastify';
import { ServiceError, recordNotFound } from '../errors';
import type { Service } from '../service';
import type { Table } from '../store/catalog';
import { listRecords, renderOptions } from './list';
import { renderRecord } from './render';
import { createBody, deleteQuery, listOptions, recordQuery, updateManyBody, updateOneBody } from './schemas';
import type { ListOptions } from './schemas';

type TableParams = { baseId: string; table: string };
type RecordParams = TableParams & { recordId: string };

const MAX_BATCH = 10;

export function resolveTable(service: Service, baseId: string, nameOrId: string): Table {
  const base = service.catalog.base(baseId)!;
  const table = service.catalog.table(base, nameOrId);
  if (!table)
    throw new ServiceError(
      404,
      'TABLE_NOT_FOUND',
      `Could not find table ${nameOrId} in application ${baseId}`,
    );
  return table;
}

function checkBatch(count: number, verb: string): void {
  if (count > MAX_BATCH)
    throw new ServiceError(
      422,
      'INVALID_RECORDS',
      `A maximum of ${MAX_BATCH} records can be ${verb} per request but you have provided ${count}.`,
    );
  if (count === 0) throw new ServiceError(422, 'INVALID_RECORDS', `At least one record must be ${verb}.`);
}

export function registerRecordRoutes(app: FastifyInstance, service: Service): void {
  const T = '/v0/:baseId/:table';
  const R = '/v0/:baseId/:table/:recordId';

  app.get<{ Params: TableParams; Querystring: ListOptions }>(
    T,
    { schema: { querystring: listOptions } },
    async (req) =>
      listRecords(service, resolveTable(service, req.params.baseId, req.params.table), req.query),
  );

  // Options travel in the body, except timeZone and userLocale which clients put in the query.
  app.post<{ Params: TableParams; Body: ListOptions; Querystring: ListOptions }>(
    `${T}/listRecords`,
    { schema: { body: listOptions, querystring: listOptions } },
    async (req) => {
      const body = req.body ?? {};
      const options: ListOptions = {
        ...body,
        timeZone: body.timeZone ?? req.query.timeZone,
        userLocale: body.userLocale ?? req.query.userLocale,
      };
      return listRecords(service, resolveTable(service, req.params.baseId, req.params.table), options);
    },
  );

  app.get<{ Params: RecordParams; Querystring: ListOptions }>(
    R,
    { schema: { querystring: recordQuery } },
    async (req) => {
      const table = resolveTable(service, req.params.baseId, req.params.table);
      const rec = service.records.get(table, req.params.recordId);
      if (!rec) throw recordNotFound();
      return renderRecord(table, rec, renderOptions(service, table, req.query));
    },
  );

  app.post<{ Params: TableParams; Body: typeof createBody._output }>(
    T,
    { schema: { body: createBody } },
    async (req) => {
      const table = resolveTable(service, req.params.baseId, req.params.table);
      const body = req.body;
      const render = { byFieldId: body.returnFieldsByFieldId === true };
      if (body.records) {
        checkBatch(body.records.length, 'created');
        const recs = service.records.create(
          table,
          body.records.map((r) => r.fields),
          { typecast: body.typecast },
        );
        return { records: recs.map((r) => renderRecord(table, r, render)) };
      }
      if (!body.fields)
        throw new ServiceError(
          422,
          'INVALID_REQUEST_MISSING_FIELDS',
          'Could not find field "fields" in the request body',
        );
      const [rec] = service.records.create(table, [body.fields], { typecast: body.typecast });
      return renderRecord(table, rec!, render);
    },
  );

  for (const method of ['PATCH', 'PUT'] as const) {
    const replace = method === 'PUT';
    app.route<{ Params: TableParams; Body: typeof updateManyBody._output }>({
      method,
      url: T,
      schema: { body: updateManyBody },
      handler: async (req) => {
        const table = resolveTable(service, req.params.baseId, req.params.table);
        const body = req.body;
        checkBatch(body.records.length, 'updated');
        const render = { byFieldId: body.returnFieldsByFieldId === true };
        const opts = { typecast: body.typecast, replace };
        if (body.performUpsert) {
          const r = service.records.upsert(table, body.records, body.performUpsert.fieldsToMergeOn, opts);
          return {
            records: r.records.map((x) => renderRecord(table, x, render)),
            createdRecords: r.created,
            updatedRecords: r.updated,
          };
        }
        const updates = body.records.map((r) => {
          if (!r.id) throw new ServiceError(422, 'INVALID_RECORDS', 'Every record to update needs an id');
          return { id: r.id, fields: r.fields };
        });
        return {
          records: service.records.update(table, updates, opts).map((x) => renderRecord(table, x, render)),
        };
      },
    });
    app.route<{ Params: RecordParams; Body: typeof updateOneBody._output }>({
      method,
      url: R,
      schema: { body: updateOneBody },
      handler: async (req) => {
        const table = resolveTable(service, req.params.baseId, req.params.table);
        if (!service.records.get(table, req.params.recordId)) throw recordNotFound();
        const [rec] = service.records.update(table, [{ id: req.params.recordId, fields: req.body.fields }], {
          typecast: req.body.typecast,
          replace,
        });
        return renderRecord(table, rec!, { byFieldId: req.body.returnFieldsByFieldId === true });
      },
    });
  }

  app.delete<{ Params: TableParams; Querystring: { records?: string[] | string } }>(
    T,
    { schema: { querystring: deleteQuery } },
    async (req) => {
      const table = resolveTable(service, req.params.baseId, req.params.table);
      const ids = req.query.records;
      if (!Array.isArray(ids))
        throw new ServiceError(422, 'INVALID_RECORDS', '"records" must be an array of up to 10 record IDs.');
      checkBatch(ids.length, 'deleted');
      service.records.delete(table, ids);
      return { records: ids.map((id) => ({ deleted: true, id })) };
    },
  );

  app.delete<{ Params: RecordParams }>(R, async (req) => {
    const table = resolveTable(service, req.params.baseId, req.params.table);
    service.records.delete(table, [req.params.recordId]);
    return { deleted: true, id: req.params.recordId };
  });
}
