import type { Db } from './store/db';
import { openDatabase } from './store/db';
import { buildApp } from './http/app';
import { isLoopbackBind } from './http/host-check';
import { Service } from './service';
import { seedDemoBase } from './seed/demo';
import { installFormulas } from './filter/formulas';
import { randomBytes } from 'node:crypto';
import { LOCAL_USER } from './users';
import type { KeyUser } from './users';
import { DEFAULT_URL_TTL_MS } from './files/attachments';
import { publicOrigin } from './public-origin';
import { SettingError } from './errors';

/** How long close waits for requests in flight before cutting their connections. */
const CLOSE_GRACE_MS = 5_000;

export interface ServerOptions {
  /** 0 = a free port. */
  port?: number;
  host?: string;
  /**
   * The origin clients reach the server at, named in its file URLs (`https://tables.example`, a proxy in front
   * of it); its own listening origin when absent.
   */
  publicOrigin?: string;
  /** Generated when absent (see RunningServer.apiKey). */
  apiKey?: string;
  /** More keys, each for its own user (the server's own key acts for LOCAL_USER). */
  users?: readonly KeyUser[];
  /** Folder of the SQLite file; without it (or with `memory`) the database lives in memory. */
  dataDir?: string;
  memory?: boolean;
  /** Seed the demo base when the database has no base yet. */
  demo?: boolean | { largeTableRecords?: number; outsidePhotos?: boolean };
  /** Requests per second per base, or 'off'. Default 5. */
  rateLimit?: number | 'off';
  /**
   * Requests per second across every base for one user (each key is a user here), or 'off'. Default 50, as
   * Airtable's limit for one token's owner; off when `rateLimit` is.
   */
  tokenRateLimit?: number | 'off';
  /**
   * Calls a month per workspace (every base here is in one), as the hosted service's plans allow; past them a
   * 429 PUBLIC_API_BILLING_LIMIT_EXCEEDED until the month ends. Default off.
   */
  monthlyCalls?: number | 'off';
  /**
   * TableDesk's own wire extensions (`/_tabledesk/v1/`). Off, the server answers only Airtable's wire, as the
   * hosted service does (tests and benchmarks of the app's hosted behaviour). Default on.
   */
  extensions?: boolean;
  /** How long a base answers 429 after going over the limit. Default 30,000 ms. */
  penaltyMs?: number;
  /** Lifetime of a list offset. Default 600,000 ms. */
  offsetTtlMs?: number;
  /** Lifetime of an attachment URL. Default two hours, as Airtable's. */
  attachmentUrlTtlMs?: number;
  /** Largest accepted request body in bytes. Default 2 MiB. */
  bodyLimit?: number;
  logger?: boolean;
  onRequest?: (e: { method: string; url: string; baseId?: string; at: number; status: number }) => void;
}

export interface RunningServer {
  url: string;
  apiKey: string;
  bases: { id: string; name: string }[];
  close(): Promise<void>;
}

/** Starts the local Record Table Service in this process. */
export async function startServer(opts: ServerOptions = {}): Promise<RunningServer> {
  // An empty key would admit `Authorization: Bearer ` from anyone.
  if (opts.apiKey !== undefined && opts.apiKey.trim() === '') throw new SettingError('The API key is empty');
  const named = opts.publicOrigin === undefined ? undefined : publicOrigin(opts.publicOrigin);
  const db: Db = openDatabase({ dataDir: opts.dataDir, memory: opts.memory });
  const service = new Service(db, {
    offsetTtlMs: opts.offsetTtlMs ?? 600_000,
    dataDir: opts.memory ? undefined : opts.dataDir,
    attachmentUrlTtlMs: opts.attachmentUrlTtlMs ?? DEFAULT_URL_TTL_MS,
  });
  service.attachments.files.collect();
  installFormulas(service);
  if (opts.demo && service.catalog.listBases().length === 0) {
    seedDemoBase(service, typeof opts.demo === 'object' ? opts.demo : {});
  }
  const apiKey = opts.apiKey ?? `pat${randomBytes(24).toString('base64url')}`;
  if (opts.users?.some((u) => u.apiKey.trim() === '' || u.apiKey === apiKey))
    throw new SettingError('Every user needs a key of its own');
  const host = opts.host ?? '127.0.0.1';
  const app = await buildApp(service, {
    keys: [{ apiKey, user: LOCAL_USER }, ...(opts.users ?? [])],
    loopbackOnly: isLoopbackBind(host),
    rateLimit: opts.rateLimit ?? 5,
    tokenRateLimit: opts.tokenRateLimit ?? (opts.rateLimit === 'off' ? 'off' : 50),
    penaltyMs: opts.penaltyMs ?? 30_000,
    extensions: opts.extensions ?? true,
    monthlyCalls: opts.monthlyCalls ?? 'off',
    bodyLimit: opts.bodyLimit ?? 2 * 1024 * 1024,
    logger: opts.logger ?? false,
    onRequest: opts.onRequest,
  });
  try {
    await app.listen({ port: opts.port ?? 0, host });
  } catch (err) {
    db.close();
    service.attachments.files.close();
    throw err;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  service.attachments.origin = named ?? `http://${urlHost}:${port}`;
  return {
    url: `http://${urlHost}:${port}`,
    apiKey,
    get bases() {
      return service.catalog.listBases().map((b) => ({ id: b.id, name: b.name }));
    },
    close: async () => {
      // Node closes the sockets idle when close starts; one whose request is answered after that stays open
      // for its keep-alive (72 s), and one whose request never completes (headers that never end) for 60 s.
      // Idle ones are closed as they appear, and whatever is still busy after a grace period is cut (its
      // client sees a dropped connection, which every client here treats as retryable).
      const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
      const cut = setTimeout(() => app.server.closeAllConnections(), CLOSE_GRACE_MS);
      try {
        await app.close();
      } finally {
        clearInterval(sweep);
        clearTimeout(cut);
      }
      db.close();
      service.attachments.files.close();
    },
  };
}
