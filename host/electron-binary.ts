/**
 * Finds Electron's binary for `npm start`, running Electron's own installer when it is missing: electron@45
 * downloads its binary on first run, not at `npm install`. The installer (@electron/get, checked against the
 * package's checksums) honours the usual environment: ELECTRON_MIRROR, electron_config_cache, proxies.
 * When there is no binary to be had, the result is the one line to print before opening the browser door.
 * TABLEDESK_SKIP_ELECTRON_DOWNLOAD is the opt-out: ELECTRON_SKIP_BINARY_DOWNLOAD is not read, since
 * electron@42 and later ignore it and a machine that still sets it would never get the desktop app.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type ElectronLaunch = { binary: string } | { fallback: string };

export interface FindElectronOptions {
  env?: NodeJS.ProcessEnv;
  /** Called once if the download is still running after `slowAfterMs` (a real one takes a while). */
  onSlowDownload?: () => void;
  slowAfterMs?: number;
}

const DOOR = 'opening the browser door instead.';
// A file URL: `--import` takes no Windows path.
const FETCH_CAUSE = new URL('fetch-cause.mjs', import.meta.url).href;

/** The binary electron's own launcher would run, found without letting it try a download. */
function installedBinary(packageDir: string, env: NodeJS.ProcessEnv): string | undefined {
  const pathFile = join(packageDir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : undefined;
  const override = env.ELECTRON_OVERRIDE_DIST_PATH;
  // As electron's launcher: an override folder needs no path.txt (the binary is then `electron`).
  if (relative === undefined && !override) return undefined;
  const binary = join(override || join(packageDir, 'dist'), relative ?? 'electron');
  return existsSync(binary) ? binary : undefined;
}

/** Set the way npm settings are: any value but empty, 0 and false. */
function isSet(value: string | undefined): boolean {
  return value !== undefined && !['', '0', 'false'].includes(value.trim().toLowerCase());
}

/** The installer prints the failure's stack: its `Name: message` line says why, else its last line does. */
export function installerReason(stderr: string, exitCode: number | null): string {
  const lines = stderr.split(/\r?\n/).map((line) => line.trim());
  const errorLine = lines.map((line) => /^[A-Za-z]*Error: (.+)$/.exec(line)).find((match) => match !== null);
  if (errorLine) return errorLine[1] as string;
  return lines.filter((line) => line.length > 0).at(-1) ?? `the installer exited with code ${exitCode}`;
}

function runInstaller(
  packageDir: string,
  options: FindElectronOptions,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', FETCH_CAUSE, join(packageDir, 'install.js')], {
      env: options.env,
      // stdout stays quiet on success; a progress bar would need a terminal, and stderr is read for the reason.
      stdio: ['ignore', 'ignore', 'pipe'],
      windowsHide: true,
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const slow = setTimeout(() => options.onSlowDownload?.(), options.slowAfterMs ?? 2000);
    child.once('error', (error) => {
      clearTimeout(slow);
      resolve({ ok: false, reason: error.message });
    });
    child.once('close', (code) => {
      clearTimeout(slow);
      resolve(code === 0 ? { ok: true } : { ok: false, reason: installerReason(stderr, code) });
    });
  });
}

export async function findElectron(
  packageDir: string,
  options: FindElectronOptions = {},
): Promise<ElectronLaunch> {
  const env = options.env ?? process.env;
  const installed = installedBinary(packageDir, env);
  if (installed !== undefined) return { binary: installed };
  if (!existsSync(join(packageDir, 'install.js')))
    return {
      fallback: `Electron is not installed (no ${packageDir}; were dev dependencies left out?): ${DOOR}`,
    };
  // Electron's launcher does not download either when pointed at a binary elsewhere.
  if (env.ELECTRON_OVERRIDE_DIST_PATH)
    return {
      fallback: `ELECTRON_OVERRIDE_DIST_PATH (${env.ELECTRON_OVERRIDE_DIST_PATH}) holds no Electron binary: ${DOOR}`,
    };
  if (isSet(env.TABLEDESK_SKIP_ELECTRON_DOWNLOAD))
    return {
      fallback: `Electron's binary is not installed and TABLEDESK_SKIP_ELECTRON_DOWNLOAD is set, so it was not downloaded: ${DOOR}`,
    };

  const result = await runInstaller(packageDir, { ...options, env });
  if (!result.ok)
    return { fallback: `Electron's binary could not be downloaded (${result.reason}): ${DOOR}` };
  const binary = installedBinary(packageDir, env);
  return binary !== undefined
    ? { binary }
    : {
        fallback: `Electron's installer finished but left no binary in ${join(packageDir, 'dist')}: ${DOOR}`,
      };
}

/**
 * What `npm start` does once Electron has stopped: an Electron that stops within `startupMs` with an error or
 * a signal could not start (Linux: the sandbox helper not set up ends it with SIGTRAP, no display with SIGSEGV
 * or SIGABRT), and the browser door opens instead; otherwise npm start ends with Electron's status, a signal
 * as the shell reports it (128 + its number).
 */
export function afterElectron(
  code: number | null,
  signal: NodeJS.Signals | null,
  ranMs: number,
  startupMs: number,
): { door: string } | { exitCode: number } {
  const failed = signal !== null || (code !== null && code !== 0);
  if (failed && ranMs < startupMs) {
    const how = signal !== null ? `signal ${signal}` : `exit code ${code}`;
    return { door: `Electron stopped as it started (${how}, its message is above): ${DOOR}` };
  }
  if (signal !== null) return { exitCode: 128 + (constants.signals[signal] ?? 0) };
  return { exitCode: code ?? 0 };
}
