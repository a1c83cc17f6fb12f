/**
 * The browser door's admission rules. Only this machine, only pages opened with the per-launch token, and
 * only our own origin: the Host check stops DNS rebinding, the Origin check stops other sites' pages from
 * talking to the socket, and the token stops other local users and processes that did not see it printed.
 *
 * The token is never put in a cookie: browsers send a 127.0.0.1 cookie to every server on 127.0.0.1,
 * whatever its port, so any local web server the user visits would receive it. The page's HTML is answered
 * only to the address with `?token=`; the page hands the token to the socket as an offered subprotocol
 * (core/contract/names.ts), which only a script of the page can set and which goes to this socket alone. The
 * page's scripts and styles are the public build output and need no token: without the socket they reach
 * nothing.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { TOKEN_PROTOCOL_PREFIX } from '../core/contract/names';

export interface DoorIdentity {
  token: string;
  port: number;
}

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost'];

/** The door's HTML page: only it needs `?token=` (it is what the printed address opens). */
const PAGE_PATHS = new Set(['/', '/index.html']);

function sameSecret(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function hostAllowed(headers: IncomingHttpHeaders, port: number): boolean {
  return headers.host !== undefined && LOOPBACK_HOSTS.map((h) => `${h}:${port}`).includes(headers.host);
}

/**
 * A request without Origin is a plain navigation or same-origin GET; one with another Origin is refused. The
 * origin must name this exact port: another server on 127.0.0.1 is another origin.
 */
function originAllowed(headers: IncomingHttpHeaders, port: number, required: boolean): boolean {
  const origin = headers.origin;
  if (origin === undefined) return !required;
  return LOOPBACK_HOSTS.map((h) => `http://${h}:${port}`).includes(origin);
}

/** The request's path and query, or undefined when the request line is not a path we can read. */
export function parseTarget(url: string | undefined): URL | undefined {
  if (url === undefined || !url.startsWith('/') || url.startsWith('//')) return undefined;
  try {
    return new URL(url, 'http://127.0.0.1');
  } catch {
    return undefined;
  }
}

/** The token the page offered as a subprotocol, if any. */
function protocolToken(headers: IncomingHttpHeaders): string | undefined {
  const offered = (headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
  const entry = offered.find((p) => p.startsWith(TOKEN_PROTOCOL_PREFIX));
  return entry?.slice(TOKEN_PROTOCOL_PREFIX.length);
}

export type Refusal = { status: 400 | 403 | 404; reason: string };

/** Why a request is refused (with the status to answer), or undefined when it may pass. */
export function refusal(
  headers: IncomingHttpHeaders,
  url: string | undefined,
  door: DoorIdentity,
  socket: boolean,
): Refusal | undefined {
  const target = parseTarget(url);
  if (target === undefined) return { status: 400, reason: 'Malformed request path.' };
  if (!hostAllowed(headers, door.port))
    return { status: 403, reason: 'This TableDesk door answers only on 127.0.0.1.' };
  if (!originAllowed(headers, door.port, socket))
    return { status: 403, reason: 'Requests from other origins are refused.' };
  const needsToken = socket || PAGE_PATHS.has(target.pathname);
  if (!needsToken) return undefined;
  const token = socket ? protocolToken(headers) : (target.searchParams.get('token') ?? undefined);
  if (!sameSecret(token, door.token)) {
    return {
      status: 403,
      reason: 'Open TableDesk with the address printed when it started (it carries ?token=…).',
    };
  }
  return undefined;
}
