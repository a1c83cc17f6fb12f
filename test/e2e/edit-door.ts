/**
 * The app behind its browser door for the editing specs: the embedded local server (rate limit on, a small
 * Tasks table) with every request it answers logged, and a fault-injecting proxy in front of it reached
 * through a second connection ("Through proxy"), so a spec can count requests or inject failures.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RecordTableClient } from '../../core/api';
import type { RecordData } from '../../core/records/types';
import { launchBrowserApp } from '../../host/launch';
import { startFaultProxy } from '../support/fault-proxy';
import type { FaultProxy } from '../support/fault-proxy';

export const PROXY_CONNECTION = 'Through proxy';

export interface ServerRequest {
  method: string;
  url: string;
  status: number;
  at: number;
}

export interface EditDoor {
  url: string;
  server: { url: string; apiKey: string; baseId: string };
  /** Every request the server answered, oldest first. */
  requests: ServerRequest[];
  proxy: FaultProxy;
  /** All records of a table as the server holds them now, read with the spec's own client. */
  records(table: string): Promise<RecordData[]>;
  close(): Promise<void>;
}

export async function openEditDoor(): Promise<EditDoor> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'tabledesk-edit-e2e-'));
  const requests: ServerRequest[] = [];
  const app = await launchBrowserApp({
    userDataDir,
    embedded: {
      // Each of the app's two connections (direct, through the proxy) paces itself at the hosted service's
      // 5 requests/s, and so do the specs' own reads: the server allows all three at once, so none of them
      // pushes the base over and pauses the others for 30 s.
      rateLimit: 15,
      memory: true,
      largeTableRecords: 300,
      onRequest: (e) => requests.push({ method: e.method, url: e.url, status: e.status, at: e.at }),
    },
  });
  const cleanup = async () => {
    await app.close();
    await rm(userDataDir, { recursive: true, force: true });
  };
  try {
    const server = await app.services.embedded;
    if (!server) throw new Error('The embedded server did not start');
    const base = server.bases.find((b) => b.name === 'TableDesk Demo') ?? server.bases[0];
    if (!base) throw new Error('The embedded server has no demo base');
    const proxy = await startFaultProxy(server.url);
    await app.services.handlers['connections.save']({
      name: PROXY_CONNECTION,
      baseUrl: proxy.url,
      apiKey: server.apiKey,
      remember: true,
    });
    // The specs read back with their own client (paced at 5 requests/s), straight from the server.
    const client = new RecordTableClient({ baseUrl: server.url, apiKey: server.apiKey });
    return {
      url: app.url,
      server: { url: server.url, apiKey: server.apiKey, baseId: base.id },
      requests,
      proxy,
      records: (table) => client.table(base.id, table).all(),
      async close() {
        await proxy.close();
        await cleanup();
      },
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}
