/**
 * Where a CSV export, a mirror's conflicts report (JSON) or an attachment is saved, asked in the main process
 * with the OS save dialog: the renderer can start each but never names a file (services/edits/csv-export.ts
 * says why). The dialog and the window are passed in, so the choice can be tested without the Electron binary.
 */
import { extname, join } from 'node:path';
import type { BrowserWindow, Dialog, FileFilter, SaveDialogOptions } from 'electron';
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

/** An export's or report's dialog title and file type follow the suggested name's extension. */
const KINDS = {
  csv: { title: 'Export CSV', filters: [{ name: 'CSV', extensions: ['csv'] }] },
  json: { title: 'Save report', filters: [{ name: 'JSON', extensions: ['json'] }] },
};

/** Any other file (an attachment): its own extension first, then any. */
function otherKind(title: string, name: string): { title: string; filters: FileFilter[] } {
  const ext = extname(name).slice(1);
  const all = { name: 'All files', extensions: ['*'] };
  return { title, filters: ext === '' ? [all] : [{ name: ext.toUpperCase(), extensions: [ext] }, all] };
}

export function exportDestination(deps: DestinationDeps): ChooseDestination {
  return async (suggestedName, asked) => {
    const name = safeFileName(suggestedName);
    const kind =
      asked?.title !== undefined
        ? otherKind(asked.title, name)
        : name.toLowerCase().endsWith('.json')
          ? KINDS.json
          : KINDS.csv;
    const options: SaveDialogOptions = {
      title: kind.title,
      defaultPath: join(deps.folder(), name),
      filters: kind.filters,
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
