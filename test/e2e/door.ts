/**
 * The app behind its browser door, for the end-to-end tests and the app benchmark: services with the embedded
 * local server (demo base seeded, data in a temporary folder), serving the built renderer from out/renderer.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchBrowserApp } from '../../host/launch';

export interface TestDoor {
  /** The page address, with the door's token. */
  url: string;
  origin: string;
  /** The embedded server: its address, its API key (which must never reach the renderer), the demo base. */
  server: { url: string; apiKey: string; baseId: string };
  close(): Promise<void>;
}

/** With the server's rate limit off, the app's client need not pace itself either (benchmarks). */
const UNPACED_REQUESTS_PER_SECOND = 1000;

export async function openTestDoor(options: { rateLimit: number | 'off' }): Promise<TestDoor> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'tabledesk-e2e-'));
  const app = await launchBrowserApp({
    userDataDir,
    embedded: { rateLimit: options.rateLimit, memory: true },
    ...(options.rateLimit === 'off' ? { requestsPerSecond: UNPACED_REQUESTS_PER_SECOND } : {}),
  });
  try {
    const server = await app.services.embedded;
    if (!server) throw new Error('The embedded server did not start');
    const base = server.bases.find((b) => b.name === 'TableDesk Demo') ?? server.bases[0];
    if (!base) throw new Error('The embedded server has no demo base');
    return {
      url: app.url,
      origin: app.origin,
      server: { url: server.url, apiKey: server.apiKey, baseId: base.id },
      async close() {
        await app.close();
        await rm(userDataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await app.close();
    await rm(userDataDir, { recursive: true, force: true });
    throw error;
  }
}
