/**
 * The browser door's side of `window.tabledesk`: the contract over a WebSocket. It is written against a
 * structural socket so it runs in the page (browser `WebSocket`) and in Node tests (`ws`) alike.
 * Renderer: `window.tabledesk ??= connectSocketBridge(new WebSocket(socketUrlFor(location.href)))`.
 */
import type { TableDeskApi } from './api';
import type { ChannelError } from './schemas';
import { SOCKET_PATH } from './names';
import { serverFrameSchema } from './wire';

export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  addEventListener(type: 'open' | 'close' | 'error', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}

const OPEN = 1;
const CLOSED = 3;

/** ws(s)://host/SOCKET_PATH?token=… from the page's own address (the token the door printed). */
export function socketUrlFor(pageHref: string): string {
  const page = new URL(pageHref);
  const url = new URL(SOCKET_PATH, page);
  url.protocol = page.protocol === 'https:' ? 'wss:' : 'ws:';
  url.search = '';
  const token = page.searchParams.get('token');
  if (token !== null) url.searchParams.set('token', token);
  return url.toString();
}

const closedError: ChannelError = {
  kind: 'network',
  message: 'The connection to TableDesk closed. Reload the page to reconnect.',
};

export function connectSocketBridge(socket: SocketLike): TableDeskApi {
  let nextId = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: ChannelError) => void }>();
  const waiting: string[] = [];
  const handlers = new Map<string, Set<(payload: unknown) => void>>();

  socket.addEventListener('open', () => {
    for (const frame of waiting.splice(0)) socket.send(frame);
  });
  socket.addEventListener('close', () => {
    for (const p of pending.values()) p.reject(closedError);
    pending.clear();
  });
  socket.addEventListener('message', (event) => {
    if (typeof event.data !== 'string') return;
    const parsed = serverFrameSchema.safeParse(JSON.parse(event.data));
    if (!parsed.success) return;
    const frame = parsed.data;
    if (frame.t === 'event') {
      for (const handler of handlers.get(frame.event) ?? []) handler(frame.payload);
      return;
    }
    const call = pending.get(frame.id);
    if (call === undefined) return;
    pending.delete(frame.id);
    if (frame.result.ok) call.resolve(frame.result.response);
    else call.reject(frame.result.error);
  });

  return {
    call(channel, request) {
      if (socket.readyState === CLOSED) return Promise.reject(closedError);
      const id = nextId++;
      const frame = JSON.stringify({ t: 'call', id, channel, request });
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        if (socket.readyState === OPEN) socket.send(frame);
        else waiting.push(frame);
      });
    },
    on(event, handler) {
      const set = handlers.get(event) ?? new Set();
      handlers.set(event, set);
      const h = handler as (payload: unknown) => void;
      set.add(h);
      return () => set.delete(h);
    },
  };
}
