/** The whole app behind the browser door: services (with the embedded server) plus the door itself. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAppServices } from '../services/app';
import type { AppServices, AppServicesOptions } from '../services/app';
import { createFileVault } from '../services/keys/file-vault';
import { startDoor } from './door';
import type { RunningDoor } from './door';

export const DEFAULT_RENDERER_DIR = fileURLToPath(new URL('../out/renderer', import.meta.url));

export interface BrowserAppOptions {
  userDataDir: string;
  rendererDir?: string;
  port?: number;
  embedded?: AppServicesOptions['embedded'];
  requestsPerSecond?: number;
  schedulers?: AppServicesOptions['schedulers'];
}

export interface BrowserApp extends RunningDoor {
  services: AppServices;
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

export async function launchBrowserApp(options: BrowserAppOptions): Promise<BrowserApp> {
  const services = createAppServices({
    userDataDir: options.userDataDir,
    // The browser door's keys: a file only this user can read (mode 0600).
    vault: createFileVault(join(options.userDataDir, 'keys.json')),
    door: 'browser',
    version: version(),
    embedded: options.embedded,
    requestsPerSecond: options.requestsPerSecond,
    schedulers: options.schedulers,
  });
  try {
    await services.ready;
    const door = await startDoor({
      dispatch: services.dispatch,
      events: services.events,
      rendererDir: options.rendererDir ?? DEFAULT_RENDERER_DIR,
      port: options.port,
    });
    return {
      ...door,
      services,
      async close() {
        await door.close();
        await services.close();
      },
    };
  } catch (error) {
    await services.close();
    throw error;
  }
}
