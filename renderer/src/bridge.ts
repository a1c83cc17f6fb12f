/**
 * The renderer's one door to the services: `window.tabledesk`. Electron's preload defines it; in the browser
 * door it is created here over the page's WebSocket (the page URL carries the per-launch token, which the
 * socket is handed as a subprotocol).
 */
import type { ChannelError, TableDeskApi } from '../../core/contract';
import '../../core/contract/window';
import { connectSocketBridge, socketAddressFor } from '../../core/contract/socket-bridge';

function openSocketBridge(): TableDeskApi {
  const socket = socketAddressFor(location.href);
  return connectSocketBridge(new WebSocket(socket.url, socket.protocols));
}

export function tabledesk(): TableDeskApi {
  window.tabledesk ??= openSocketBridge();
  return window.tabledesk;
}

export function isChannelError(e: unknown): e is ChannelError {
  return typeof e === 'object' && e !== null && typeof (e as { message?: unknown }).message === 'string';
}

/** A readable line for any failure a call rejects with. */
export function errorMessage(e: unknown): string {
  if (isChannelError(e)) return e.message;
  return e instanceof Error ? e.message : String(e);
}
