/**
 * The app's services over a real embedded local server (in memory, on 127.0.0.1, port 0), driven through
 * the same dispatcher the doors use. Records the server's requests and the services' events.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  ChannelName,
  EventName,
  EventPayload,
  Request,
  Response,
  TableDeskApi,
} from '../../../core/contract';
import { createAppServices } from '../../../services/app';
import type { AppServices, AppServicesOptions } from '../../../services/app';
import type { EmbeddedServerOptions } from '../../../services/embedded-server';
import { createFileVault } from '../../../services/keys/file-vault';
import { behindProxy, startFaultProxy } from '../../support/fault-proxy';
import type { FaultProxy, FaultRule } from '../../support/fault-proxy';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';
import type { ServerOptions } from '../../../server/index';

export interface ServerRequest {
  method: string;
  url: string;
  status: number;
  at: number;
}

export interface Harness {
  services: AppServices;
  userDataDir: string;
  call<C extends ChannelName>(channel: C, request: Request<C>): Promise<Response<C>>;
  /** The same services as the renderer's api (`call` and `on`), what a door hands the page: for its models. */
  api: TableDeskApi;
  events: { event: EventName; payload: unknown }[];
  eventsOf<E extends EventName>(event: E): EventPayload<E>[];
  requests: ServerRequest[];
  /** List requests of one table, in the order the server answered them. */
  listRequests(table: string): ServerRequest[];
  demoBaseId(): Promise<string>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  embedded?: Omit<EmbeddedServerOptions, 'userDataDir' | 'vault' | 'onRequest'>;
  requestsPerSecond?: number;
  fetch?: AppServicesOptions['fetch'];
  exportDestination?: AppServicesOptions['exportDestination'];
  autoSyncMinuteMs?: number;
  journalFiles?: AppServicesOptions['journalFiles'];
  /** The edit queue's batching timing (a test that counts batches holds its window open). */
  editQueue?: AppServicesOptions['editQueue'];
  /** Runs on the fresh user-data folder before the services start (files an earlier run left). */
  prepare?: (userDataDir: string) => Promise<void>;
  /** How the key vault seals a key (default: as it is; tests make the OS refuse). */
  seal?: (plain: string) => Promise<string>;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'tabledesk-app-'));
  const requests: ServerRequest[] = [];
  await options.prepare?.(userDataDir);
  const services = createAppServices({
    userDataDir,
    vault: createFileVault(join(userDataDir, 'keys.json'), { seal: options.seal }),
    door: 'browser',
    version: 'test',
    embedded: {
      memory: true,
      largeTableRecords: 1050,
      rateLimit: 'off',
      ...options.embedded,
      onRequest: (e) => requests.push({ method: e.method, url: e.url, status: e.status, at: e.at }),
    },
    requestsPerSecond: options.requestsPerSecond ?? 50,
    fetch: options.fetch,
    exportDestination: options.exportDestination,
    ...(options.autoSyncMinuteMs === undefined ? {} : { autoSyncMinuteMs: options.autoSyncMinuteMs }),
    journalFiles: options.journalFiles,
    editQueue: options.editQueue,
  });
  const events: Harness['events'] = [];
  services.events.subscribe((event, payload) => events.push({ event, payload }));
  const call: Harness['call'] = async (channel, request) => {
    const result = await services.dispatch(channel, request);
    if (!result.ok) throw result.error;
    return result.response as never;
  };
  return {
    services,
    userDataDir,
    events,
    requests,
    call,
    api: {
      call: call as TableDeskApi['call'],
      on: (event, handler) =>
        services.events.subscribe((name: string, payload: unknown) => {
          if (name === event) handler(payload as Parameters<typeof handler>[0]);
        }),
    },
    eventsOf: (event) => events.filter((e) => e.event === event).map((e) => e.payload as never),
    listRequests: (table) =>
      requests.filter((r) => r.method === 'GET' && new URL(r.url, 'http://x').pathname.endsWith(`/${table}`)),
    async demoBaseId() {
      const server = await services.embedded!;
      return server.bases.find((b) => b.name === 'TableDesk Demo')!.id;
    },
    async close() {
      await services.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

/** A second connection to the embedded server, through a fault proxy with `rule` on its extension paths. */
async function proxiedConnection(
  h: Harness,
  name: string,
  rule: FaultRule,
): Promise<{ connectionId: string; proxy: FaultProxy }> {
  const server = (await h.services.embedded)!;
  const proxy = await startFaultProxy(server.url);
  proxy.inject(rule.fault, { ...rule, times: Infinity });
  const saved = await h.call('connections.save', { name, baseUrl: proxy.url, apiKey: server.apiKey });
  return { connectionId: saved.connection.id, proxy };
}

/**
 * A second connection to the embedded server through a fault proxy that answers the extensions' question as a
 * TableDesk server from before the `seek` extension would (it counts, and reads nothing where it is), so rows
 * far ahead come by a walk of the view's chain. Close the proxy when done.
 */
export function countOnlyConnection(h: Harness): Promise<{ connectionId: string; proxy: FaultProxy }> {
  return proxiedConnection(h, 'Count only', {
    fault: { type: 'replace-body', status: 200, body: '{"extensions":["count"]}' },
    match: (r) => r.path.startsWith('/_tabledesk/v1/extensions'),
  });
}

/**
 * A second connection to the embedded server through a fault proxy whose extension paths answer 404, as the
 * hosted service (Airtable) has none: the app counts, reads far rows and groups by walks. Close the proxy when
 * done.
 */
export function extensionlessConnection(h: Harness): Promise<{ connectionId: string; proxy: FaultProxy }> {
  return proxiedConnection(h, 'Hosted-like', {
    fault: { type: 'status', status: 404, body: '{"error":"NOT_FOUND"}' },
    match: (r) => r.path.startsWith('/_tabledesk/'),
  });
}

/** A local server playing the hosted service, the fault proxy in front of it, and the app connected through it. */
export interface HostedHarness {
  hosted: LocalServer;
  proxy: FaultProxy;
  h: Harness;
  connectionId: string;
}

/**
 * The app against a local server playing the hosted service: its extensions off, so the app counts, seeks and
 * looks by walks as it does on Airtable, and the fault proxy in front of it to count or fault its calls.
 * Close the three when done.
 */
export async function startHostedHarness(serverOptions: ServerOptions = {}): Promise<HostedHarness> {
  const { server: hosted, proxy } = await behindProxy((publicOrigin) =>
    startLocalServer({ ...serverOptions, extensions: false, publicOrigin }),
  );
  return { hosted, proxy, ...(await startHostedApp(hosted, proxy)) };
}

/** A fresh app with the hosted service (reached through `proxy`) saved as its "Hosted" connection. */
export async function startHostedApp(
  hosted: LocalServer,
  proxy: FaultProxy,
): Promise<{ h: Harness; connectionId: string }> {
  const h = await startHarness();
  const { connection } = await h.call('connections.save', {
    name: 'Hosted',
    baseUrl: proxy.url,
    apiKey: hosted.apiKey,
    remember: true,
  });
  return { h, connectionId: connection.id };
}
