/**
 * The edit services against the real local server on loopback, optionally through the fault proxy, with a
 * fresh user-data folder; it records every request the server saw and every event the services sent.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RecordTableClient } from '../../../core/api';
import type { ClientOptions, TableClient } from '../../../core/api';
import { afterEach } from 'vitest';
import type { z } from 'zod';
import { editChannels, editEvents } from '../../../core/contract/edits';
import { replaceChannels, replaceEvents } from '../../../core/contract/replace';
import type { EditEventName, EditEventPayload } from '../../../core/contract/edits';
import { READ_ONLY_FIELD_TYPES } from '../../../core/records/types';
import type { RecordData } from '../../../core/records/types';
import { startServer } from '../../../server/index';
import type { RunningServer, ServerOptions } from '../../../server/index';
import { createEditServices, journalDir } from '../../../services/edits';
import { ServiceError } from '../../../services/errors';
import type { EditServices, EditServicesOptions, Parts } from '../../../services/edits';
import type { EditTarget } from '../../../services/edits/types';
import { LOCK_FILE } from '../../../services/storage/folder-lock';
import { startFaultProxy } from '../../support/fault-proxy';
import type { FaultProxy } from '../../support/fault-proxy';

type EditChannels = typeof editChannels & typeof replaceChannels;

export interface SeenRequest {
  method: string;
  url: string;
  status: number;
}

export interface Harness {
  server: RunningServer;
  proxy?: FaultProxy;
  baseId: string;
  /** What the server answered, in order. */
  seen: SeenRequest[];
  events: { event: string; payload: unknown }[];
  services: EditServices;
  /** A channel call as the dispatcher makes it: the request parsed by its schema, the response checked by its own. */
  call<C extends keyof EditChannels>(
    channel: C,
    request: z.input<EditChannels[C]['request']>,
  ): Promise<z.output<EditChannels[C]['response']>>;
  parts: Parts;
  userDataDir: string;
  target(table: string): EditTarget;
  /** A separate, unthrottled client for reading back what the server holds. */
  reader(table: string): TableClient;
  /** The computed fields of a table, from its schema (what the grid passes along with a delete). */
  readOnlyFields(table: string): Promise<string[]>;
  /** Records of a table, by id. */
  snapshot(table: string): Promise<Map<string, RecordData>>;
  eventsOf<E extends EditEventName>(name: E): EditEventPayload<E>[];
  patches(): SeenRequest[];
  /** Stopped as a killed process is, without its shutdown: the OS lets go of its lock, nothing else happens. */
  kill(): Promise<void>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  server?: ServerOptions;
  proxy?: boolean;
  client?: Partial<ClientOptions>;
  queue?: EditServicesOptions['queue'];
  journalFiles?: EditServicesOptions['journalFiles'];
  /** A restart: new edit services on the same server and user-data folder as this harness. */
  restartOf?: Harness;
  /** The file name the user "picks" in the save dialog for every export (a stand-in for the door's dialog). */
  saveExportAs?: string;
}

export async function startHarness(opts: HarnessOptions = {}): Promise<Harness> {
  const seen: SeenRequest[] = opts.restartOf?.seen ?? [];
  const server =
    opts.restartOf?.server ??
    (await startServer({
      memory: true,
      demo: { largeTableRecords: 300 },
      rateLimit: 'off',
      ...opts.server,
      onRequest: (e) => seen.push({ method: e.method, url: e.url, status: e.status }),
    }));
  const proxy = opts.proxy ? await startFaultProxy(server.url) : undefined;
  const baseId = server.bases[0]!.id;
  const client = new RecordTableClient({
    baseUrl: proxy?.url ?? server.url,
    apiKey: server.apiKey,
    requestsPerSecond: 20,
    backoffBaseMs: 20,
    backoffMaxMs: 200,
    ...opts.client,
  });
  const readClient = new RecordTableClient({
    baseUrl: server.url,
    apiKey: server.apiKey,
    requestsPerSecond: 1000,
  });
  const userDataDir = opts.restartOf?.userDataDir ?? (await mkdtemp(join(tmpdir(), 'tabledesk-edits-')));
  const events: { event: string; payload: unknown }[] = [];
  const invalid: string[] = [];
  const services = createEditServices({
    userDataDir,
    tableFor: (t) => {
      // As the app's connections do for an id they no longer have.
      if (t.connectionId !== 'test') throw new ServiceError('not-found', `No connection ${t.connectionId}.`);
      return client.table(t.baseId, t.table);
    },
    emit: (event, payload) => {
      const checked = { ...editEvents, ...replaceEvents }[event].safeParse(payload);
      if (!checked.success) invalid.push(`${event}: ${checked.error.message}`);
      events.push({ event, payload });
    },
    queue: { retryBaseMs: 50, retryMaxMs: 400, ...opts.queue },
    ...(opts.saveExportAs === undefined
      ? {}
      : { exportDestination: async () => join(userDataDir, opts.saveExportAs!) }),
    journalFiles: opts.journalFiles,
  });
  const parts = await services.ready;
  const reader = (table: string) => readClient.table(baseId, table);
  return {
    server,
    proxy,
    baseId,
    seen,
    events,
    services,
    parts,
    userDataDir,
    async call(channel, request) {
      const channels = { ...editChannels, ...replaceChannels } as EditChannels;
      const parsed = channels[channel].request.parse(request);
      const handler = services.handlers[channel] as (r: unknown) => Promise<unknown>;
      return channels[channel].response.parse(await handler(parsed)) as never;
    },
    target: (table) => ({ connectionId: 'test', baseId, table }),
    reader,
    async readOnlyFields(table) {
      const tables = await readClient.meta.baseSchema(baseId);
      const schema = tables.find((t) => t.name === table);
      return (schema?.fields ?? []).filter((f) => READ_ONLY_FIELD_TYPES.has(f.type)).map((f) => f.name);
    },
    async snapshot(table) {
      return new Map((await reader(table).all()).map((r) => [r.id, r]));
    },
    eventsOf: <E extends EditEventName>(name: E) =>
      events.filter((e) => e.event === name).map((e) => e.payload as EditEventPayload<E>),
    patches: () => seen.filter((r) => r.method === 'PATCH'),
    kill: () => rm(join(journalDir(userDataDir), LOCK_FILE)),
    async close() {
      await services.close();
      await proxy?.close();
      // Every event the services sent must match its schema in the contract.
      if (invalid.length > 0) throw new Error(`Events outside the contract: ${invalid.join('; ')}`);
      if (opts.restartOf !== undefined) return;
      await server.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * startHarness for a file whose tests start several harnesses (restarts on the same folder among them): each
 * is closed after its test, the last started first.
 */
export function harnessPerTest(): (opts?: HarnessOptions) => Promise<Harness> {
  let open: Harness[] = [];
  afterEach(async () => {
    for (const h of open.reverse()) await h.close();
    open = [];
  });
  return async (opts = {}) => {
    const h = await startHarness(opts);
    open.push(h);
    return h;
  };
}
