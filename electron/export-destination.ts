/**
 * Where a CSV export or a mirror's conflicts report (JSON) is saved, asked in the main process with the OS save
 * dialog: the renderer can start either but never names a file (services/edits/csv-export.ts says why). The dialog and the window are passed
 * in, so the choice can be tested without the Electron binary.
 */
import { join } from 'node:path';
import type { BrowserWindow, Dialog, SaveDialogOptions } from 'electron';
import type { ChooseDestination } from '../services/edits/csv-export';

export interface DestinationDeps {
  dialog: Pick<Dialog, 'showSaveDialog'>;
  /** The window the dialog belongs to (none while no window is open). */
  window: () => BrowserWindow | undefined;
  /** The folder the dialog opens in (the user's Downloads). */
  folder: () => string;
}

/** A name the OS accepts on every platform: no separators, reserved characters or leading dots. */
export function safeFileName(name: string): string {
  const cleaned = [...name]
    .map((c) => (c < ' ' || '\\/:*?"<>|'.includes(c) ? '_' : c))
    .join('')
    .replace(/^[.\s]+/, '');
  return cleaned.length > 0 ? cleaned.slice(0, 200) : 'export.csv';
}

/** The dialog's title and file type follow the suggested name's extension. */
const KINDS = {
  csv: { title: 'Export CSV', filter: { name: 'CSV', extensions: ['csv'] } },
  json: { title: 'Save report', filter: { name: 'JSON', extensions: ['json'] } },
};

export function exportDestination(deps: DestinationDeps): ChooseDestination {
  return async (suggestedName) => {
    const kind = suggestedName.toLowerCase().endsWith('.json') ? KINDS.json : KINDS.csv;
    const options: SaveDialogOptions = {
      title: kind.title,
      defaultPath: join(deps.folder(), safeFileName(suggestedName)),
      filters: [kind.filter],
      properties: ['createDirectory', 'showOverwriteConfirmation'],
    };
    const window = deps.window();
    const result =
      window === undefined
        ? await deps.dialog.showSaveDialog(options)
        : await deps.dialog.showSaveDialog(window, options);
    return result.canceled || result.filePath === undefined || result.filePath === ''
      ? undefined
      : result.filePath;
  };
}
