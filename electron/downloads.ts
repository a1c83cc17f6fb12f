/**
 * Downloads the page starts itself (`will-download`): the app's own files (a blob: or data: URL of the app's
 * page) and links the app may open (https, a local service's signed attachment links) go through the save
 * dialog, in the user's Downloads folder, under a name every OS accepts; anything else is cancelled. Never a
 * file written where the user was not asked. Attachments' Save goes through the services instead
 * (services/attachments/files.ts); this is the window's own path, so none is silent.
 */
import { join } from 'node:path';
import type { DownloadItem, Event, Session } from 'electron';
import { opensExternally } from '../core/records/external-links';
import { APP_ORIGIN } from './app-path';
import { safeFileName } from './export-destination';

export function downloadAllowed(url: string): boolean {
  if (url.startsWith('data:')) return true;
  if (url.startsWith('blob:')) return url.startsWith(`blob:${APP_ORIGIN}/`);
  return opensExternally(url);
}

export function handleDownloads(session: Pick<Session, 'on'>, folder: () => string): void {
  session.on('will-download', (event: Event, item: DownloadItem) => {
    if (!downloadAllowed(item.getURL())) {
      event.preventDefault();
      return;
    }
    item.setSaveDialogOptions({
      title: 'Save file',
      defaultPath: join(folder(), safeFileName(item.getFilename())),
      properties: ['createDirectory', 'showOverwriteConfirmation'],
    });
    item.once('done', (_event, state) => {
      if (state === 'interrupted')
        console.error(`TableDesk: the download of ${item.getFilename()} was interrupted`);
    });
  });
}
