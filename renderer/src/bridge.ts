/**
 * The renderer's one door to the services: `window.tabledesk`. Electron's preload defines it; in the browser
 * door it is created here over the page's WebSocket (the page URL carries the per-launch token, which the
 * socket is handed as a subprotocol).
 */
import type { TableDeskApi } from '../../core/contract';
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

export { errorMessage, isChannelError } from './call-errors';
