/**
 * Runs in the child process of the bundle check, beside the stand-in: imports the built main bundle with
 * Node's own ES module loader, makes the app ready, and then answers the test's commands over the process
 * channel (read the stand-in's record, drive a window or the app, load the preload as a sandbox would).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { runInThisContext } from 'node:vm';
import {
  BrowserWindow,
  app,
  cancellable,
  contextBridge,
  DownloadItem,
  ipcRenderer,
  nativeTheme,
  session,
  standIn,
} from './electron.js';
import type { Frame } from './electron.js';

export type Command =
  | { do: 'state' }
  | { do: 'window'; event: string }
  | { do: 'page-event'; event: string; details?: unknown }
  | { do: 'hold-dialogs' }
  | { do: 'download'; url: string; filename: string }
  | { do: 'answer-dialog'; response: number }
  | { do: 'close-window' }
  | { do: 'minimize' }
  | { do: 'quit' }
  | { do: 'dialog-answer'; response: number }
  | { do: 'second-instance' }
  | { do: 'permissions' }
  | { do: 'preload'; path: string }
  | { do: 'call'; channel: string; request: unknown }
  | { do: 'call-from'; frame: 'iframe' | 'other-process' | 'other-page' | 'none' }
  | { do: 'fetch-app'; url: string }
  | { do: 'navigate'; url: string };

/** The modules a sandboxed preload may require (Electron's "Process Sandboxing" page); nothing else loads. */
async function sandboxedRequire(): Promise<(name: string) => unknown> {
  const allowed: Record<string, unknown> = {
    electron: { contextBridge, ipcRenderer },
    events: await import('node:events'),
    timers: await import('node:timers'),
    url: await import('node:url'),
  };
  return (name) => {
    if (!Object.hasOwn(allowed, name)) throw new Error(`module not found: ${name}`);
    return allowed[name];
  };
}

/** A sandboxed preload is one CommonJS script: no ES module syntax, no files of its own. */
async function loadPreload(path: string): Promise<string[]> {
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${readFileSync(path, 'utf8')}\n})`;
  const run = runInThisContext(wrapped, { filename: path }) as (...args: unknown[]) => void;
  const module = { exports: {} };
  run(module.exports, await sandboxedRequire(), module, path, '');
  return Object.keys(standIn.mainWorld);
}

function window(): BrowserWindow {
  const first = BrowserWindow.all[0];
  if (first === undefined) throw new Error('the app has no window');
  return first;
}

function snapshot() {
  const { defaultSession } = session;
  return {
    log: standIn.log,
    schemes: standIn.schemes,
    protocols: [...standIn.protocolHandlers.keys()],
    ipcChannels: [...standIn.ipcHandlers.keys()],
    handlers: {
      permissionRequest: defaultSession.permissionRequest !== undefined,
      permissionCheck: defaultSession.permissionCheck !== undefined,
      devicePermission: defaultSession.devicePermission !== undefined,
    },
    menu: standIn.menu,
    exitCode: standIn.exitCode,
    dialogs: standIn.dialogs.length,
    dialogMessages: standIn.dialogs.map(
      (d) => (d as { message?: string; title?: string }).message ?? (d as { title?: string }).title,
    ),
    openDialogs: standIn.openDialogs.map((d) => d.message),
    themeListeners: nativeTheme.listenerCount('updated'),
    windows: BrowserWindow.all.map((w) => ({
      options: w.options,
      url: w.webContents.mainFrame.url,
      visible: w.visible,
      maximized: w.maximized,
      minimized: w.minimized,
      focused: w.focused,
      calls: w.calls,
    })),
    eventLoopMaxDelayMs: delay.max / 1e6,
  };
}

function foreignFrame(kind: string, main: Frame): Frame | null {
  if (kind === 'iframe') return { ...main, routingId: main.routingId + 1 };
  if (kind === 'other-process') return { ...main, processId: main.processId + 1000 };
  if (kind === 'other-page') return { ...main, url: 'https://example.com/' };
  return null;
}

async function answer(command: Command): Promise<unknown> {
  switch (command.do) {
    case 'state':
      return snapshot();
    case 'window':
      window().emit(command.event);
      return snapshot();
    case 'page-event':
      window().webContents.emit(command.event, cancellable(), command.details);
      return snapshot();
    case 'download': {
      const event = cancellable();
      const item = new DownloadItem(command.url, command.filename);
      session.defaultSession.emit('will-download', event, item, window().webContents);
      return { cancelled: event.defaultPrevented, saveDialog: item.saveDialogOptions ?? null };
    }
    case 'hold-dialogs':
      standIn.holdDialogs = true;
      return true;
    case 'answer-dialog':
      standIn.answerDialog(command.response);
      await new Promise((resolve) => setImmediate(resolve));
      return snapshot();
    case 'close-window':
      return window().close();
    case 'minimize':
      window().minimize();
      return true;
    case 'quit':
      app.quit();
      return snapshot();
    case 'dialog-answer':
      standIn.dialogAnswer = command.response;
      return true;
    case 'second-instance':
      app.emit('second-instance', cancellable(), [], process.cwd());
      return snapshot();
    case 'permissions': {
      const { permissionRequest, permissionCheck, devicePermission } = session.defaultSession;
      const wc = window().webContents;
      const request = (permission: string, requestingUrl: string) =>
        new Promise<boolean>((resolve) => permissionRequest?.(wc, permission, resolve, { requestingUrl }));
      const check = (permission: string, origin: string) => permissionCheck?.(wc, permission, origin, {});
      return {
        request: await request('media', 'app://tabledesk/index.html'),
        check: check('media', 'app://tabledesk'),
        device: devicePermission?.({ deviceType: 'hid', origin: 'app://tabledesk' }),
        clipboardRequest: await request('clipboard-read', 'app://tabledesk/index.html'),
        clipboardCheck: check('clipboard-read', 'app://tabledesk'),
        clipboardRequestElsewhere: await request('clipboard-read', 'https://example.com/'),
        clipboardCheckElsewhere: check('clipboard-read', 'https://example.com'),
      };
    }
    case 'preload':
      return loadPreload(command.path);
    case 'call': {
      const api = standIn.mainWorld.tabledesk as { call(c: string, r: unknown): Promise<unknown> };
      try {
        return { ok: true, response: await api.call(command.channel, command.request) };
      } catch (error) {
        return { ok: false, error };
      }
    }
    case 'call-from': {
      const handler = [...standIn.ipcHandlers.values()][0];
      const frame = foreignFrame(command.frame, window().webContents.mainFrame);
      return handler?.({ senderFrame: frame }, 'app.info', {});
    }
    case 'fetch-app': {
      const handler = standIn.protocolHandlers.get('app');
      const response = await handler?.(new Request(command.url));
      return { status: response?.status, csp: response?.headers.get('content-security-policy') ?? null };
    }
    case 'navigate': {
      // Electron 45's event carries the URL (its positional argument is deprecated, and not passed here).
      const event = Object.assign(cancellable(), {
        url: command.url,
        isMainFrame: true,
        isSameDocument: false,
      });
      window().webContents.emit('will-navigate', event);
      return event.defaultPrevented;
    }
  }
}

const delay = monitorEventLoopDelay({ resolution: 10 });

/** `main`: the built main bundle's file URL. */
export async function serve(main: string): Promise<void> {
  standIn.appPath = process.env.STAND_IN_APP_PATH ?? process.cwd();
  standIn.userData = process.env.STAND_IN_USER_DATA ?? process.cwd();
  standIn.switches = process.env.STAND_IN_SWITCHES?.split(',') ?? [];
  standIn.checkDialogBoxes = process.env.STAND_IN_CHECK_BOXES === '1';
  // Electron's: where app.asar lies (and app-update.yml beside it).
  Object.assign(process, { resourcesPath: process.env.STAND_IN_RESOURCES ?? join(standIn.appPath, '..') });
  // The platform the app believes it runs on (macOS keeps running with no window, and quits only by app.quit).
  const platform = process.env.STAND_IN_PLATFORM;
  if (platform) Object.defineProperty(process, 'platform', { value: platform });
  await import(main);
  delay.enable();
  app.becomeReady();
  process.on('message', (command: Command & { id: number }) => {
    void answer(command).then(
      (result) => process.send?.({ id: command.id, result }),
      (error: unknown) => process.send?.({ id: command.id, error: String(error) }),
    );
  });
  process.send?.({ loaded: true });
}
