/**
 * `npm start`, after the build: opens the Electron app, downloading Electron's binary on the first start.
 * Where there is no binary to be had, says why in one line and opens the browser door instead (its options,
 * such as --port and --data, go after `--`).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterElectron, findElectron } from './electron-binary';

const root = fileURLToPath(new URL('..', import.meta.url));
/** An Electron that fails within this time failed to start, rather than stopping after use. */
const STARTUP_MS = 10_000;

async function openBrowserDoor(line: string): Promise<void> {
  console.log(line);
  await import('./main');
}

const launch = await findElectron(
  // TABLEDESK_ELECTRON_DIR points tests at a copy of the electron package, so they never open a real window.
  process.env.TABLEDESK_ELECTRON_DIR ?? join(root, 'node_modules/electron'),
  { onSlowDownload: () => console.log("Downloading Electron's binary (about 100 MB, first start only)…") },
);
if ('fallback' in launch) {
  await openBrowserDoor(launch.fallback);
} else {
  // The unpacked app runs its demo server on this Node: better-sqlite3 is built for it, not for Electron.
  const child = spawn(launch.binary, [root], {
    stdio: 'inherit',
    env: { ...process.env, TABLEDESK_NODE: process.execPath },
  });
  let failed = false;
  child.once('error', (error) => {
    failed = true;
    void openBrowserDoor(
      `Electron could not be started (${error.message}): opening the browser door instead.`,
    );
  });
  const spawnedAt = Date.now();
  child.once('exit', (code, signal) => {
    if (failed) return;
    const next = afterElectron(code, signal, Date.now() - spawnedAt, STARTUP_MS);
    if ('door' in next) void openBrowserDoor(next.door);
    else process.exit(next.exitCode);
  });
}
