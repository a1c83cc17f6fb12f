/**
 * The browser door: the built renderer and the contract over a WebSocket, on 127.0.0.1 only, behind a
 * per-launch token (on the page URL, then offered by the page as a socket subprotocol; never a cookie, see
 * guards.ts) and Origin/Host checks. Keys never leave this process: only contract responses and events go
 * out, redacted. No request, however malformed, gets a 5xx or takes the door down: a bad request line or
 * upgrade gets a 4xx, a frame over the limit closes that socket only.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';
import { WebSocketServer } from 'ws';
import { MAX_FRAME_BYTES, SOCKET_PATH, SOCKET_PROTOCOL } from '../core/contract/names';
import type { Dispatch } from '../services/dispatch';
import { ServiceError } from '../services/errors';
import type { EventHub } from '../services/events';
import { parseTarget, refusal } from './guards';
import { serveSocket } from './socket';

export interface DoorOptions {
  dispatch: Dispatch;
  events: EventHub;
  /** The renderer's build output (index.html and assets). */
  rendererDir: string;
  port?: number;
}

export interface RunningDoor {
  /** The address to open, with its token. */
  url: string;
  origin: string;
  token: string;
  close(): Promise<void>;
}

function contentSecurityPolicy(port: number): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    // ag-grid sets its theme and row positions through inline styles.
    "style-src 'self' 'unsafe-inline'",
    // Attachment thumbnails: the hosted service's are https; a local service's (the demo's port is random)
    // are signed links on loopback. Images only: no script or fetch reaches those origins.
    "img-src 'self' data: https: http://127.0.0.1:* http://localhost:*",
    "font-src 'self' data:",
    `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

export async function startDoor(options: DoorOptions): Promise<RunningDoor> {
  if (!existsSync(options.rendererDir)) {
    throw new ServiceError(
      'not-found',
      `The renderer is not built (${options.rendererDir} is missing): run \`npm run build:renderer\`.`,
    );
  }
  const token = randomBytes(24).toString('base64url');
  const app = Fastify({ logger: false });
  const door = { token, port: 0 };

  app.addHook('onRequest', async (request, reply) => {
    const refused = refusal(request.headers, request.url, door, false);
    if (refused !== undefined)
      return reply.code(refused.status).type('text/plain; charset=utf-8').send(refused.reason);
    reply.header('Content-Security-Policy', contentSecurityPolicy(door.port));
    // The page URL carries the token: never send it on in a Referer.
    reply.header('Referrer-Policy', 'no-referrer');
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Cache-Control', 'no-store');
  });
  // Whatever fails while answering (a path the file server cannot open), the client gets a 4xx: a request
  // from outside must never be able to make the door answer 5xx.
  app.setErrorHandler((error: { statusCode?: number }, _request, reply) => {
    const status = error.statusCode !== undefined && error.statusCode < 500 ? error.statusCode : 400;
    if (status === 400 && error.statusCode === undefined) console.error('TableDesk door:', error);
    return reply.code(status).type('text/plain; charset=utf-8').send('The request could not be answered.');
  });
  await app.register(fastifyStatic, { root: options.rendererDir, index: 'index.html' });
  // Browsers ask for it unprompted; an empty answer keeps a 404 out of the page's console.
  app.get('/favicon.ico', (_request, reply) => reply.code(204).send());

  const sockets = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_FRAME_BYTES,
    // The token's subprotocol is never echoed back: the page is answered with the plain one.
    handleProtocols: (offered) => (offered.has(SOCKET_PROTOCOL) ? SOCKET_PROTOCOL : false),
  });
  app.server.on('upgrade', (request, socket, head) => {
    // A client that resets the connection mid-handshake must not end the process.
    socket.on('error', () => socket.destroy());
    const path = parseTarget(request.url)?.pathname;
    const refused =
      path === SOCKET_PATH || path === undefined
        ? refusal(request.headers, request.url, door, true)
        : { status: 404 as const, reason: 'Not found.' };
    if (refused !== undefined) {
      const line = `HTTP/1.1 ${refused.status} ${STATUS_CODES[refused.status]}`;
      socket.end(`${line}\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${refused.reason}`);
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => serveSocket(ws, options.dispatch, options.events));
  });

  await app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  const address = app.server.address();
  door.port = typeof address === 'object' && address !== null ? address.port : 0;
  const origin = `http://127.0.0.1:${door.port}`;
  return {
    url: `${origin}/?token=${token}`,
    origin,
    token,
    async close() {
      for (const ws of sockets.clients) ws.terminate();
      sockets.close();
      await app.close();
    },
  };
}
