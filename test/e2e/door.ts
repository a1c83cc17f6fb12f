/**
 * The app behind its browser door, for the end-to-end tests and the app benchmark: services with the embedded
 * local server (demo base seeded, data in a temporary folder), serving the built renderer from out/renderer.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RecordTableClient, SchedulerRegistry } from '../../core/api';
import { launchBrowserApp } from '../../host/launch';
import { startFaultProxy } from '../support/fault-proxy';
import type { FaultProxy } from '../support/fault-proxy';
import type { BrowserApp, BrowserAppOptions } from '../../host/launch';

export interface TestDoor {
  /** The page address, with the door's token. */
  url: string;
  /** The embedded server: its address, its API key (which must never reach the renderer), the demo base. */
  server: { url: string; apiKey: string; baseId: string };
  /**
   * The app's throttles: a spec's own client to the embedded server takes them, so that its reads and the
   * app's requests keep to the server's 5 requests/s together (two throttles on one base draw 429s).
   */
  schedulers: SchedulerRegistry;
  /** A client of the embedded server for the spec's own reads and writes, paced by the app's throttles. */
  client: RecordTableClient;
  close(): Promise<void>;
}

/** With the server's rate limit off, the app's client need not pace itself either (benchmarks). */
const UNPACED_REQUESTS_PER_SECOND = 1000;

export async function openTestDoor(options: {
  rateLimit: number | 'off';
  /** Sees every request the embedded server answers (the app benchmark counts some). */
  onRequest?: (e: { method: string; url: string }) => void;
}): Promise<TestDoor> {
  return launchTestDoor({
    embedded: {
      rateLimit: options.rateLimit,
      memory: true,
      ...(options.onRequest ? { onRequest: options.onRequest } : {}),
    },
    ...(options.rateLimit === 'off' ? { requestsPerSecond: UNPACED_REQUESTS_PER_SECOND } : {}),
  });
}

/**
 * Launches the app with its data in a fresh temporary folder (removed on close) and finds the demo base of
 * its embedded server; the running app is returned too, for doors that set up more around it.
 */
export async function launchTestDoor(
  options: Omit<BrowserAppOptions, 'userDataDir'>,
): Promise<TestDoor & { app: BrowserApp }> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'tabledesk-e2e-'));
  const schedulers = options.schedulers ?? new SchedulerRegistry();
  const app = await launchBrowserApp({ ...options, schedulers, userDataDir });
  const close = async () => {
    await app.close();
    await rm(userDataDir, { recursive: true, force: true });
  };
  try {
    // Specs look for other people's changes when they mean to (HostedDoor.lookNow): a look at the app's
    // interval, in a door that outlives a spec, could take a fault a spec injected for its own request.
    await app.services.live.setInterval(0);
    const server = await app.services.embedded;
    if (!server) throw new Error('The embedded server did not start');
    const base = server.bases.find((b) => b.name === 'TableDesk Demo') ?? server.bases[0];
    if (!base) throw new Error('The embedded server has no demo base');
    return {
      url: app.url,
      server: { url: server.url, apiKey: server.apiKey, baseId: base.id },
      schedulers,
      client: new RecordTableClient({ baseUrl: server.url, apiKey: server.apiKey, schedulers }),
      app,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Launches the app as launchTestDoor does, with a fault proxy in front of its embedded server saved in the app
 * as a second connection named `name` (closed with the door).
 */
export async function launchProxiedDoor(
  options: Omit<BrowserAppOptions, 'userDataDir'>,
  name: string,
): Promise<TestDoor & { proxy: FaultProxy }> {
  const { app, ...door } = await launchTestDoor(options);
  let proxy: FaultProxy | undefined;
  try {
    proxy = await startFaultProxy(door.server.url);
    await app.services.handlers['connections.save']({
      name,
      baseUrl: proxy.url,
      apiKey: door.server.apiKey,
      remember: true,
    });
    const started = proxy;
    const close = async () => {
      await started.close();
      await door.close();
    };
    return { ...door, proxy, close };
  } catch (error) {
    await proxy?.close();
    await door.close();
    throw error;
  }
}
