/**
 * Updates of the installed app through electron-updater: the feed is the one the build wrote into the app
 * (resources/app-update.yml), or TABLEDESK_UPDATE_URL's; the policy (when to check, when to offer the
 * restart) is services/updates/update-flow.ts. A build with no feed (an unpacked run, `--publish never` with
 * publish removed) and the tar.gz look for nothing. An AppImage is replaced where it lies and started again
 * once this process has exited (started before, it would lose the single-instance lock to this one).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { app, autoUpdater as electronAutoUpdater } from 'electron';
import type { BrowserWindow, Dialog } from 'electron';
import updaterModule from 'electron-updater';
import type { UpdateDownloadedEvent } from 'electron-updater';
import { startUpdateFlow, updateFeed } from '../services/updates/update-flow';
import type { UpdateFlow } from '../services/updates/update-flow';

export interface UpdatesOptions {
  dialog: Pick<Dialog, 'showMessageBox'>;
  window: () => BrowserWindow | undefined;
  hasPendingEdits(): Promise<boolean>;
  onEditsChanged(listener: () => void): () => void;
}

export function startUpdates(options: UpdatesOptions): UpdateFlow | undefined {
  let feed;
  try {
    feed = updateFeed(process.env.TABLEDESK_UPDATE_URL);
  } catch (error) {
    console.error(`TableDesk: no updates: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
  // The updater keeps its downloads in a folder app-update.yml names, so it needs the file even with a feed URL.
  if (feed.kind === 'off' || !app.isPackaged || !existsSync(join(process.resourcesPath, 'app-update.yml')))
    return undefined;
  const { autoUpdater } = updaterModule;
  autoUpdater.autoDownload = true;
  // Installed only when the user says so: a deb asks for a password, which must not come at a quit.
  autoUpdater.autoInstallOnAppQuit = false;
  if (feed.kind === 'generic') autoUpdater.setFeedURL({ provider: 'generic', url: feed.url });
  let appImage = process.env.APPIMAGE;
  autoUpdater.on('appimage-filename-updated', (path: string) => (appImage = path));

  return startUpdateFlow({
    updater: {
      async check() {
        // The download's failure is the check's: left alone, its promise would reject unhandled.
        await (
          await autoUpdater.checkForUpdates()
        )?.downloadPromise;
      },
      onDownloaded(listener) {
        autoUpdater.on('update-downloaded', (event: UpdateDownloadedEvent) => listener(event.version));
      },
      install() {
        if (appImage === undefined) {
          autoUpdater.quitAndInstall(false, true);
          return;
        }
        // Emitted once the new AppImage is in place, just before the updater quits the app.
        electronAutoUpdater.once('before-quit-for-update', () => app.relaunch({ execPath: appImage }));
        autoUpdater.quitAndInstall(true, false);
      },
    },
    hasPendingEdits: options.hasPendingEdits,
    onEditsChanged: options.onEditsChanged,
    async offer(version) {
      const window = options.window();
      const box = {
        type: 'info' as const,
        buttons: ['Restart to update', 'Later'],
        defaultId: 0,
        cancelId: 1,
        message: `TableDesk ${version} is ready to install.`,
        detail: 'Every edit has reached its service. TableDesk restarts with the new version.',
      };
      const { response } = await (window === undefined
        ? options.dialog.showMessageBox(box)
        : options.dialog.showMessageBox(window, box));
      return response === 0;
    },
    log: (message, error) => console.error(`TableDesk: ${message}`, error),
  });
}
