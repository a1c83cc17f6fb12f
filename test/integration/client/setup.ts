/** Shared set-up of the client's integration tests: the real local server, a proxy, a fresh table. */
import { startServer } from '../../../server/index';
import type { RunningServer, ServerOptions } from '../../../server/index';
import { RecordTableClient } from '../../../core/api/index';
import type { ClientEvent, ClientOptions, NewField, TableClient } from '../../../core/api/index';
import { startFaultProxy } from '../../support/fault-proxy';
import type { FaultProxy } from '../../support/fault-proxy';

export interface ServerHit {
  method: string;
  url: string;
  at: number;
  status: number;
}

export interface Harness {
  server: RunningServer;
  proxy: FaultProxy;
  baseId: string;
  /** Requests as the server saw them (onRequest). */
  hits: ServerHit[];
  /** A client talking through the proxy; its events are collected in `events`. */
  client(opts?: Partial<ClientOptions>): RecordTableClient;
  events: ClientEvent[];
  close(): Promise<void>;
}

export const TEST_FIELDS: NewField[] = [
  { name: 'Name', type: 'singleLineText' },
  { name: 'Count', type: 'number', options: { precision: 0 } },
  { name: 'Done', type: 'checkbox', options: { icon: 'check', color: 'greenBright' } },
  { name: 'Notes', type: 'multilineText' },
];

export async function startHarness(opts: ServerOptions = {}): Promise<Harness> {
  const hits: ServerHit[] = [];
  const server = await startServer({
    memory: true,
    demo: { largeTableRecords: 1000 },
    ...opts,
    onRequest: (e) => hits.push({ method: e.method, url: e.url, at: e.at, status: e.status }),
  });
  const proxy = await startFaultProxy(server.url);
  const events: ClientEvent[] = [];
  const baseId = server.bases[0]?.id;
  if (baseId === undefined) throw new Error('the local server started without a base');
  return {
    server,
    proxy,
    baseId,
    hits,
    events,
    client: (o = {}) =>
      new RecordTableClient({
        baseUrl: proxy.url,
        apiKey: server.apiKey,
        onEvent: (e) => events.push(e),
        ...o,
      }),
    close: async () => {
      await proxy.close();
      await server.close();
    },
  };
}

let tableCount = 0;

/** A new table with TEST_FIELDS; its name has a slash, spaces and parentheses to exercise encoding. */
export async function freshTable(h: Harness, client: RecordTableClient, label = 'T'): Promise<TableClient> {
  const name = `${label}/run ${++tableCount} (${Date.now()})`;
  await client.meta.createTable(h.baseId, { name, fields: TEST_FIELDS });
  return client.table(h.baseId, name);
}

/**
 * How much closer than their starts two requests may arrive in front of the server. Client, proxy and server
 * share one busy test process, so a request can reach the proxy a few ms later than the next one does (a new
 * connection, a GC pause): seen as 198 ms between starts 203 ms apart, and 191 ms for 202 under a load
 * average of 17. Starts are checked at 200 ms exactly;
 * the server's own rate limit (zero 429s) checks arrivals as the service does.
 */
export const ARRIVAL_JITTER_MS = 15;

/** Smallest gap between two consecutive request arrivals at the server, for one base. */
export function minGapMs(hits: readonly { url: string; at: number }[], baseId: string): number {
  const times = hits
    .filter((x) => x.url.includes(`/${baseId}`))
    .map((x) => x.at)
    .sort((a, b) => a - b);
  let min = Infinity;
  for (let i = 1; i < times.length; i++) min = Math.min(min, (times[i] ?? 0) - (times[i - 1] ?? 0));
  return min;
}
