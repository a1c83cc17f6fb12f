/** Transport names, kept free of dependencies so the preload bundle stays small. */

/** Electron IPC channel names (preload ↔ main). */
export const IPC_CALL = 'tabledesk:call';
export const IPC_EVENT = 'tabledesk:event';

/** The browser door's WebSocket path. */
export const SOCKET_PATH = '/tabledesk-socket';
/** The subprotocol the door answers with; the page offers it together with its token's (below). */
export const SOCKET_PROTOCOL = 'tabledesk.v1';
/**
 * The page hands the door's token over as a second offered subprotocol, `tabledesk.token.<token>`: only a
 * script can set that header, it is sent to this socket alone (unlike a cookie, which every server on
 * 127.0.0.1 receives, whatever its port), and it never appears in a URL.
 */
export const TOKEN_PROTOCOL_PREFIX = 'tabledesk.token.';
/** The largest frame the door reads; a larger call is split by the bridge (core/contract/split-calls). */
export const MAX_FRAME_BYTES = 1 << 20;
