/**
 * A stand-in for the part of Electron's API that electron/ uses (the binary cannot run here): it behaves as
 * Electron 45 documents each call, and records what the app did in `standIn` for the tests to read and drive.
 * It is the only fake in the test suite. Loaded as the `electron` package by the bundle check (transpiled, in
 * a packaged layout) and through `vi.mock('electron')` by the unit-level tests.
 */
import { EventEmitter } from 'node:events';
import { readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { ClientRequest, RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { fileURLToPath } from 'node:url';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the listener type EventEmitter takes
type Listener = (...args: any[]) => void;
type Handler = (event: IpcEvent, ...args: unknown[]) => unknown;

export interface Frame {
  processId: number;
  routingId: number;
  url: string;
}

export interface IpcEvent {
  senderFrame: Frame | null;
}

/** An event the app may cancel, as Electron passes to `close`, `before-quit`, `will-quit`, `will-navigate`. */
export function cancellable(): { defaultPrevented: boolean; preventDefault(): void } {
  return {
    defaultPrevented: false,
    preventDefault() {
      this.defaultPrevented = true;
    },
  };
}

interface MenuItem {
  role?: string;
  label?: string;
  accelerator?: string;
  submenu?: MenuItem[];
}

/** The submenus and accelerators Electron gives a role item that sets none (lib/browser/api/menu-item-roles.ts). */
function roleDefaults(item: MenuItem): MenuItem {
  const mac = process.platform === 'darwin';
  const accelerators: Record<string, string> = {
    close: 'CommandOrControl+W',
    quit: mac ? 'CommandOrControl+Q' : '',
    minimize: 'CommandOrControl+M',
    undo: 'CommandOrControl+Z',
    redo: mac ? 'Shift+CommandOrControl+Z' : 'Control+Y',
  };
  const submenus: Record<string, MenuItem[]> = {
    windowMenu: [
      { role: 'minimize' },
      { role: 'zoom' },
      ...(mac ? [{ role: 'front' }] : [{ role: 'close' }]),
    ],
  };
  const role = item.role ?? '';
  const submenu = item.submenu ?? submenus[role];
  return {
    ...item,
    accelerator: item.accelerator ?? (accelerators[role] || undefined),
    submenu: submenu?.map(roleDefaults),
  };
}

class WebContents extends EventEmitter {
  readonly mainFrame: Frame;
  readonly sent: unknown[][] = [];
  windowOpenHandler?: (details: { url: string }) => { action: string };
  constructor(id: number) {
    super();
    this.mainFrame = { processId: 100 + id, routingId: 1, url: '' };
  }
  send(channel: string, ...args: unknown[]): void {
    this.sent.push([channel, ...args]);
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }
}

let nextWindowId = 1;

export class BrowserWindow extends EventEmitter {
  static readonly all: BrowserWindow[] = [];
  static getAllWindows(): BrowserWindow[] {
    return [...BrowserWindow.all];
  }
  readonly id = nextWindowId++;
  readonly webContents = new WebContents(this.id);
  readonly options: Record<string, unknown>;
  visible = false;
  maximized = false;
  minimized = false;
  focused = false;
  destroyed = false;
  background: string;
  /** What Electron's own calls did to the window, in order. */
  readonly calls: string[] = [];

  constructor(options: Record<string, unknown> = {}) {
    super();
    this.options = options;
    this.background = String(options.backgroundColor ?? '');
    this.visible = options.show !== false;
    BrowserWindow.all.push(this);
    standIn.log.push('new BrowserWindow');
  }
  show(): void {
    this.calls.push('show');
    this.visible = true;
  }
  /** As Electron: maximizing a hidden window also shows it. */
  maximize(): void {
    this.calls.push('maximize');
    this.maximized = true;
    this.visible = true;
  }
  minimize(): void {
    this.minimized = true;
  }
  restore(): void {
    this.calls.push('restore');
    this.minimized = false;
  }
  focus(): void {
    this.calls.push('focus');
    this.focused = true;
  }
  isMaximized(): boolean {
    return this.maximized;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  isVisible(): boolean {
    return this.visible;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  getNormalBounds(): { x: number; y: number; width: number; height: number } {
    return {
      x: 0,
      y: 0,
      width: Number(this.options.width ?? 800),
      height: Number(this.options.height ?? 600),
    };
  }
  setBackgroundColor(color: string): void {
    this.background = color;
  }
  async loadURL(url: string): Promise<void> {
    this.webContents.mainFrame.url = url;
    standIn.log.push(`loadURL ${url}`);
  }
  /** A close the app may cancel from its `close` listener; returns whether the window closed. */
  close(): boolean {
    if (this.destroyed) return true;
    const event = cancellable();
    this.emit('close', event);
    if (event.defaultPrevented) return false;
    this.destroy();
    return true;
  }
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    BrowserWindow.all.splice(BrowserWindow.all.indexOf(this), 1);
    this.emit('closed');
    if (BrowserWindow.all.length === 0 && !standIn.quitting) app.emit('window-all-closed');
  }
}

class App extends EventEmitter {
  isPackaged = true;
  /** Chromium's switches this run was started with (STAND_IN_SWITCHES, comma-separated, in the bundle check). */
  readonly commandLine = {
    hasSwitch: (name: string): boolean => standIn.switches.includes(name),
  };
  #ready = false;
  #readyWaiters: (() => void)[] = [];
  isReady(): boolean {
    return this.#ready;
  }
  whenReady(): Promise<void> {
    return this.#ready ? Promise.resolve() : new Promise((resolve) => this.#readyWaiters.push(resolve));
  }
  /** The stand-in's own: what Electron does once Chromium is up. */
  becomeReady(): void {
    this.#ready = true;
    standIn.log.push('ready');
    this.emit('ready');
    for (const resolve of this.#readyWaiters.splice(0)) resolve();
  }
  getAppPath(): string {
    return standIn.appPath;
  }
  getPath(name: string): string {
    if (name === 'downloads') return `${standIn.userData}/Downloads`;
    if (name !== 'userData') throw new Error(`the stand-in knows no path "${name}"`);
    return standIn.userData;
  }
  getVersion(): string {
    return '0.0.0-stand-in';
  }
  getName(): string {
    return 'TableDesk';
  }
  /** As Electron: the app starts again once this process has exited (the stand-in records how). */
  relaunch(options: { execPath?: string; args?: string[] } = {}): void {
    standIn.log.push(`app.relaunch ${options.execPath ?? process.execPath}`);
  }
  requestSingleInstanceLock(): boolean {
    standIn.log.push('requestSingleInstanceLock');
    return standIn.singleInstanceLock;
  }
  /**
   * As Electron: `before-quit`, then every window is asked to close (a cancelled `close` cancels the quit),
   * then `will-quit` (cancellable), then `quit`.
   */
  quit(): void {
    standIn.log.push('app.quit');
    const before = cancellable();
    this.emit('before-quit', before);
    if (before.defaultPrevented) return;
    standIn.quitting = true;
    const closed = BrowserWindow.getAllWindows().every((window) => window.close());
    standIn.quitting = false;
    if (!closed) return;
    const will = cancellable();
    this.emit('will-quit', will);
    if (will.defaultPrevented) return;
    this.emit('quit');
    standIn.exitCode = 0;
  }
  exit(code = 0): void {
    standIn.log.push(`app.exit ${code}`);
    standIn.exitCode = code;
  }
}

export const app = new App();

type PermissionCheck = (wc: unknown, permission: string, origin: string, details: unknown) => boolean;
/** Electron passes `details` (the requesting page's URL among them) to every request. */
type PermissionRequest = (
  wc: unknown,
  permission: string,
  callback: (granted: boolean) => void,
  details: { requestingUrl: string },
) => void;
type DevicePermission = (details: { deviceType: string; origin: string }) => boolean;

export const session = {
  /** A session of its own (electron-updater's, without a cache); the stand-in's requests keep none anyway. */
  fromPartition(partition: string): { partition: string } {
    return { partition };
  },
  defaultSession: Object.assign(new EventEmitter(), {
    permissionRequest: undefined as PermissionRequest | undefined,
    permissionCheck: undefined as PermissionCheck | undefined,
    devicePermission: undefined as DevicePermission | undefined,
    setPermissionRequestHandler(handler: PermissionRequest | null): void {
      this.permissionRequest = handler ?? undefined;
    },
    setPermissionCheckHandler(handler: PermissionCheck | null): void {
      this.permissionCheck = handler ?? undefined;
    },
    setDevicePermissionHandler(handler: DevicePermission | null): void {
      this.devicePermission = handler ?? undefined;
    },
  }),
};

/** A download the page started, as `will-download` passes it: it records the save dialog it was given. */
export class DownloadItem extends EventEmitter {
  saveDialogOptions?: Record<string, unknown>;
  constructor(
    private readonly url: string,
    private readonly filename: string,
  ) {
    super();
  }
  getURL(): string {
    return this.url;
  }
  getFilename(): string {
    return this.filename;
  }
  setSaveDialogOptions(options: Record<string, unknown>): void {
    this.saveDialogOptions = options;
  }
}

export const ipcMain = {
  handle(channel: string, handler: Handler): void {
    // As Electron: a second handler for one channel is an error.
    if (standIn.ipcHandlers.has(channel))
      throw new Error(`Attempted to register a second handler for '${channel}'`);
    standIn.ipcHandlers.set(channel, handler);
  },
  removeHandler(channel: string): void {
    standIn.ipcHandlers.delete(channel);
  },
};

export const protocol = {
  registerSchemesAsPrivileged(schemes: { scheme: string; privileges: Record<string, boolean> }[]): void {
    if (app.isReady()) throw new Error('registerSchemesAsPrivileged must be called before the app is ready');
    standIn.log.push('registerSchemesAsPrivileged');
    standIn.schemes.push(...schemes);
  },
  handle(scheme: string, handler: (request: Request) => Promise<Response>): void {
    if (!app.isReady()) throw new Error('protocol.handle needs a ready app');
    standIn.protocolHandlers.set(scheme, handler);
  },
};

/** Electron's net: fetch for the file: URLs the app:// handler reads, request for electron-updater's feed. */
export const net = {
  /**
   * As Electron's ClientRequest: `response`, `error` and `abort()`, a response that is a readable stream. With
   * `redirect: 'manual'` (the only way electron-updater asks) a 3xx comes back as the response itself.
   */
  request(options: RequestOptions & { session?: unknown; redirect?: string }): ClientRequest {
    const { session: _session, redirect: _redirect, ...rest } = options;
    return (rest.protocol === 'https:' ? httpsRequest : httpRequest)(rest);
  },
  async fetch(url: string): Promise<Response> {
    try {
      return new Response(await readFile(fileURLToPath(url)), { status: 200 });
    } catch {
      return new Response('', { status: 404 });
    }
  },
};

interface MessageBox {
  message: string;
  buttons: string[];
  cancelId?: number;
  signal?: AbortSignal;
  checkboxLabel?: string;
}

export const dialog = {
  /**
   * Answers `standIn.dialogAnswer` at once, or (with `standIn.holdDialogs`) stays open until
   * `standIn.answerDialog` or the options' `signal` closes it, which answers `cancelId` as Electron does. As
   * Electron, the window may be left out.
   */
  async showMessageBox(
    windowOrOptions: unknown,
    maybeOptions?: MessageBox,
  ): Promise<{ response: number; checkboxChecked: boolean }> {
    const options = maybeOptions ?? (windowOrOptions as MessageBox);
    standIn.dialogs.push(options);
    const checkboxChecked = options.checkboxLabel !== undefined && standIn.checkDialogBoxes;
    if (!standIn.holdDialogs) return { response: standIn.dialogAnswer, checkboxChecked };
    return new Promise((resolve) => {
      const close = (response: number): void => {
        standIn.openDialogs.splice(standIn.openDialogs.indexOf(entry), 1);
        resolve({ response, checkboxChecked });
      };
      const entry = { message: options.message, close };
      standIn.openDialogs.push(entry);
      options.signal?.addEventListener('abort', () => close(options.cancelId ?? 0), { once: true });
    });
  },
  /** As Electron on Linux: before `ready` no dialog can show, and the message goes to stderr. */
  showErrorBox(title: string, content: string): void {
    if (process.platform === 'linux' && !app.isReady()) {
      console.error(`${title}: ${content}`);
      return;
    }
    standIn.dialogs.push({ title, content });
  },
};

/** Electron's own updater (Squirrel): electron-updater only emits its `before-quit-for-update` on it. */
export const autoUpdater = new EventEmitter();

export const nativeTheme = Object.assign(new EventEmitter(), {
  shouldUseDarkColors: false,
  themeSource: 'system',
});

export const shell = {
  async openExternal(url: string): Promise<void> {
    standIn.opened.push(url);
  },
};

export const screen = {
  getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }],
};

export const Menu = {
  buildFromTemplate: (template: MenuItem[]): MenuItem[] => template.map(roleDefaults),
  setApplicationMenu(menu: MenuItem[] | null): void {
    standIn.menu = menu;
  },
};

const DECRYPT_FAILURE = 'Error while decrypting the ciphertext provided to safeStorage.decryptString.';

/**
 * Ciphertext names the OS key it was made with: a changed keyring (`keyId`) can no longer open it, unless the
 * old key is among `rotatedKeyIds` (rotated, still able to decrypt), when it opens with `shouldReEncrypt`.
 */
export const safeStorage = {
  backend: 'gnome_libsecret' as string,
  available: true,
  keyId: 'os-key-1',
  rotatedKeyIds: [] as string[],
  getSelectedStorageBackend(): string {
    return this.backend;
  },
  async isAsyncEncryptionAvailable(): Promise<boolean> {
    return this.available;
  },
  async encryptStringAsync(plain: string): Promise<Buffer> {
    if (!this.available) throw new Error('Encryption is not available.');
    return Buffer.from(`${this.keyId}:${Buffer.from(plain).toString('base64')}`);
  },
  async decryptStringAsync(encrypted: Buffer): Promise<{ result: string; shouldReEncrypt: boolean }> {
    const [keyId = '', body] = encrypted.toString().split(':');
    const rotated = this.rotatedKeyIds.includes(keyId);
    if ((keyId !== this.keyId && !rotated) || body === undefined) throw new Error(DECRYPT_FAILURE);
    return { result: Buffer.from(body, 'base64').toString(), shouldReEncrypt: rotated };
  },
};

/** The renderer side, for the preload. */
export const contextBridge = {
  exposeInMainWorld(key: string, api: unknown): void {
    standIn.mainWorld[key] = api;
  },
};

const rendererEvents = new EventEmitter();

export const ipcRenderer = {
  /** Reaches the main process's handler as a call from `standIn.rendererFrame`. */
  async invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    const handler = standIn.ipcHandlers.get(channel);
    if (handler === undefined) throw new Error(`No handler registered for '${channel}'`);
    return structuredClone(await handler({ senderFrame: standIn.rendererFrame() }, ...args));
  },
  on(channel: string, listener: Listener): void {
    rendererEvents.on(channel, listener);
  },
  removeListener(channel: string, listener: Listener): void {
    rendererEvents.removeListener(channel, listener);
  },
};

/** What the app did, and the knobs a test turns. */
export const standIn = {
  appPath: process.cwd(),
  userData: process.cwd(),
  singleInstanceLock: true,
  quitting: false,
  exitCode: undefined as number | undefined,
  dialogAnswer: 0,
  /** Whether the user ticks a dialog's checkbox ("Don't show again"). */
  checkDialogBoxes: false,
  switches: [] as string[],
  holdDialogs: false,
  openDialogs: [] as { message: string; close(response: number): void }[],
  /** Answers the dialog open longest. */
  answerDialog(response: number): void {
    standIn.openDialogs[0]?.close(response);
  },
  /** Start-up steps in order. */
  log: [] as string[],
  schemes: [] as { scheme: string; privileges: Record<string, boolean> }[],
  protocolHandlers: new Map<string, (request: Request) => Promise<Response>>(),
  ipcHandlers: new Map<string, Handler>(),
  menu: null as MenuItem[] | null,
  dialogs: [] as unknown[],
  opened: [] as string[],
  mainWorld: {} as Record<string, unknown>,
  /** The frame the preload's calls come from: the first window's top frame. */
  rendererFrame(): Frame | null {
    return BrowserWindow.all[0]?.webContents.mainFrame ?? null;
  },
  /** Delivers what the main process sent to the first window to the preload's listeners. */
  deliverSent(): void {
    for (const [channel, ...args] of BrowserWindow.all[0]?.webContents.sent.splice(0) ?? [])
      rendererEvents.emit(channel as string, { sender: null }, ...args);
  },
};
