/**
 * The browser door's admission rules. Only this machine, only pages opened with the per-launch token, and
 * only our own origin: the Host check stops DNS rebinding, the Origin check stops other sites' pages from
 * talking to the socket, and the token stops other local users and processes that did not see it printed.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export interface DoorIdentity {
  token: string;
  port: number;
}

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost'];

export const cookieName = (port: number): string => `tabledesk_${port}`;

function sameSecret(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function allowedOrigins(port: number): string[] {
  return LOOPBACK_HOSTS.map((h) => `http://${h}:${port}`);
}

function hostAllowed(headers: IncomingHttpHeaders, port: number): boolean {
  return headers.host !== undefined && LOOPBACK_HOSTS.map((h) => `${h}:${port}`).includes(headers.host);
}

/** A request without Origin is a plain navigation or same-origin fetch; one with another Origin is refused. */
function originAllowed(headers: IncomingHttpHeaders, port: number, required: boolean): boolean {
  const origin = headers.origin;
  if (origin === undefined) return !required;
  return allowedOrigins(port).includes(origin);
}

function cookieToken(headers: IncomingHttpHeaders, port: number): string | undefined {
  const name = cookieName(port);
  for (const part of (headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

export function tokenFromUrl(url: string | undefined): string | undefined {
  return new URL(url ?? '/', 'http://127.0.0.1').searchParams.get('token') ?? undefined;
}

/** Why a request is refused, or undefined when it may pass. */
export function refusal(
  headers: IncomingHttpHeaders,
  url: string | undefined,
  door: DoorIdentity,
  socket: boolean,
): string | undefined {
  if (!hostAllowed(headers, door.port)) return 'This TableDesk door answers only on 127.0.0.1.';
  if (!originAllowed(headers, door.port, socket)) return 'Requests from other origins are refused.';
  const token = tokenFromUrl(url) ?? (socket ? undefined : cookieToken(headers, door.port));
  if (!sameSecret(token, door.token)) {
    return 'Open TableDesk with the address printed when it started (it carries ?token=…).';
  }
  return undefined;
}
