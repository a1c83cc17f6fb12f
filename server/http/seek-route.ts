/**
 * The `seek` extension: an offset at any position of a list, so that a client reaches row 40,000 in two
 * requests instead of a walk of 400 pages. GET takes the list's query and `position`; POST takes them in a
 * JSON body for formulas too long for a URL (timeZone and userLocale may stay in the query, as for POST
 * …/listRecords). Same key, rate limit, formula budget and checks as the list (the list's own code); the
 * answer is `{"offset": string | null, "position": n, "total": n}` (see seekRecords).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Service } from '../service';
import { seekRecords } from './list';
import { resolveTable } from './record-routes';
import { listOptions } from './schemas';
import type { ListOptions } from './schemas';

type TableParams = { baseId: string; table: string };

/** A position: a whole number from 0 (past the view's end, it is the end). */
const position = z.union([
  z.number().int().nonnegative(),
  z
    .string()
    .regex(/^\d{1,15}$/)
    .transform(Number),
]);
const seekOptions = listOptions.extend({ position });
type SeekOptions = z.infer<typeof seekOptions>;

export function registerSeekRoute(app: FastifyInstance, service: Service, prefix: string): void {
  const path = `${prefix}/:baseId/:table/seek`;
  const seek = async (params: TableParams, o: SeekOptions) =>
    seekRecords(service, resolveTable(service, params.baseId, params.table), o, o.position);
  app.get<{ Params: TableParams; Querystring: SeekOptions }>(
    path,
    { schema: { querystring: seekOptions } },
    async (req) => seek(req.params, req.query),
  );
  app.post<{ Params: TableParams; Body: SeekOptions; Querystring: ListOptions }>(
    path,
    { schema: { body: seekOptions, querystring: listOptions } },
    async (req) =>
      seek(req.params, {
        ...req.body,
        timeZone: req.body.timeZone ?? req.query.timeZone,
        userLocale: req.body.userLocale ?? req.query.userLocale,
      }),
  );
}
