/**
 * `npm start`'s Electron step (host/electron-binary.ts, host/start.ts) with Electron's real installer, run on
 * a copy of the electron package against a local mirror (ELECTRON_MIRROR): a download that succeeds, one
 * that fails with the reason on one line, the skip switch, and the fallback to the browser door end to end.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { crc32 } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { afterElectron, findElectron, installerReason } from '../../../host/electron-binary';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const realPackage = join(root, 'node_modules/electron');
const { version } = (await import('../../../node_modules/electron/package.json', { with: { type: 'json' } }))
  .default as { version: string };
const artifact = `electron-v${version}-${process.platform}-${process.arch}.zip`;
const binaryPath =
  process.platform === 'win32'
    ? 'electron.exe'
    : process.platform === 'darwin'
      ? 'Electron.app/Contents/MacOS/Electron'
      : 'electron';
const DOOR = 'opening the browser door instead.';

/** A zip archive of files stored uncompressed, the smallest the installer's extractor accepts. */
function storedZip(files: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(files)) {
    const data = Buffer.from(text);
    const nameBytes = Buffer.from(name);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(0x031e, 4); // made on Unix, so the external attributes carry the file mode
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE((0o100755 << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The environment without any Electron download setting of this machine or of npm, plus `extra`. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^(electron_|npm_config_electron|npm_package_config_electron|force_no_cache)/i.test(name),
    ),
  );
  return { ...env, ELECTRON_GET_NO_PROGRESS: '1', ...extra };
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/** A port nothing listens on: one the system just handed out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await listen(server);
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("npm start's Electron binary", () => {
  let dir: string;
  let packageDir: string;
  let mirror: Server | undefined;
  const requested: string[] = [];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tabledesk-electron-'));
    // The installer and its manifest, beside the real @electron packages it requires.
    packageDir = join(dir, 'node_modules/electron');
    mkdirSync(packageDir, { recursive: true });
    for (const file of ['install.js', 'package.json', 'checksums.json'])
      copyFileSync(join(realPackage, file), join(packageDir, file));
    for (const scope of ['@electron', '@electron-internal'])
      symlinkSync(join(root, 'node_modules', scope), join(dir, 'node_modules', scope), 'dir');
    requested.length = 0;
  });
  /** A local ELECTRON_MIRROR that records what was asked of it; returns its address. */
  function serveMirror(answer: (response: ServerResponse) => void): Promise<string> {
    mirror = createServer((request, response) => {
      requested.push(request.url ?? '');
      answer(response);
    });
    return listen(mirror);
  }

  /** An installed binary, as the installer leaves it. */
  function placeBinary(mode: number, text = ''): void {
    writeFileSync(join(packageDir, 'path.txt'), binaryPath);
    mkdirSync(join(packageDir, 'dist', binaryPath, '..'), { recursive: true });
    writeFileSync(join(packageDir, 'dist', binaryPath), text, { mode });
  }

  afterEach(async () => {
    if (mirror) await new Promise((resolve) => mirror?.close(resolve));
    mirror = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it('downloads a missing binary from ELECTRON_MIRROR, checked against the checksums, and finds it', async () => {
    const zip = storedZip({ [binaryPath]: '#!/bin/sh\n', version: `v${version}` });
    writeFileSync(
      join(packageDir, 'checksums.json'),
      JSON.stringify({ [artifact]: createHash('sha256').update(zip).digest('hex') }),
    );
    const base = await serveMirror((response) => response.end(zip));

    const launch = await findElectron(packageDir, {
      env: cleanEnv({ ELECTRON_MIRROR: base, electron_config_cache: join(dir, 'cache') }),
    });
    expect(launch).toEqual({ binary: join(packageDir, 'dist', binaryPath) });
    expect(requested).toEqual([`/v${version}/${artifact}`]);
    expect(existsSync(join(packageDir, 'path.txt'))).toBe(true);
  });

  it('refuses a download whose checksum does not match, and says so', async () => {
    const base = await serveMirror((response) =>
      response.end(storedZip({ [binaryPath]: 'not the real thing' })),
    );
    const launch = await findElectron(packageDir, {
      env: cleanEnv({ ELECTRON_MIRROR: base, electron_config_cache: join(dir, 'cache') }),
    });
    expect(launch).toEqual({
      fallback: expect.stringMatching(
        /^Electron's binary could not be downloaded \(.*checksum.*\): opening the browser door instead\.$/i,
      ),
    });
    expect(existsSync(join(packageDir, 'dist', binaryPath))).toBe(false);
  });

  it('gives the network failure as the reason in one line', async () => {
    const port = await closedPort();
    const launch = await findElectron(packageDir, {
      env: cleanEnv({
        ELECTRON_MIRROR: `http://127.0.0.1:${port}/`,
        electron_config_cache: join(dir, 'cache'),
      }),
    });
    expect(launch).toEqual({
      fallback: `Electron's binary could not be downloaded (connect ECONNREFUSED 127.0.0.1:${port}): ${DOOR}`,
    });
  });

  it('gives an HTTP failure with its status and address', async () => {
    const base = await serveMirror((response) => response.writeHead(404).end());
    const launch = await findElectron(packageDir, {
      env: cleanEnv({ ELECTRON_MIRROR: base, electron_config_cache: join(dir, 'cache') }),
    });
    expect(launch).toEqual({
      fallback: `Electron's binary could not be downloaded (Response code 404 (Not Found) for ${base}v${version}/${artifact}): ${DOOR}`,
    });
  });

  it('does not try with TABLEDESK_SKIP_ELECTRON_DOWNLOAD=1, and says so', async () => {
    const base = await serveMirror((response) => response.writeHead(404).end());
    const launch = await findElectron(packageDir, {
      env: cleanEnv({ ELECTRON_MIRROR: base, TABLEDESK_SKIP_ELECTRON_DOWNLOAD: '1' }),
    });
    expect(launch).toEqual({
      fallback: `Electron's binary is not installed and TABLEDESK_SKIP_ELECTRON_DOWNLOAD is set, so it was not downloaded: ${DOOR}`,
    });
    expect(requested).toEqual([]);
  });

  it('still downloads with ELECTRON_SKIP_BINARY_DOWNLOAD=1, which electron@42+ no longer reads', async () => {
    const base = await serveMirror((response) => response.writeHead(404).end());
    const launch = await findElectron(packageDir, {
      env: cleanEnv({
        ELECTRON_MIRROR: base,
        ELECTRON_SKIP_BINARY_DOWNLOAD: '1',
        electron_config_cache: join(dir, 'cache'),
      }),
    });
    expect(requested).toEqual([`/v${version}/${artifact}`]);
    expect(launch).toEqual({ fallback: expect.stringContaining('Response code 404 (Not Found)') });
  });

  it('after Electron stops: a signal or an error during start-up opens the door, later ones end npm start with them', () => {
    expect(afterElectron(null, 'SIGTRAP', 500, 10_000)).toEqual({
      door: `Electron stopped as it started (signal SIGTRAP, its message is above): ${DOOR}`,
    });
    expect(afterElectron(1, null, 500, 10_000)).toEqual({
      door: `Electron stopped as it started (exit code 1, its message is above): ${DOOR}`,
    });
    expect(afterElectron(0, null, 500, 10_000)).toEqual({ exitCode: 0 });
    expect(afterElectron(null, 'SIGSEGV', 60_000, 10_000)).toEqual({ exitCode: 139 });
    expect(afterElectron(2, null, 60_000, 10_000)).toEqual({ exitCode: 2 });
  });

  it('uses an installed binary without running the installer', async () => {
    placeBinary(0o755);
    const launch = await findElectron(packageDir, {
      env: cleanEnv({ ELECTRON_MIRROR: 'http://127.0.0.1:9/' }),
    });
    expect(launch).toEqual({ binary: join(packageDir, 'dist', binaryPath) });
  });

  it('says a download is under way when it takes a while', async () => {
    const base = await serveMirror((response) => setTimeout(() => response.writeHead(404).end(), 300));
    let notices = 0;
    const launch = await findElectron(packageDir, {
      env: cleanEnv({ ELECTRON_MIRROR: base, electron_config_cache: join(dir, 'cache') }),
      onSlowDownload: () => notices++,
      slowAfterMs: 100,
    });
    expect(notices).toBe(1);
    expect(launch).toEqual({ fallback: expect.stringContaining('Response code 404 (Not Found)') });
  });

  it('says when the electron package itself is missing', async () => {
    const missing = join(dir, 'node_modules/no-electron');
    expect(await findElectron(missing, { env: cleanEnv({}) })).toEqual({
      fallback: `Electron is not installed (no ${missing}; were dev dependencies left out?): ${DOOR}`,
    });
  });

  it('uses ELECTRON_OVERRIDE_DIST_PATH as electron does, and never downloads into it', async () => {
    const override = join(dir, 'elsewhere');
    mkdirSync(override);
    const env = cleanEnv({ ELECTRON_OVERRIDE_DIST_PATH: override, ELECTRON_MIRROR: 'http://127.0.0.1:9/' });
    expect(await findElectron(packageDir, { env })).toEqual({
      fallback: `ELECTRON_OVERRIDE_DIST_PATH (${override}) holds no Electron binary: ${DOOR}`,
    });
    writeFileSync(join(override, 'electron'), '');
    expect(await findElectron(packageDir, { env })).toEqual({ binary: join(override, 'electron') });
  });

  it('reads the reason from the stack the installer prints', () => {
    expect(installerReason('TypeError: fetch failed\n    at x (y.js:1:1)\n', 1)).toBe('fetch failed');
    expect(
      installerReason('/a/install.js:9\n  throw e\n  ^\n\nError: not available on platform: aix\n', 1),
    ).toBe('not available on platform: aix');
    expect(installerReason('Killed\n', 137)).toBe('Killed');
    expect(installerReason('', 3)).toBe('the installer exited with code 3');
  });

  /** Runs `npm start`'s entry on the package copy until the browser door reports its address. */
  async function startUntilDoorOpens(env: Record<string, string>) {
    // The door serves the built renderer, which `npm start` builds first.
    if (!existsSync(join(root, 'out/renderer/index.html')))
      execFileSync('npm', ['run', 'build:renderer'], { cwd: root, stdio: 'ignore' });
    const start = spawn(
      process.execPath,
      ['--import', 'tsx', join(root, 'host/start.ts'), '--port', '0', '--data', join(dir, 'user-data')],
      {
        cwd: root,
        env: cleanEnv({
          TABLEDESK_ELECTRON_DIR: packageDir,
          electron_config_cache: join(dir, 'cache'),
          ...env,
        }),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    start.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => start.once('exit', resolve));
    const lines: string[] = [];
    const url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: start.stdout }).on('line', (line) => {
        lines.push(line);
        const match = /^TableDesk is open at (\S+)$/.exec(line);
        if (match) resolve(match[1] as string);
      });
      void exited.then((code) =>
        reject(new Error(`npm start exited (${code}): ${lines.join('\n')}\n${stderr}`)),
      );
    });
    const page = await fetch(url);
    return {
      lines,
      url,
      page: { status: page.status, text: await page.text() },
      async stop() {
        start.kill('SIGTERM');
        return { code: await exited, stderr };
      },
    };
  }

  it('npm start says why in one line and opens the browser door', async () => {
    const port = await closedPort();
    const start = await startUntilDoorOpens({ ELECTRON_MIRROR: `http://127.0.0.1:${port}/` });
    expect(start.lines).toEqual([
      `Electron's binary could not be downloaded (connect ECONNREFUSED 127.0.0.1:${port}): ${DOOR}`,
      `TableDesk is open at ${start.url}`,
    ]);
    expect(start.page.status).toBe(200);
    expect(start.page.text).toContain('<div id="root">');
    expect(await start.stop()).toEqual({ code: 0, stderr: '' });
  });

  it('npm start opens the browser door when the binary it found cannot run', async () => {
    placeBinary(0o644);
    const start = await startUntilDoorOpens({});
    expect(start.lines).toEqual([
      expect.stringMatching(
        /^Electron could not be started \(spawn .* EACCES\): opening the browser door instead\.$/,
      ),
      `TableDesk is open at ${start.url}`,
    ]);
    expect(start.page.status).toBe(200);
    expect(await start.stop()).toEqual({ code: 0, stderr: '' });
  });

  it('npm start opens the door when Electron is killed by a signal as it starts (Linux: no sandbox helper)', async () => {
    placeBinary(0o755, '#!/bin/sh\necho "Trace/breakpoint trap" >&2\nkill -TRAP $$\n');
    const start = await startUntilDoorOpens({});
    expect(start.lines).toEqual([
      `Electron stopped as it started (signal SIGTRAP, its message is above): ${DOOR}`,
      `TableDesk is open at ${start.url}`,
    ]);
    expect(start.page.status).toBe(200);
    expect(await start.stop()).toEqual({ code: 0, stderr: 'Trace/breakpoint trap\n' });
  });

  it('npm start runs Electron on the app with its Node, and opens the door when Electron stops as it starts', async () => {
    // Says what it was given (the app folder, the Node for the demo server), then fails as Electron does
    // where Linux's sandbox helper is not set up.
    placeBinary(0o755, '#!/bin/sh\necho "$1 $TABLEDESK_NODE" >&2\necho "FATAL: sandbox" >&2\nexit 1\n');
    const start = await startUntilDoorOpens({});
    expect(start.lines).toEqual([
      `Electron stopped as it started (exit code 1, its message is above): ${DOOR}`,
      `TableDesk is open at ${start.url}`,
    ]);
    expect(start.page.status).toBe(200);
    expect(await start.stop()).toEqual({
      code: 0,
      stderr: `${root} ${process.execPath}\nFATAL: sandbox\n`,
    });
  });
});
