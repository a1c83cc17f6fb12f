/** Transport names, kept free of dependencies so the preload bundle stays small. */

/** Electron IPC channel names (preload ↔ main). */
export const IPC_CALL = 'tabledesk:call';
export const IPC_EVENT = 'tabledesk:event';

/** The browser door's WebSocket path; the page's `token` query parameter must be repeated on it. */
export const SOCKET_PATH = '/tabledesk-socket';
