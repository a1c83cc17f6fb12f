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
  // Before `ready` this is the one dialog Electron can show (on Linux it prints to stderr instead).
  if (app.isPackaged) dialog.showErrorBox('TableDesk could not start', String(error));
  app.exit(1);
}
