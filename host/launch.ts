/** The whole app behind the browser door: services (with the embedded server) plus the door itself. */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, posix, win32 } from 'node:path';
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
  editQueue?: AppServicesOptions['editQueue'];
}

export interface BrowserApp extends RunningDoor {
  services: AppServices;
}

function packageJson(): { name: string; productName?: string; version: string } {
  return JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    name: string;
    productName?: string;
    version: string;
  };
}

/**
 * The folder Electron gives the app as userData: its appData folder, then the app's name (package.json's
 * productName, else its name). The browser door uses the same, so after a fallback from the desktop app the
 * saved connections, keys and the journal of unsent edits are all there.
 */
export function defaultUserDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  const pkg = packageJson();
  const name = pkg.productName ?? pkg.name;
  if (platform === 'win32') return win32.join(env.APPDATA ?? win32.join(home, 'AppData', 'Roaming'), name);
  if (platform === 'darwin') return posix.join(home, 'Library', 'Application Support', name);
  return posix.join(env.XDG_CONFIG_HOME || posix.join(home, '.config'), name);
}

export async function launchBrowserApp(options: BrowserAppOptions): Promise<BrowserApp> {
  const services = createAppServices({
    userDataDir: options.userDataDir,
    // The browser door's keys: a file only this user can read (mode 0600).
    vault: createFileVault(join(options.userDataDir, 'keys.json')),
    door: 'browser',
    version: packageJson().version,
    embedded: options.embedded,
    requestsPerSecond: options.requestsPerSecond,
    schedulers: options.schedulers,
    editQueue: options.editQueue,
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
