/**
 * The browser door's side of `window.tabledesk`: the contract over a WebSocket. It is written against a
 * structural socket so it runs in the page (browser `WebSocket`) and in Node tests (`ws`) alike.
 * Renderer: `const s = socketAddressFor(location.href)` then
 * `window.tabledesk ??= connectSocketBridge(new WebSocket(s.url, s.protocols))`.
 * A call whose frame would exceed the door's frame limit is split (split-calls) or refused with a clear error
 * before anything is sent.
 */
import type { TableDeskApi } from './api';
import type { ChannelName } from './registry';
import type { ChannelError } from './schemas';
import { MAX_FRAME_BYTES, SOCKET_PATH, SOCKET_PROTOCOL, TOKEN_PROTOCOL_PREFIX } from './names';
import { splitCall, utf8Length } from './split-calls';
import { serverFrameSchema } from './wire';

export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  addEventListener(type: 'open' | 'close' | 'error', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}

const OPEN = 1;
const CLOSED = 3;

/**
 * ws(s)://host/SOCKET_PATH from the page's own address, and the subprotocols that carry the token the door
 * printed (names.ts says why not the URL or a cookie).
 */
export function socketAddressFor(pageHref: string): { url: string; protocols: string[] } {
  const page = new URL(pageHref);
  const url = new URL(SOCKET_PATH, page);
  url.protocol = page.protocol === 'https:' ? 'wss:' : 'ws:';
  url.search = '';
  const token = page.searchParams.get('token');
  return {
    url: url.toString(),
    protocols: token === null ? [SOCKET_PROTOCOL] : [SOCKET_PROTOCOL, `${TOKEN_PROTOCOL_PREFIX}${token}`],
  };
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

  const send = (channel: string, request: unknown): Promise<unknown> => {
    if (socket.readyState === CLOSED) return Promise.reject(closedError);
    const id = nextId++;
    const frame = JSON.stringify({ t: 'call', id, channel, request });
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      if (socket.readyState === OPEN) socket.send(frame);
      else waiting.push(frame);
    });
  };

  /** One call, or its parts one after another when its frame would be over the door's limit. */
  const call = async (channel: ChannelName, request: unknown): Promise<unknown> => {
    const frameOf = (r: unknown): string =>
      JSON.stringify({ t: 'call', id: Number.MAX_SAFE_INTEGER, channel, request: r });
    const size = utf8Length(frameOf(request));
    if (size <= MAX_FRAME_BYTES) return send(channel, request);
    const split = splitCall(channel, request, frameOf, MAX_FRAME_BYTES);
    if (split === undefined) {
      const error: ChannelError = {
        kind: 'invalid-request',
        message: `This ${channel} call is ${Math.ceil(size / 1024)} KiB, over the ${MAX_FRAME_BYTES / 1024} KiB a call may carry: send less at once.`,
      };
      throw error;
    }
    const answers: unknown[] = [];
    for (const part of split.requests) answers.push(await send(channel, part));
    return split.merge(answers);
  };

  return {
    call: (channel, request) => call(channel, request) as never,
    on(event, handler) {
      const set = handlers.get(event) ?? new Set();
      handlers.set(event, set);
      const h = handler as (payload: unknown) => void;
      set.add(h);
      return () => set.delete(h);
    },
  };
}
