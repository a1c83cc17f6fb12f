/**
 * The main process's entry. It loads the app (main.ts) itself so that a failure to load it (a module Node's
 * loader cannot find, an error as it starts) ends the process with status 1: left to Electron, the error
 * shows a dialog and the process stays, with no window, and `npm start` never falls back to the browser door.
 * Awaited at the top level: Electron emits `ready` only once the entry has settled, so main.ts still runs
 * before it, as registering the app:// scheme requires.
 */
import { app, dialog } from 'electron';

try {
  await import('./main');
} catch (error) {
  console.error('TableDesk could not start:', error);
  if (app.isPackaged) {
    // An installed app tells the user in a dialog, which Linux can show only once the app is ready (before,
    // showErrorBox just prints): this entry settles first, then `ready` comes, then the dialog, then the exit.
    void app.whenReady().then(() => {
      dialog.showErrorBox('TableDesk could not start', String(error));
      app.exit(1);
    });
  } else {
    app.exit(1);
  }
}
