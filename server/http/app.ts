import cors from '@fastify/cors';
import Fastify from 'fastify';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodType } from 'zod';
import { ServiceError, invalidRequest } from '../errors';
import type { Service } from '../service';
import { Users } from '../users';
import type { KeyUser, User } from '../users';
import { registerCommentRoutes } from './comment-routes';
import { loopbackHostAllowed } from './host-check';
import { parseJsonBody } from './json-body';
import { parseQueryString } from './query-string';
import { RateLimiter } from './rate-limit';
import { MonthlyQuota } from './quota';
import { LOCAL_WORKSPACE_ID } from './meta-routes';
import { registerExtensionRoutes } from './extension-routes';
import { registerMetaRoutes } from './meta-routes';
import { registerRecordRoutes } from './record-routes';
import { registerFileRoutes } from './file-routes';
import { registerMirrorRoutes } from './mirror-routes';
import { registerWebhookRoutes } from './webhook-routes';
import { FILES_PREFIX } from '../files/signing';

export interface AppOptions {
  /** The keys the server admits, each acting for its user. */
  keys: readonly KeyUser[];
  /** The server listens on loopback only: requests must name a loopback host (see host-check.ts). */
  loopbackOnly: boolean;
  rateLimit: number | 'off';
  /** Requests per second across every base for one user's keys (Airtable's 50), or 'off'. */
  tokenRateLimit: number | 'off';
  penaltyMs: number;
  /** A monthly allowance of calls per workspace (the hosted plans'), or 'off'. */
  monthlyCalls: number | 'off';
  /** TableDesk's extensions under /_tabledesk/v1/; without them only Airtable's wire is answered. */
  extensions: boolean;
  bodyLimit: number;
  logger: boolean;
  onRequest?: (e: { method: string; url: string; baseId?: string; at: number; status: number }) => void;
}

// Airtable's CORS answer (airtable-wire.md §1).
const CORS = {
  origin: '*',
  methods: ['DELETE', 'GET', 'OPTIONS', 'PATCH', 'POST', 'PUT'],
  allowedHeaders: [
    'authorization',
    'content-length',
    'content-type',
    'user-agent',
    'x-airtable-application-id',
    'x-airtable-user-agent',
    'x-api-version',
    'x-requested-with',
  ],
};

const rateLimited = () =>
  new ServiceError(429, 'RATE_LIMIT_REACHED', 'Rate limit exceeded. Please try again later');

function baseIdOf(params: unknown): string | undefined {
  const id = (params as { baseId?: unknown } | undefined)?.baseId;
  return typeof id === 'string' ? id : undefined;
}

const modelNotFound = () =>
  new ServiceError(
    403,
    'INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND',
    'Invalid permissions, or the requested model was not found. Check that both your user and your token have the required permissions, and that the model names and/or ids are correct.',
  );

export async function buildApp(service: Service, opts: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger,
    bodyLimit: opts.bodyLimit,
    routerOptions: { ignoreTrailingSlash: true, querystringParser: parseQueryString, maxParamLength: 1000 },
  });
  await app.register(cors, CORS);

  // Airtable.js sends `content-type: application/json` with no body on GET and DELETE: an empty body is none.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, parseJsonBody(String(body)));
    } catch (err) {
      done(err as ServiceError, undefined);
    }
  });

  // Bodies and queries are checked with zod schemas given in each route's `schema`.
  app.setValidatorCompiler(({ schema }) => (data) => {
    const r = (schema as ZodType).safeParse(data ?? {});
    if (r.success) return { value: r.data };
    const issue = r.error.issues[0];
    return {
      error: invalidRequest(
        `Invalid request: parameter validation failed. ${issue ? `${issue.path.join('.')}: ${issue.message}` : ''}`.trim(),
      ),
    };
  });

  app.setErrorHandler((error: FastifyError | ServiceError, req, reply) => {
    if (error instanceof ServiceError) return reply.status(error.status).send(error.body());
    const fe = error as FastifyError;
    if (fe.validation) return reply.status(422).send(invalidRequest().body());
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
      return reply
        .status(413)
        .send(
          new ServiceError(
            413,
            'REQUEST_TOO_LARGE',
            'The request exceeded the maximum allowed payload size',
          ).body(),
        );
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500)
      return reply
        .status(fe.statusCode)
        .send(new ServiceError(fe.statusCode, 'INVALID_REQUEST_UNKNOWN', fe.message).body());
    req.log.error(error);
    return reply
      .status(500)
      .send(new ServiceError(500, 'SERVER_ERROR', 'The server encountered an unexpected condition').body());
  });

  app.setNotFoundHandler((_req, reply) => reply.status(404).send(new ServiceError(404, null).body()));

  const limiter = opts.rateLimit === 'off' ? undefined : new RateLimiter(opts.rateLimit, opts.penaltyMs);
  const tokenLimiter =
    opts.tokenRateLimit === 'off' ? undefined : new RateLimiter(opts.tokenRateLimit, opts.penaltyMs);
  const quota = opts.monthlyCalls === 'off' ? undefined : new MonthlyQuota(opts.monthlyCalls);
  /** Both limits checked before either counts the request; a refusal by either is the service's 429. */
  const admit = (baseId: string | undefined, userId: string): boolean => {
    const now = Date.now();
    const baseOk = baseId === undefined || limiter === undefined || limiter.check(baseId, now);
    const userOk = tokenLimiter === undefined || tokenLimiter.check(userId, now);
    if (!baseOk || !userOk) return false;
    if (baseId !== undefined) limiter?.record(baseId, now);
    tokenLimiter?.record(userId, now);
    return true;
  };
  const users = new Users(opts.keys);
  const requestUsers = new WeakMap<FastifyRequest, User>();
  // Every route but OPTIONS runs after the hook below has admitted the request and noted its user.
  const userOf = (req: FastifyRequest): User => requestUsers.get(req)!;

  // Checked as soon as the request is routed (before its body is read), so the rate limit counts arrivals.
  // Every route with a base id answers the same refusal for a base that does not exist, whatever the id's shape.
  app.addHook('onRequest', async (req) => {
    if (opts.loopbackOnly && !loopbackHostAllowed(req.headers.host))
      throw new ServiceError(403, 'INVALID_HOST', 'This server answers only requests addressed to 127.0.0.1');
    // Attachment links carry their own signature instead of the key (see files/signing.ts).
    if (req.method === 'OPTIONS' || req.url.startsWith(FILES_PREFIX)) return;
    const user = users.byAuthorization(req.headers.authorization);
    if (!user) throw new ServiceError(401, 'AUTHENTICATION_REQUIRED', 'Authentication required');
    requestUsers.set(req, user);
    const baseId = baseIdOf(req.params);
    if (baseId !== undefined && !service.catalog.base(baseId)) throw modelNotFound();
    if (!admit(baseId, user.id)) throw rateLimited();
    // Counted once the rate allowed it; a call refused for the month is not counted again.
    if (baseId !== undefined && quota && !quota.admit(LOCAL_WORKSPACE_ID, Date.now()))
      throw quota.refusal(Date.now());
  });

  const knownBaseId = (params: unknown) => {
    const id = baseIdOf(params);
    return id !== undefined && service.catalog.base(id) ? id : undefined;
  };

  app.addHook('onSend', async (req, reply, payload) => {
    if (reply.statusCode === 429) {
      const now = Date.now();
      const user = requestUsers.get(req);
      const until = Math.max(
        limiter?.pausedUntil(knownBaseId(req.params) ?? '', now) ?? 0,
        (user && tokenLimiter?.pausedUntil(user.id, now)) ?? 0,
      );
      if (until > now) reply.header('retry-after', String(Math.ceil((until - now) / 1000)));
    }
    return payload;
  });

  if (opts.onRequest) {
    const listener = opts.onRequest;
    app.addHook('onResponse', async (req, reply) => {
      listener({
        method: req.method,
        url: req.url,
        baseId: knownBaseId(req.params),
        at: Date.now(),
        status: reply.statusCode,
      });
    });
  }

  registerRecordRoutes(app, service);
  registerCommentRoutes(app, service, userOf);
  registerMetaRoutes(app, service, userOf);
  if (opts.extensions) registerExtensionRoutes(app, service);
  registerFileRoutes(app, service, userOf);
  registerMirrorRoutes(app, service, userOf);
  registerWebhookRoutes(app, service);
  return app;
}
