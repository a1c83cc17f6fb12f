/**
 * The browser door: the built renderer and the contract over a WebSocket, on 127.0.0.1 only, behind a
 * per-launch token (on the page URL, then an HttpOnly cookie for the page's assets, and on the socket URL)
 * and Origin/Host checks. Keys never leave this process: only contract responses and events go out.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';
import { WebSocketServer } from 'ws';
import { SOCKET_PATH } from '../core/contract';
import type { Dispatch } from '../services/dispatch';
import type { EventHub } from '../services/events';
import { cookieName, refusal, tokenFromUrl } from './guards';
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

const MAX_FRAME_BYTES = 1 << 20;

function contentSecurityPolicy(port: number): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    // ag-grid sets its theme and row positions through inline styles.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    "font-src 'self' data:",
    `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

export async function startDoor(options: DoorOptions): Promise<RunningDoor> {
  if (!existsSync(options.rendererDir)) {
    throw new Error(
      `The renderer is not built (${options.rendererDir} is missing): run \`npm run build:renderer\`.`,
    );
  }
  const token = randomBytes(24).toString('base64url');
  const app = Fastify({ logger: false });
  const door = { token, port: 0 };

  app.addHook('onRequest', async (request, reply) => {
    const refused = refusal(request.headers, request.url, door, false);
    if (refused !== undefined) return reply.code(403).type('text/plain; charset=utf-8').send(refused);
    reply.header('Content-Security-Policy', contentSecurityPolicy(door.port));
    // The page URL carries the token: never send it on in a Referer.
    reply.header('Referrer-Policy', 'no-referrer');
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Cache-Control', 'no-store');
    if (tokenFromUrl(request.url) !== undefined) {
      reply.header('Set-Cookie', `${cookieName(door.port)}=${token}; HttpOnly; SameSite=Strict; Path=/`);
    }
  });
  await app.register(fastifyStatic, { root: options.rendererDir, index: 'index.html' });
  // Browsers ask for it unprompted; an empty answer keeps a 404 out of the page's console.
  app.get('/favicon.ico', (_request, reply) => reply.code(204).send());

  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  app.server.on('upgrade', (request, socket, head) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    const refused = path === SOCKET_PATH ? refusal(request.headers, request.url, door, true) : 'Not found.';
    if (refused !== undefined) {
      socket.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${refused}`);
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
