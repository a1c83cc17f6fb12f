import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ServiceError } from '../errors';
import { RequestWork } from '../cost';
import type { Service } from '../service';
import { fieldSchema, tableSchema } from '../store/catalog';
import type { Table } from '../store/catalog';
import { isRelational } from '../store/relational';
import type { User } from '../users';
import { createBaseBody, fieldSpec, renameBody, tableSpec } from './schemas';

type BaseParams = { baseId: string };

/** Every base of the local server is in one workspace (it has no other notion of one). */
export const LOCAL_WORKSPACE_ID = 'wspLocalTableDesk';
type TableParams = BaseParams & { tableId: string };

function metaTable(service: Service, baseId: string, tableIdOrName: string): Table {
  const table = service.catalog.table(service.catalog.base(baseId)!, tableIdOrName);
  if (!table) throw new ServiceError(404, 'NOT_FOUND', `Could not find table ${tableIdOrName}`);
  return table;
}

export function registerMetaRoutes(
  app: FastifyInstance,
  service: Service,
  userOf: (req: FastifyRequest) => User,
): void {
  const { catalog } = service;

  app.get('/v0/meta/whoami', async (req) => ({
    id: userOf(req).id,
    email: userOf(req).email,
    scopes: [
      'data.records:read',
      'data.records:write',
      'data.recordComments:read',
      'data.recordComments:write',
      'schema.bases:read',
      'schema.bases:write',
    ],
  }));

  app.get('/v0/meta/bases', async () => ({
    bases: catalog.listBases().map((b) => ({ id: b.id, name: b.name, permissionLevel: 'create' })),
  }));

  app.post<{ Body: typeof createBaseBody._output }>(
    '/v0/meta/bases',
    { schema: { body: createBaseBody } },
    async (req) => {
      const base = catalog.createBase(req.body.name, req.body.tables);
      return { id: base.id, tables: base.tables.map((t) => tableSchema(t, false)) };
    },
  );

  // Airtable's "get base collaborators" (enterprise tokens only there): here, the base's workspace.
  app.get<{ Params: BaseParams }>('/v0/meta/bases/:baseId', async (req) => {
    const base = catalog.base(req.params.baseId)!;
    return { id: base.id, name: base.name, permissionLevel: 'create', workspaceId: LOCAL_WORKSPACE_ID };
  });

  app.get<{ Params: BaseParams; Querystring: { include?: string | string[] } }>(
    '/v0/meta/bases/:baseId/tables',
    async (req) => {
      const include = [req.query.include ?? []].flat();
      return {
        tables: catalog
          .base(req.params.baseId)!
          .tables.map((t) => tableSchema(t, include.includes('visibleFieldIds'))),
      };
    },
  );

  app.post<{ Params: BaseParams; Body: typeof tableSpec._output }>(
    '/v0/meta/bases/:baseId/tables',
    { schema: { body: tableSpec } },
    async (req) => tableSchema(catalog.createTable(catalog.base(req.params.baseId)!, req.body), false),
  );

  app.patch<{ Params: TableParams; Body: typeof renameBody._output }>(
    '/v0/meta/bases/:baseId/tables/:tableId',
    { schema: { body: renameBody } },
    async (req) =>
      tableSchema(
        catalog.updateTable(metaTable(service, req.params.baseId, req.params.tableId), req.body),
        false,
      ),
  );

  app.post<{ Params: TableParams; Body: typeof fieldSpec._output }>(
    '/v0/meta/bases/:baseId/tables/:tableId/fields',
    { schema: { body: fieldSpec } },
    async (req) => {
      const table = metaTable(service, req.params.baseId, req.params.tableId);
      // One transaction: a formula too expensive to compute over the table leaves no field behind.
      const field = catalog.transaction(() => {
        const created = catalog.createField(table, req.body);
        if (created.type === 'formula' || isRelational(created))
          service.records.recomputeDerived(table, new RequestWork());
        return created;
      });
      return fieldSchema(field);
    },
  );

  app.patch<{ Params: TableParams & { fieldId: string }; Body: typeof renameBody._output }>(
    '/v0/meta/bases/:baseId/tables/:tableId/fields/:fieldId',
    { schema: { body: renameBody } },
    async (req) => {
      const table = metaTable(service, req.params.baseId, req.params.tableId);
      const field = catalog.field(table, req.params.fieldId);
      if (!field) throw new ServiceError(404, 'NOT_FOUND', `Could not find field ${req.params.fieldId}`);
      // The service's update-field writes a name and a description only: a type or options sent here would be
      // dropped while the answer says 200, so the caller would believe its field changed.
      const unwritable = ['type', 'options'].filter((k) => k in req.body);
      if (unwritable.length > 0)
        throw new ServiceError(
          422,
          'INVALID_REQUEST_UNKNOWN',
          `A field's ${unwritable.join(' and ')} cannot be changed through the API; only its name and description`,
        );
      return fieldSchema(catalog.updateField(table, field, req.body));
    },
  );
}
