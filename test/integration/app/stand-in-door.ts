/**
 * The browser door with its real services and embedded local server, serving a stand-in page (the door's
 * rules do not depend on what the renderer build contains), and the page's way of opening its socket.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { socketAddressFor } from '../../../core/contract/socket-bridge';
import { launchBrowserApp } from '../../../host/launch';
import type { BrowserApp } from '../../../host/launch';

export async function startStandInDoor(records: number, requestsPerSecond: number): Promise<BrowserApp> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'tabledesk-door-'));
  const rendererDir = await mkdtemp(join(tmpdir(), 'tabledesk-renderer-'));
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>TableDesk</title>');
  await writeFile(join(rendererDir, 'app.js'), 'console.log(1)');
  const app = await launchBrowserApp({
    userDataDir,
    rendererDir,
    embedded: { memory: true, largeTableRecords: records, rateLimit: 'off' },
    requestsPerSecond,
  });
  return {
    ...app,
    async close() {
      await app.close();
      for (const d of [userDataDir, rendererDir]) await rm(d, { recursive: true, force: true });
    },
  };
}

/** A socket opened as the door's page opens it (its origin, the token as a subprotocol). */
export function pageSocket(app: BrowserApp): WebSocket {
  const address = socketAddressFor(app.url);
  return new WebSocket(address.url, address.protocols, { origin: app.origin });
}
