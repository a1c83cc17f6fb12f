/**
 * Which file to attach, asked in the main process with the OS open dialog: the renderer asks for a pick but
 * never names or reads a path (services/attachments/uploads.ts reads the chosen file). The dialog and the
 * window are passed in, so the choice can be tested without the Electron binary.
 */
import type { BrowserWindow, Dialog, OpenDialogOptions } from 'electron';
import type { ChooseFile } from '../services/attachments/uploads';

export interface SourceDeps {
  dialog: Pick<Dialog, 'showOpenDialog'>;
  window: () => BrowserWindow | undefined;
}

export function attachmentSource(deps: SourceDeps): ChooseFile {
  return async () => {
    const options: OpenDialogOptions = { title: 'Attach a file', properties: ['openFile'] };
    const window = deps.window();
    const result =
      window === undefined
        ? await deps.dialog.showOpenDialog(options)
        : await deps.dialog.showOpenDialog(window, options);
    return result.canceled ? undefined : result.filePaths[0];
  };
}
