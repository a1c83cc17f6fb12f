/**
 * An AppImage on a system that refuses it user namespaces (Ubuntu 24.04 and later) is started by its launcher
 * (electron-builder's AppRun) with `--no-sandbox`, since Chromium would otherwise abort before any window. The
 * user is told once per start, until they say "Don't show again", and pointed to the deb, whose AppArmor
 * profile keeps the sandbox. The dialog is passed in, so the notice can be tested with the Electron stand-in.
 */
import { join } from 'node:path';
import type { BrowserWindow, Dialog } from 'electron';
import { z } from 'zod';
import { readJsonFile, writeJsonFile } from '../services/storage/json-file';

export interface SandboxNoticeDeps {
  dialog: Pick<Dialog, 'showMessageBox'>;
  window: BrowserWindow;
  userDataDir: string;
  /** Electron's command line: whether this run has `--no-sandbox`. */
  noSandbox: boolean;
  /** The AppImage this run came from (its runtime sets APPIMAGE), if any. */
  appImage: string | undefined;
}

const noticesSchema = z.object({ noSandboxDismissed: z.boolean().optional() });

export async function noticeNoSandbox(deps: SandboxNoticeDeps): Promise<void> {
  if (!deps.noSandbox || deps.appImage === undefined) return;
  const file = join(deps.userDataDir, 'notices.json');
  const notices = await readJsonFile(file, noticesSchema, {});
  if (notices.noSandboxDismissed) return;
  const { checkboxChecked } = await deps.dialog.showMessageBox(deps.window, {
    type: 'info',
    buttons: ['OK'],
    message: "TableDesk runs without Chromium's sandbox here.",
    detail:
      'This system does not let an AppImage use the user namespaces the sandbox needs (Ubuntu 24.04 and ' +
      'later restrict them), so the AppImage started TableDesk without it. The page still runs isolated ' +
      'from your files and keys, but for the full sandbox install the .deb package, which sets it up.',
    checkboxLabel: "Don't show again",
  });
  if (checkboxChecked) await writeJsonFile(file, { ...notices, noSandboxDismissed: true });
}
