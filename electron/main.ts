/**
 * The Electron main process: the services (with the embedded demo server), one hardened window serving the
 * renderer from app://, the contract over IPC, the native menu, and light/dark following the OS.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, nativeTheme, session, shell } from 'electron';
import { createAppServices } from '../services/app';
import type { AppServices } from '../services/app';
import type { EmbeddedRunner } from '../services/embedded-server';
import { APP_ORIGIN, isAppUrl, registerAppScheme, serveRenderer } from './app-protocol';
import { grantsPermission } from './permissions';
import { exportDestination } from './export-destination';
import { attachmentSource } from './attachment-source';
import { bindIpc } from './ipc';
import { installMenu } from './menu';
import { createSafeStorageVault } from './safe-storage-vault';
import { loadWindowState, rememberWindowState } from './window-state';
import { opensExternally } from '../core/records/external-links';
import { watchWindow } from './window-recovery';
import { handleDownloads } from './downloads';
import { noticeNoSandbox } from './sandbox-notice';
import { startUpdates } from './updates';

const here = fileURLToPath(new URL('.', import.meta.url));
const rendererDir = join(here, '../renderer');
const preload = join(here, '../preload/index.cjs');
const icon = join(app.getAppPath(), 'build/icon.png');

const background = (): string => (nativeTheme.shouldUseDarkColors ? '#1f2125' : '#ffffff');

async function openWindow(services: AppServices): Promise<void> {
  const userData = app.getPath('userData');
  const state = await loadWindowState(userData);
  const window = new BrowserWindow({
    ...state.bounds,
    minWidth: 640,
    minHeight: 400,
    show: false,
    title: 'TableDesk',
    icon,
    backgroundColor: background(),
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  });
  rememberWindowState(window, userData);
  const unbind = bindIpc(services, window);
  const followTheme = (): void => window.setBackgroundColor(background());
  nativeTheme.on('updated', followTheme);
  window.on('closed', () => {
    unbind();
    nativeTheme.off('updated', followTheme);
  });

  // Navigation and new windows are denied; https links the user clicks open in the OS browser.
  window.webContents.on('will-navigate', (event) => {
    if (!isAppUrl(event.url)) event.preventDefault();
  });
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (opensExternally(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  const page = `${APP_ORIGIN}/index.html`;
  const reload = (): void =>
    void window
      .loadURL(page)
      .catch((error: unknown) => console.error('TableDesk: the window did not reload', error));
  watchWindow(window, { dialog, reload, quit: () => app.quit() });
  // maximize() also shows the window: only once its content is ready, or it shows blank first.
  window.once('ready-to-show', () => (state.maximized ? window.maximize() : window.show()));
  let closeConfirmed = false;
  window.on('close', (event) => {
    if (closeConfirmed) return;
    // Cancelling the close cancels a quit under way (Cmd+Q, the Dock, logout): it is resumed once confirmed.
    event.preventDefault();
    void confirmClose(window, services).then((close) => {
      closeConfirmed = close;
      if (!close) quitting = false;
      else if (quitting) app.quit();
      else window.close();
    });
  });
  await window.loadURL(page);
}

/** Unsent edits are safe in the journal; the user is told they will go out on the next start. */
async function confirmClose(window: BrowserWindow, services: AppServices): Promise<boolean> {
  if (!(await services.hasPendingEdits().catch(() => false))) return true;
  const { response } = await dialog.showMessageBox(window, {
    type: 'question',
    buttons: ['Quit', 'Stay'],
    defaultId: 1,
    cancelId: 1,
    message: 'Some edits have not reached the service yet.',
    detail: 'They are saved on this computer and will be sent the next time TableDesk starts.',
  });
  return response === 0;
}

/**
 * A packaged app's better-sqlite3 is rebuilt for Electron (electron-builder's npmRebuild), so the demo server
 * runs in a worker thread of this process (its seed and queries never hold up the window). Unpacked (npm
 * start), the module is Node's build: the server runs on the Node that npm used, which host/start.ts passes
 * in TABLEDESK_NODE.
 */
function embeddedRunner(): EmbeddedRunner {
  if (app.isPackaged) return { worker: join(here, 'embedded-worker.js') };
  return { nodePath: process.env.TABLEDESK_NODE ?? 'node', appDir: app.getAppPath() };
}

/** Set by `before-quit` (Cmd+Q, Quit from the Dock, logout, the menu's Quit) until a close is refused. */
let quitting = false;

registerAppScheme();
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  void app.whenReady().then(async () => {
    nativeTheme.themeSource = 'system';
    // Every permission but the app page's own clipboard read (permissions.ts), and every device (HID, serial,
    // USB), is refused. Without a check handler Electron answers every permission check with "granted".
    session.defaultSession.setPermissionRequestHandler((_wc, permission, callback, details) =>
      callback(grantsPermission(permission, details.requestingUrl)),
    );
    session.defaultSession.setPermissionCheckHandler((_wc, permission, origin) =>
      grantsPermission(permission, origin),
    );
    session.defaultSession.setDevicePermissionHandler(() => false);
    handleDownloads(session.defaultSession, () => app.getPath('downloads'));
    serveRenderer(rendererDir);
    installMenu();
    const userData = app.getPath('userData');
    const services = createAppServices({
      userDataDir: userData,
      vault: createSafeStorageVault(userData),
      door: 'electron',
      version: app.getVersion(),
      embedded: { runner: embeddedRunner() },
      exportDestination: exportDestination({
        dialog,
        window: () => BrowserWindow.getAllWindows()[0],
        folder: () => app.getPath('downloads'),
      }),
      chooseFile: attachmentSource({ dialog, window: () => BrowserWindow.getAllWindows()[0] }),
      openLink: (url) => shell.openExternal(url),
    });
    // Electron's single-instance lock does not see the browser door (npm run web) on the same folder.
    const refused = await services.ready.then(
      () => undefined,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    if (refused !== undefined) {
      dialog.showErrorBox('TableDesk cannot start', refused);
      await services.close();
      app.exit(1);
      return;
    }
    app.on('second-instance', () => {
      const window = BrowserWindow.getAllWindows()[0];
      // macOS keeps running with no window: a second launch then opens one.
      if (window === undefined) {
        void openWindow(services);
        return;
      }
      if (window.isMinimized()) window.restore();
      window.focus();
    });
    app.on('before-quit', () => {
      quitting = true;
    });
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) void openWindow(services);
    });
    app.on('window-all-closed', () => {
      if (process.platform !== 'darwin') app.quit();
    });
    // The offer, a download later, goes to whichever window is open then.
    const updates = startUpdates({
      dialog,
      window: () => BrowserWindow.getAllWindows()[0],
      hasPendingEdits: () => services.hasPendingEdits(),
      onEditsChanged: (listener) =>
        services.events.subscribe((event) => {
          if (event === 'edits.summary') listener();
        }),
    });
    app.on('will-quit', (event) => {
      event.preventDefault();
      updates?.stop();
      void services.close().finally(() => app.exit(0));
    });
    await openWindow(services);
    const window = BrowserWindow.getAllWindows()[0];
    if (window !== undefined)
      await noticeNoSandbox({
        dialog,
        window,
        userDataDir: userData,
        noSandbox: app.commandLine.hasSwitch('no-sandbox'),
        appImage: process.env.APPIMAGE,
      }).catch((error: unknown) => console.error('TableDesk: the sandbox notice failed', error));
  });
}
