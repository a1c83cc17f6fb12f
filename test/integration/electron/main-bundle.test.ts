/**
 * The desktop app as Electron loads it: `npm run build:electron`, the packaged layout (production
 * dependencies only), the main bundle run by Node's own ES module loader with the Electron stand-in, and the
 * preload loaded as a sandboxed preload is (one CommonJS script, `require` limited to electron, events,
 * timers and url). Vite, Vitest and tsc resolve imports that Node does not; only this check sees the bundle
 * the way the app's users will.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startEmbeddedServer } from '../../../services/embedded-server';
import { startWorkerServer } from '../../../services/embedded-server/worker-runner';
import { createFileVault } from '../../../services/keys/file-vault';
import { penaltyOfABurst } from '../../support/burst';
import { buildElectron, layOut, productionPackages, root, runMain } from './layout';
import type { RunningMain } from './layout';

interface State {
  log: string[];
  schemes: { scheme: string; privileges: Record<string, boolean> }[];
  protocols: string[];
  ipcChannels: string[];
  handlers: Record<string, boolean>;
  menu: { role?: string; label?: string; accelerator?: string; submenu?: State['menu'] }[] | null;
  exitCode?: number;
  dialogs: number;
  dialogMessages: string[];
  openDialogs: string[];
  themeListeners: number;
  windows: {
    options: { webPreferences: Record<string, unknown> };
    url: string;
    visible: boolean;
    maximized: boolean;
    minimized: boolean;
    focused: boolean;
    calls: string[];
  }[];
  eventLoopMaxDelayMs: number;
}

const REFUSED = {
  ok: false,
  error: { kind: 'invalid-request', message: 'Refused: the call did not come from the TableDesk window.' },
};

let dir: string;
let entry: string;
let userData: string;
let main: RunningMain | undefined;

beforeAll(async () => {
  buildElectron();
  dir = await mkdtemp(join(tmpdir(), 'tabledesk-bundle-'));
  entry = layOut(join(dir, 'app'));
  userData = join(dir, 'user-data');
  mkdirSync(userData);
}, 120_000);
afterEach(async () => {
  await main?.stop();
  main = undefined;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function start(platform?: NodeJS.Platform): Promise<RunningMain> {
  main = await runMain(entry, userData, platform);
  return main;
}

async function until(main: RunningMain, done: (state: State) => boolean, ms = 30_000): Promise<State> {
  const end = Date.now() + ms;
  for (;;) {
    const state = await main.send<State>({ do: 'state' });
    if (done(state) || Date.now() > end) return state;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const windowOpen = (state: State): boolean =>
  state.windows[0]?.url !== undefined && state.windows[0].url !== '';

/** Binds the preload and makes an edit to a service nothing answers: the edit stays owed. */
async function oweAnEdit(app: RunningMain): Promise<void> {
  await app.send({ do: 'preload', path: join(entry, '../out/preload/index.cjs') });
  const saved = await app.send<{ ok: boolean; response: { connection: { id: string } } }>({
    do: 'call',
    channel: 'connections.save',
    request: { name: 'Away', baseUrl: 'http://127.0.0.1:9', apiKey: 'patAWAY', remember: false },
  });
  const target = { connectionId: saved.response.connection.id, baseId: 'appAway', table: 'Tasks' };
  expect(
    await app.send({
      do: 'call',
      channel: 'edits.edit',
      request: { target, changes: [{ recordId: 'rec1', fields: { Name: 'x' } }] },
    }),
  ).toMatchObject({ ok: true });
}

describe('the built main process, loaded as Electron loads it', () => {
  it('registers app://, opens the sandboxed window, binds IPC, and serves the demo base through the preload', async () => {
    const app = await start();
    const state = await until(app, windowOpen);
    expect(state.log.indexOf('registerSchemesAsPrivileged')).toBeLessThan(state.log.indexOf('ready'));
    expect(state.log).toContain('requestSingleInstanceLock');
    expect(state.schemes).toEqual([
      { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
    ]);
    expect(state.protocols).toEqual(['app']);
    expect(state.ipcChannels).toEqual(['tabledesk:call']);
    expect(state.windows).toHaveLength(1);
    expect(state.windows[0]?.url).toBe('app://tabledesk/index.html');
    expect(state.windows[0]?.options.webPreferences).toMatchObject({
      preload: join(entry, '../out/preload/index.cjs'),
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
    });

    expect(await app.send({ do: 'preload', path: join(entry, '../out/preload/index.cjs') })).toEqual([
      'tabledesk',
    ]);
    expect(await app.send({ do: 'call', channel: 'app.info', request: {} })).toMatchObject({
      ok: true,
      response: { name: 'TableDesk', door: 'electron' },
    });
    const bases = await app.send<{ ok: boolean; response: { refused: boolean; bases: unknown[] } }>({
      do: 'call',
      channel: 'meta.bases',
      request: { connectionId: 'demo' },
    });
    expect(bases.ok).toBe(true);
    expect(bases.response.refused).toBe(false);
    expect(bases.response.bases.length).toBeGreaterThan(0);
    expect(app.stderr()).toBe('');
  });

  it('a main that cannot load says so in a dialog once ready (Linux shows none before) and ends with status 1', async () => {
    const broken = join(dir, 'broken');
    const brokenEntry = layOut(broken);
    await rm(join(broken, 'node_modules/fastest-levenshtein'), { recursive: true });
    main = await runMain(brokenEntry, userData, 'linux');
    const state = await main.send<State>({ do: 'state' });
    expect(state).toMatchObject({ exitCode: 1, windows: [], dialogs: 1 });
    expect(state.dialogMessages).toEqual(['TableDesk could not start']);
    expect(main.stderr()).toContain(
      "TableDesk could not start: Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'fastest-levenshtein'",
    );
  });

  it('ships only what main loads: no renderer or build-tool package among the production dependencies', () => {
    const shipped = productionPackages();
    expect(shipped).toEqual(expect.arrayContaining(['better-sqlite3', 'fastify', 'zod']));
    for (const name of [
      'react',
      'react-dom',
      'ag-grid-community',
      'ag-grid-react',
      'tsx',
      'esbuild',
      'dayjs',
      'ws',
    ])
      expect(shipped, name).not.toContain(name);
  });

  it('seeds the demo off the main thread: its event loop never stalls while the 50,000 records go in', async () => {
    // A first start on an empty folder seeds the demo base.
    const fresh = join(dir, 'fresh-user-data');
    mkdirSync(fresh);
    main = await runMain(entry, fresh);
    // IPC is bound with the window, once the services are ready (the journal's lock taken).
    await until(main, windowOpen);
    await main.send({ do: 'preload', path: join(entry, '../out/preload/index.cjs') });
    const started = Date.now();
    const bases = await main.send<{ ok: boolean }>({
      do: 'call',
      channel: 'meta.bases',
      request: { connectionId: 'demo' },
    });
    expect(bases.ok).toBe(true);
    const state = await main.send<State>({ do: 'state' });
    // Seeding takes seconds (about 5 s on this machine); on the main thread it would stall the loop for all of
    // them, in a worker for none (about 70 ms at most here, under load).
    const seedMs = Date.now() - started;
    expect(seedMs).toBeGreaterThan(300);
    expect(state.eventLoopMaxDelayMs).toBeLessThan(Math.min(500, seedMs / 2));
  });

  it('refuses calls from any frame but the window’s own top frame', async () => {
    const app = await start();
    await until(app, windowOpen);
    for (const frame of ['iframe', 'other-process', 'other-page', 'none'] as const)
      expect(await app.send({ do: 'call-from', frame }), frame).toEqual(REFUSED);
  });

  it('refuses every permission request, permission check and device permission but a clipboard read by the app page', async () => {
    const app = await start();
    const state = await until(app, windowOpen);
    expect(state.handlers).toEqual({
      permissionRequest: true,
      permissionCheck: true,
      devicePermission: true,
    });
    expect(await app.send({ do: 'permissions' })).toEqual({
      request: false,
      check: false,
      device: false,
      clipboardRequest: true,
      clipboardCheck: true,
      clipboardRequestElsewhere: false,
      clipboardCheckElsewhere: false,
    });
  });

  it('serves the renderer on app:// with its CSP, nothing outside it, and blocks navigation away', async () => {
    const app = await start();
    await until(app, windowOpen);
    expect(await app.send({ do: 'fetch-app', url: 'app://tabledesk/index.html' })).toMatchObject({
      status: 200,
      csp: expect.stringContaining("default-src 'self'"),
    });
    expect(await app.send({ do: 'fetch-app', url: 'app://tabledesk/..%2f..%2fpackage.json' })).toMatchObject({
      status: 404,
    });
    expect(await app.send({ do: 'navigate', url: 'https://example.com/' })).toBe(true);
    expect(await app.send({ do: 'navigate', url: 'app://tabledesk/index.html' })).toBe(false);
  });

  it('a download the page starts goes through the save dialog in Downloads; one from elsewhere is cancelled', async () => {
    const app = await start();
    await until(app, windowOpen);
    expect(
      await app.send({ do: 'download', url: 'blob:app://tabledesk/0b5c', filename: 'Tasks/../x.csv' }),
    ).toEqual({
      cancelled: false,
      saveDialog: {
        title: 'Save file',
        defaultPath: join(userData, 'Downloads', 'Tasks_.._x.csv'),
        properties: ['createDirectory', 'showOverwriteConfirmation'],
      },
    });
    for (const url of ['blob:https://example.com/1', 'http://example.com/a.exe', 'file:///etc/passwd'])
      expect(await app.send({ do: 'download', url, filename: 'a' }), url).toEqual({
        cancelled: true,
        saveDialog: null,
      });
  });

  it("an AppImage started without the sandbox says so, until “Don't show again”; a sandboxed one says nothing", async () => {
    const noticed = "TableDesk runs without Chromium's sandbox here.";
    const appImage = { APPIMAGE: '/home/someone/TableDesk.AppImage' };
    const unsandboxed = { ...appImage, STAND_IN_SWITCHES: 'no-sandbox' };
    const folder = (name: string): string => {
      mkdirSync(join(dir, name));
      return join(dir, name);
    };
    const dialogsOnceOpen = async (app: RunningMain): Promise<State> => {
      await until(app, windowOpen);
      await new Promise((resolve) => setTimeout(resolve, 500));
      return app.send<State>({ do: 'state' });
    };
    const told = folder('appimage-told');
    main = await runMain(entry, told, 'linux', unsandboxed);
    expect((await dialogsOnceOpen(main)).dialogMessages).toEqual([noticed]);
    await main.stop();
    main = await runMain(entry, told, 'linux', { ...unsandboxed, STAND_IN_CHECK_BOXES: '1' });
    expect((await dialogsOnceOpen(main)).dialogMessages).toEqual([noticed]);
    await main.stop();
    main = await runMain(entry, told, 'linux', unsandboxed);
    expect((await dialogsOnceOpen(main)).dialogs).toBe(0);
    await main.stop();
    main = await runMain(entry, folder('appimage-sandboxed'), 'linux', appImage);
    expect((await dialogsOnceOpen(main)).dialogs).toBe(0);
  });

  it('shows a maximized window only when its content is ready', async () => {
    await writeFile(
      join(userData, 'window-state.json'),
      JSON.stringify({ bounds: { x: 10, y: 10, width: 900, height: 700 }, maximized: true }),
    );
    const app = await start();
    const before = await until(app, windowOpen);
    expect(before.windows[0]).toMatchObject({ visible: false, maximized: false });
    const after = await app.send<State>({ do: 'window', event: 'ready-to-show' });
    expect(after.windows[0]).toMatchObject({ visible: true, maximized: true });
  });

  it('a second launch restores a minimized window and focuses it', async () => {
    const app = await start();
    await until(app, windowOpen);
    await app.send({ do: 'minimize' });
    const state = await app.send<State>({ do: 'second-instance' });
    expect(state.windows[0]).toMatchObject({ minimized: false, focused: true });
    expect(state.windows[0]?.calls.slice(-2)).toEqual(['restore', 'focus']);
  });

  it('a crashed page: a dialog says the edits are safe and offers Reload (the page loads again) or Quit', async () => {
    const app = await start();
    await until(app, windowOpen);
    const loads = (s: State) => s.log.filter((line) => line === 'loadURL app://tabledesk/index.html').length;
    const before = loads(await app.send<State>({ do: 'state' }));
    // A window closing ends its page cleanly: no dialog.
    await app.send({
      do: 'page-event',
      event: 'render-process-gone',
      details: { reason: 'clean-exit', exitCode: 0 },
    });
    await app.send({
      do: 'page-event',
      event: 'render-process-gone',
      details: { reason: 'crashed', exitCode: 139 },
    });
    const reloaded = await until(app, (s) => loads(s) > before);
    expect(reloaded.dialogMessages).toEqual(["TableDesk's window crashed."]);
    expect(loads(reloaded)).toBe(before + 1);

    await app.send({ do: 'dialog-answer', response: 1 });
    await app.send({
      do: 'page-event',
      event: 'render-process-gone',
      details: { reason: 'oom', exitCode: 0 },
    });
    const quit = await until(app, (s) => s.exitCode !== undefined);
    expect(quit.dialogMessages.at(-1)).toBe("TableDesk's window ran out of memory.");
    expect(quit).toMatchObject({ exitCode: 0, windows: [] });
  });

  it('a hung page: its dialog closes by itself when the page answers again, and Reload reloads it', async () => {
    const app = await start();
    await until(app, windowOpen);
    await app.send({ do: 'hold-dialogs' });
    const hung = await app.send<State>({ do: 'window', event: 'unresponsive' });
    expect(hung.openDialogs).toEqual(["TableDesk's window is not responding."]);
    await app.send({ do: 'window', event: 'responsive' });
    const answered = await until(app, (s) => s.openDialogs.length === 0);
    expect(answered.openDialogs).toEqual([]);
    const loads = answered.log.filter((line) => line.startsWith('loadURL')).length;

    await app.send({ do: 'window', event: 'unresponsive' });
    const reloaded = await app.send<State>({ do: 'answer-dialog', response: 1 });
    expect(reloaded.log.filter((line) => line.startsWith('loadURL')).length).toBe(loads + 1);
    expect(reloaded.exitCode).toBeUndefined();
  });

  it("macOS: a second launch with no window open opens one; each window's theme listener goes with it", async () => {
    const app = await start('darwin');
    const open = await until(app, windowOpen);
    expect(open.themeListeners).toBe(1);
    expect(await app.send({ do: 'close-window' })).toBe(false);
    const closed = await until(app, (s) => s.windows.length === 0);
    expect(closed.themeListeners).toBe(0);
    expect(closed.exitCode).toBeUndefined();
    await app.send({ do: 'second-instance' });
    const reopened = await until(app, windowOpen);
    expect(reopened.windows).toHaveLength(1);
    expect(reopened.themeListeners).toBe(1);
  });

  it('macOS: the Edit menu has undo and redo (text fields get Cmd+Z only through it); elsewhere Ctrl+Z is the page’s', async () => {
    const edit = (s: State) => s.menu?.find((item) => item.label === '&Edit')?.submenu ?? [];
    const mac = await start('darwin');
    const macMenu = edit(await until(mac, windowOpen));
    expect(macMenu.slice(0, 2)).toEqual([
      { role: 'undo', accelerator: 'CommandOrControl+Z' },
      { role: 'redo', accelerator: 'Shift+CommandOrControl+Z' },
    ]);
    await mac.stop();
    const linux = await start('linux');
    expect(edit(await until(linux, windowOpen)).map((item) => item.role)).not.toContain('undo');
  });

  it('leaves Ctrl+W to the page: no menu item closes the window with it', async () => {
    const app = await start();
    const state = await until(app, windowOpen);
    const accelerators = (items: State['menu']): string[] =>
      (items ?? []).flatMap((item) => [
        ...(item.accelerator ? [item.accelerator] : []),
        ...accelerators(item.submenu ?? []),
      ]);
    expect(accelerators(state.menu).length).toBeGreaterThan(0);
    expect(
      accelerators(state.menu).filter((a) => /^(CommandOrControl|CmdOrCtrl|Ctrl|Control)\+W$/i.test(a)),
    ).toEqual([]);
  });

  it('macOS: quits on app.quit() (Cmd+Q, the Dock, logout): the window closes, the services stop, it exits 0', async () => {
    const app = await start('darwin');
    await until(app, windowOpen);
    await app.send({ do: 'quit' });
    const state = await until(app, (s) => s.exitCode !== undefined);
    expect(state.windows).toEqual([]);
    expect(state.exitCode).toBe(0);
    expect(state.log.filter((line) => line.startsWith('app.'))).toEqual([
      'app.quit',
      'app.quit',
      'app.exit 0',
    ]);
  });

  it('macOS: asks before quitting with unsent edits; "Stay" keeps the app open, "Quit" then quits', async () => {
    const app = await start('darwin');
    await until(app, windowOpen);
    await oweAnEdit(app);

    await app.send({ do: 'dialog-answer', response: 1 });
    await app.send({ do: 'quit' });
    const stayed = await until(app, (s) => s.dialogs === 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await app.send<State>({ do: 'state' })).toMatchObject({
      dialogs: 1,
      windows: [expect.anything()],
    });
    expect(stayed.exitCode).toBeUndefined();

    await app.send({ do: 'dialog-answer', response: 0 });
    await app.send({ do: 'quit' });
    const quit = await until(app, (s) => s.exitCode !== undefined);
    expect(quit).toMatchObject({ dialogs: 2, windows: [], exitCode: 0 });
  });
});

describe("the installed app's demo server thread (out/main/embedded-worker.js)", () => {
  const script = (): string => join(root, 'out/main/embedded-worker.js');

  it('serves the demo base on loopback with the key it was given, and its thread ends on close', async () => {
    const server = await startWorkerServer(script(), { apiKey: 'patWORKER', memory: true, rateLimit: 'off' });
    try {
      expect(server.pid).toBe(process.pid);
      expect(server.bases.map((b) => b.name)).toContain('TableDesk Demo');
      const ok = await fetch(`${server.url}/v0/meta/bases`, {
        headers: { Authorization: 'Bearer patWORKER' },
      });
      expect(ok.status).toBe(200);
      const refused = await fetch(`${server.url}/v0/meta/bases`, {
        headers: { Authorization: 'Bearer patOTHER' },
      });
      expect(refused.status).toBe(401);
    } finally {
      await server.close();
    }
    await expect(fetch(`${server.url}/v0/meta/bases`)).rejects.toThrow();
  });

  it("holds a base 2 s after a 429, as the app's other demo servers do", async () => {
    const server = await startEmbeddedServer({
      userDataDir: dir,
      vault: createFileVault(join(dir, 'worker-keys.json')),
      memory: true,
      runner: { worker: script() },
    });
    try {
      const demo = server.bases.find((b) => b.name === 'TableDesk Demo')!;
      const teams = `/v0/${demo.id}/Teams?pageSize=1`;
      expect(await penaltyOfABurst(server.url, server.apiKey, teams)).toEqual({
        retryAfter: '2',
        after: 200,
      });
    } finally {
      await server.close();
    }
  });

  it('says why when the server cannot start in it', async () => {
    const file = join(dir, 'not-a-folder');
    await writeFile(file, '');
    await expect(startWorkerServer(script(), { apiKey: 'patX', dataDir: join(file, 'db') })).rejects.toThrow(
      /^The local demo server did not start: .*(ENOTDIR|not a directory)/,
    );
  });

  it('runs the server on the main thread, and says so, when the thread itself cannot run', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const server = await startEmbeddedServer({
      userDataDir: dir,
      vault: createFileVault(join(dir, 'worker-keys.json')),
      memory: true,
      runner: { worker: join(dir, 'no-such-worker.js') },
    });
    expect(errors).toHaveBeenCalledWith(
      'TableDesk: the demo server runs on the main thread instead of its own thread.',
      expect.objectContaining({ name: 'WorkerUnavailable' }),
    );
    errors.mockRestore();
    try {
      const ok = await fetch(`${server.url}/v0/meta/bases`, {
        headers: { Authorization: `Bearer ${server.apiKey}` },
      });
      expect(ok.status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

/**
 * Updates, as an AppImage install meets them (APPIMAGE set, app-update.yml in resources): electron-updater in
 * the built bundle against a feed served over loopback (latest-linux.yml and a new "AppImage", a script that
 * notes how it was run). The policy's details (daily checks, "Later") are test/unit/app/update-flow.test.ts's.
 */
describe('updates of the installed app, from a feed over loopback', () => {
  /** Run once by the updater after it is in place, it writes down APPIMAGE_EXIT_AFTER_INSTALL. */
  const NEW_APPIMAGE =
    '#!/bin/sh\nprintf "%s" "$APPIMAGE_EXIT_AFTER_INSTALL" > "$(dirname "$0")/integrated"\n';
  const OFFER = 'TableDesk 0.2.0 is ready to install.';
  let feed: Server;
  let feedUrl: string;
  let requests: string[];
  /** The feed holds every request until this is called, so that a test sets the app up first. */
  let open: () => void;
  let gate: Promise<void>;
  let apps: string;
  // Where the stand-in puts process.resourcesPath: beside the app, as resources/ lies beside app.asar.
  const builtFeed = (): string => join(dir, 'app-update.yml');
  const cache = (): string => join(dir, 'cache');

  beforeAll(async () => {
    const body = Buffer.from(NEW_APPIMAGE);
    const sha512 = createHash('sha512').update(body).digest('base64');
    const latest = [
      'version: 0.2.0',
      'files:',
      '  - url: TableDesk-0.2.0.AppImage',
      `    sha512: ${sha512}`,
      `    size: ${body.length}`,
      'path: TableDesk-0.2.0.AppImage',
      `sha512: ${sha512}`,
      "releaseDate: '2026-11-27T00:00:00.000Z'",
      '',
    ].join('\n');
    feed = createServer((request, response) => {
      requests.push(request.url ?? '');
      void gate.then(() => {
        if (request.url?.startsWith('/feed/latest-linux.yml')) response.end(latest);
        else if (request.url === '/feed/TableDesk-0.2.0.AppImage') response.end(body);
        else response.writeHead(404).end();
      });
    });
    await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve));
    feedUrl = `http://127.0.0.1:${(feed.address() as AddressInfo).port}/feed/`;
  });
  beforeEach(() => {
    requests = [];
    gate = new Promise((resolve) => (open = resolve));
    apps = join(dir, `apps-${Date.now()}`);
    mkdirSync(apps);
    writeFileSync(join(apps, 'TableDesk-0.1.0.AppImage'), '#!/bin/sh\nexit 0\n');
    chmodSync(join(apps, 'TableDesk-0.1.0.AppImage'), 0o755);
    rmSync(cache(), { recursive: true, force: true });
  });
  afterEach(() => rmSync(builtFeed(), { force: true }));
  afterAll(() => new Promise((resolve) => feed.close(resolve)));

  function writeBuiltFeed(lines: string[]): void {
    writeFileSync(builtFeed(), [...lines, 'updaterCacheDirName: tabledesk-updater', ''].join('\n'));
  }

  async function startInstalled(env: NodeJS.ProcessEnv = {}): Promise<RunningMain> {
    main = await runMain(entry, userData, 'linux', {
      APPIMAGE: join(apps, 'TableDesk-0.1.0.AppImage'),
      XDG_CACHE_HOME: cache(),
      TABLEDESK_UPDATE_URL: '',
      ...env,
    });
    return main;
  }

  it('checks the built feed at start and downloads; "Restart to update" waits for the owed edits, then the new AppImage takes the old one\'s place and starts once this one has quit', async () => {
    writeBuiltFeed(['provider: generic', `url: ${feedUrl}`]);
    const app = await startInstalled();
    await until(app, windowOpen);
    await oweAnEdit(app);
    open();
    const downloaded = join(cache(), 'tabledesk-updater/pending/TableDesk-0.2.0.AppImage');
    const end = Date.now() + 30_000;
    while (!existsSync(downloaded) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    expect(readFileSync(downloaded, 'utf8')).toBe(NEW_APPIMAGE);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await app.send<State>({ do: 'state' })).dialogMessages).toEqual([]);

    // Once nothing is owed, the offer comes; the user takes it.
    await app.send({ do: 'call', channel: 'edits.discardAll', request: { waiting: true } });
    // The quit closes the services first, which waits for the first start's seed of the demo base.
    const state = await until(app, (s) => s.exitCode !== undefined, 150_000);
    expect(state.dialogMessages).toEqual([OFFER]);
    expect(requests[0]).toMatch(/^\/feed\/latest-linux\.yml/);
    const installed = join(apps, 'TableDesk-0.2.0.AppImage');
    expect(existsSync(join(apps, 'TableDesk-0.1.0.AppImage'))).toBe(false);
    expect(readFileSync(installed, 'utf8')).toBe(NEW_APPIMAGE);
    // Run once by the updater to integrate itself and exit, not to start the app...
    expect(readFileSync(join(apps, 'integrated'), 'utf8')).toBe('true');
    // ...which starts after this process exits (the services closed first) and so gets the single-instance lock.
    const relaunch = state.log.indexOf(`app.relaunch ${installed}`);
    expect(relaunch).toBeGreaterThan(-1);
    expect(relaunch).toBeLessThan(state.log.indexOf('app.exit 0'));
    expect(state.exitCode).toBe(0);
  }, 180_000);

  it('TABLEDESK_UPDATE_URL names a feed in place of the built one; "Later" keeps this version and its AppImage', async () => {
    // The built feed: GitHub releases, which this machine cannot reach; the variable's feed is asked instead.
    writeBuiltFeed(['provider: github', 'owner: tabledesk', 'repo: tabledesk']);
    const app = await startInstalled({ TABLEDESK_UPDATE_URL: feedUrl });
    await app.send({ do: 'dialog-answer', response: 1 });
    open();
    const offered = await until(app, (s) => s.dialogMessages.includes(OFFER));
    expect(offered.dialogMessages).toEqual([OFFER]);
    expect(requests[0]).toMatch(/^\/feed\/latest-linux\.yml/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const state = await app.send<State>({ do: 'state' });
    expect(state.exitCode).toBeUndefined();
    expect(state.log.some((line) => line.startsWith('app.relaunch'))).toBe(false);
    expect(existsSync(join(apps, 'TableDesk-0.1.0.AppImage'))).toBe(true);
    expect(existsSync(join(apps, 'TableDesk-0.2.0.AppImage'))).toBe(false);
  });

  it('asks no feed when TABLEDESK_UPDATE_URL is "off", nor in a build without one (no app-update.yml)', async () => {
    writeBuiltFeed(['provider: generic', `url: ${feedUrl}`]);
    open();
    let app = await startInstalled({ TABLEDESK_UPDATE_URL: 'off' });
    await until(app, windowOpen);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await app.stop();
    rmSync(builtFeed());
    app = await startInstalled({ TABLEDESK_UPDATE_URL: feedUrl });
    await until(app, windowOpen);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(requests).toEqual([]);
    expect(app.stderr()).toBe('');
  });
});
