/**
 * A window whose page crashed or hangs is not left blank: the user is asked to reload it or quit. Nothing
 * typed into the grid is lost with the page (edits live in the main process's journal from the moment they
 * are made), so the dialog says so. A hang that ends by itself closes its dialog. The dialog and the window
 * are passed in, so the choices can be tested with the Electron stand-in.
 */
import type { BrowserWindow, Dialog, MessageBoxOptions, RenderProcessGoneDetails } from 'electron';

export interface RecoveryDeps {
  dialog: Pick<Dialog, 'showMessageBox'>;
  /** Shows the app's page again in the window. */
  reload: () => void;
  quit: () => void;
}

const SAFE =
  'Your edits are safe: the ones not yet sent are kept on this computer and go out as usual after a reload.';

const GONE: Record<RenderProcessGoneDetails['reason'], string> = {
  'clean-exit': 'stopped',
  'abnormal-exit': 'stopped unexpectedly',
  killed: 'was stopped by the system',
  crashed: 'crashed',
  oom: 'ran out of memory',
  'launch-failed': 'could not start',
  'integrity-failure': 'failed a code integrity check',
  'memory-eviction': 'was closed to free memory',
};

export function watchWindow(window: BrowserWindow, deps: RecoveryDeps): void {
  let asking = false;
  let open: Promise<void> = Promise.resolve();
  let hang: AbortController | undefined;

  const ask = (options: MessageBoxOptions, actions: (() => void)[]): void => {
    if (asking || window.isDestroyed()) return;
    asking = true;
    open = deps.dialog
      .showMessageBox(window, options)
      .then(({ response }) => {
        if (!window.isDestroyed()) actions[response]?.();
      })
      .finally(() => {
        asking = false;
      });
  };

  window.webContents.on('render-process-gone', (_event, details) => {
    // A window being closed ends its page cleanly: nothing to recover.
    if (details.reason === 'clean-exit' || window.isDestroyed()) return;
    // A crash ends a hang: its dialog closes (as "Wait") and this one follows.
    hang?.abort();
    void open.then(() =>
      ask(
        {
          type: 'warning',
          buttons: ['Reload', 'Quit'],
          defaultId: 0,
          cancelId: 0,
          message: `TableDesk's window ${GONE[details.reason]}.`,
          detail: SAFE,
        },
        [deps.reload, deps.quit],
      ),
    );
  });

  window.on('unresponsive', () => {
    hang = new AbortController();
    ask(
      {
        type: 'warning',
        buttons: ['Wait', 'Reload', 'Quit'],
        defaultId: 0,
        cancelId: 0,
        message: "TableDesk's window is not responding.",
        detail: `Wait for it, or reload it. ${SAFE}`,
        signal: hang.signal,
      },
      [() => undefined, deps.reload, deps.quit],
    );
  });
  window.on('responsive', () => {
    hang?.abort();
    hang = undefined;
  });
}
