/**
 * The `count` extension: how many records a list with the same `view`, `filterByFormula` and `maxRecords`
 * would return, which Airtable's wire cannot say without walking every page. GET takes the list's query; POST
 * takes them in a JSON body for formulas too long for a URL, as POST …/listRecords does. Same key, rate limit,
 * formula budget and checks as the list (the list's own code), and `{"count": n}` as the answer.
 */
import type { FastifyInstance } from 'fastify';
import type { Service } from '../service';
import { countRecords } from './list';
import { resolveTable } from './record-routes';
import { listOptions } from './schemas';
import type { ListOptions } from './schemas';

type TableParams = { baseId: string; table: string };

export function registerCountRoute(app: FastifyInstance, service: Service, prefix: string): void {
  const path = `${prefix}/:baseId/:table/count`;
  const count = async (params: TableParams, o: ListOptions) => ({
    count: await countRecords(service, resolveTable(service, params.baseId, params.table), o),
  });
  app.get<{ Params: TableParams; Querystring: ListOptions }>(
    path,
    { schema: { querystring: listOptions } },
    async (req) => count(req.params, req.query),
  );
  app.post<{ Params: TableParams; Body: ListOptions }>(path, { schema: { body: listOptions } }, async (req) =>
    count(req.params, req.body ?? {}),
  );
}
