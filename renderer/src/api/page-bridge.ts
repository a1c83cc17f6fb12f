/**
 * The page's bridge to the services: `window.tabledesk`. Electron's preload defines it; in the browser door
 * it is created here over the page's WebSocket (the page URL carries the per-launch token, which the socket is
 * handed as a subprotocol). Only `main.tsx` reads it, to hand it to `ApiProvider`: everything else reaches the
 * services through `useApi()` or the api it is given, so a test can give any of them an api of its own.
 */
import type { TableDeskApi } from '../../../core/contract';
import '../../../core/contract/window';
import { connectSocketBridge, socketAddressFor } from '../../../core/contract/socket-bridge';

function openSocketBridge(): TableDeskApi {
  const socket = socketAddressFor(location.href);
  return connectSocketBridge(new WebSocket(socket.url, socket.protocols));
}

export function pageBridge(): TableDeskApi {
  window.tabledesk ??= openSocketBridge();
  return window.tabledesk;
}
