/**
 * TableDesk's own additions to Airtable's wire, which only the local server answers. They live under their own
 * prefix so that no Airtable path changes meaning, and a client uses one only where the discovery answer names
 * it (against Airtable the discovery path is a 404, so the client keeps to Airtable's wire).
 */
import type { FastifyInstance } from 'fastify';
import type { Service } from '../service';
import { registerCountRoute } from './count-route';
import { registerAggregateRoute } from './aggregate-route';
import { registerSeekRoute } from './seek-route';

export const EXTENSION_PREFIX = '/_tabledesk/v1';

/** The extensions this server answers, by name; each is registered under EXTENSION_PREFIX. */
export const SERVER_EXTENSIONS: readonly string[] = ['count', 'aggregate', 'seek'];

export function registerExtensionRoutes(app: FastifyInstance, service: Service): void {
  app.get(`${EXTENSION_PREFIX}/extensions`, async () => ({ extensions: SERVER_EXTENSIONS }));
  registerCountRoute(app, service, EXTENSION_PREFIX);
  registerAggregateRoute(app, service, EXTENSION_PREFIX);
  registerSeekRoute(app, service, EXTENSION_PREFIX);
}
