/**
 * The app behind its browser door for the offline-mirror spec, with a second local server playing the hosted
 * service (its own data folder and port, the service's rate limit), saved in the app as the "Hosted"
 * connection. The spec stops that server to be offline and starts it again on the same port and data, so the
 * app finds the service where it left it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RecordTableClient } from '../../core/api';
import type { RecordData } from '../../core/records/types';
import { startServer } from '../../server/index';
import type { RunningServer } from '../../server/index';
import { expect } from '@playwright/test';
import type { Locator } from '@playwright/test';
import { burst } from '../support/burst';
import type { AppPage } from './app-page';
import { launchTestDoor } from './door';
import type { TestDoor } from './door';

export const HOSTED_CONNECTION = 'Hosted';
const HOSTED_KEY = 'patHostedServiceKeyForTheMirrorSpec0000';

export interface MirrorDoor extends TestDoor {
  hosted: {
    baseId: string;
    /** Stops the hosted service: the app is offline from it. */
    stop(): Promise<void>;
    /** Starts it again on the same port and data folder. */
    start(): Promise<void>;
    records(table: string): Promise<RecordData[]>;
    update(table: string, id: string, fields: Record<string, unknown>): Promise<RecordData>;
    /** Spends the base's requests for this second from outside the app: the service's next answer is a 429. */
    exhaustRateLimit(): Promise<void>;
  };
}

/** The hosted connection's tables (from the home page, whatever tab is open), and its base's offline panel. */
export async function hostedTables(app: AppPage): Promise<{ tables: Locator; offline: Locator }> {
  await app.page.getByRole('tab', { name: '☰ Tables' }).click();
  await app.openConnection(HOSTED_CONNECTION);
  const tables = app.page.getByRole('region', { name: 'Tables' });
  return { tables, offline: tables.getByRole('region', { name: 'Offline copy' }) };
}

/** Makes Teams alone available offline (a single-table copy) and opens the copy. */
export async function openTeamsCopy(app: AppPage): Promise<void> {
  const { tables, offline } = await hostedTables(app);
  const teams = tables.getByRole('listitem').filter({ hasText: 'Teams' });
  const open = teams.getByRole('button', { name: 'Open offline', exact: true });
  if ((await open.count()) === 0) {
    await teams.getByRole('button', { name: 'Offline', exact: true }).click();
    await expect(offline).toContainText('Available offline', { timeout: 60_000 });
  }
  await open.click();
  await expect(app.table.getByTestId('mirror-badge')).toContainText('Offline copy');
  await expect(app.row(0)).toBeVisible();
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** `extensions: false`: the service is taken for the hosted one and metered (its calls in the status bar). */
export async function openMirrorDoor(options: { extensions?: boolean } = {}): Promise<MirrorDoor> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tabledesk-hosted-'));
  const port = await freePort();
  let running: RunningServer | undefined;
  const start = async () => {
    running = await startServer({
      port,
      dataDir,
      apiKey: HOSTED_KEY,
      // No photos on an outside host: a machine without internet could not copy their bytes.
      demo: { largeTableRecords: 2000, outsidePhotos: false },
      rateLimit: 5,
      ...(options.extensions === false ? { extensions: false } : {}),
      // Airtable's penalty is 30 s; 5 s keeps the spec's deliberate 429 short (the client waits its Retry-After).
      penaltyMs: 5000,
    });
  };
  await start();
  const baseId = running!.bases[0]!.id;
  const { app, ...door } = await launchTestDoor({ embedded: { rateLimit: 5, memory: true } });
  // The spec's own reads and writes take the app's throttle of the hosted base: a write made just before a
  // sync, on a throttle of its own, made six requests in one second with the sync's and drew a 429 (and the
  // service's 30 s penalty) in CI.
  const client = new RecordTableClient({
    baseUrl: running!.url,
    apiKey: HOSTED_KEY,
    schedulers: door.schedulers,
  });
  try {
    await app.services.handlers['connections.save']({
      name: HOSTED_CONNECTION,
      baseUrl: running!.url,
      apiKey: HOSTED_KEY,
      remember: true,
    });
  } catch (error) {
    await door.close();
    throw error;
  }
  return {
    ...door,
    hosted: {
      baseId,
      async stop() {
        await running?.close();
        running = undefined;
      },
      start,
      records: (table) => client.table(baseId, table).all(),
      update: (table, id, fields) => client.table(baseId, table).update(id, fields),
      async exhaustRateLimit() {
        const { statuses } = await burst(running!.url, HOSTED_KEY, `/v0/${baseId}/Tasks?pageSize=1`);
        if (!statuses.includes(429))
          throw new Error(`The service did not answer 429: ${statuses.join(', ')}`);
      },
    },
    async close() {
      await door.close();
      await running?.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
