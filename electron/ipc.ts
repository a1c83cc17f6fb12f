/**
 * The contract over Electron IPC: one invoke channel for calls and one send channel for events. Every call
 * is checked for its sender (the app's own top frame, nothing else) before the shared dispatcher validates
 * the request against the contract's schema.
 */
import { ipcMain } from 'electron';
import type { BrowserWindow, WebFrameMain } from 'electron';
import { IPC_CALL, IPC_EVENT } from '../core/contract';
import type { CallResult } from '../core/contract';
import type { AppServices } from '../services/app';
import { isAppUrl } from './app-protocol';

/** The window's own top frame (not an iframe, not another window), showing our app:// page. */
function senderAllowed(frame: WebFrameMain | null, window: BrowserWindow): boolean {
  if (frame === null || window.isDestroyed()) return false;
  const main = window.webContents.mainFrame;
  return frame.processId === main.processId && frame.routingId === main.routingId && isAppUrl(frame.url);
}

const refused: CallResult = {
  ok: false,
  error: { kind: 'invalid-request', message: 'Refused: the call did not come from the TableDesk window.' },
};

export function bindIpc(services: AppServices, window: BrowserWindow): () => void {
  ipcMain.handle(IPC_CALL, (event, channel: unknown, request: unknown) =>
    senderAllowed(event.senderFrame, window) ? services.dispatch(channel, request) : refused,
  );
  const unsubscribe = services.events.subscribe((name, payload) => {
    if (!window.isDestroyed()) window.webContents.send(IPC_EVENT, name, payload);
  });
  return () => {
    ipcMain.removeHandler(IPC_CALL);
    unsubscribe();
  };
}
