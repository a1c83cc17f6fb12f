/** What "Test connection" tells the user for each way a connection can fail, in words rather than socket codes. */
import type { Response } from '../../core/contract';
import { toChannelError } from '../errors';

const TLS_CODES = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'EPROTO',
]);

/** The socket error's code: fetch (undici) wraps it as `cause`, sometimes twice. */
export function networkCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e !== null && typeof e === 'object' && depth < 5; depth++) {
    const { code } = e as { code?: unknown };
    if (typeof code === 'string' && code.length > 0) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The innermost error's message: the socket's own words, without the "fetch failed" wrappers. */
function innermost(error: unknown): string | undefined {
  let message: string | undefined;
  for (let e: unknown = error, depth = 0; e !== null && typeof e === 'object' && depth < 5; depth++) {
    const m = (e as { message?: unknown }).message;
    if (typeof m === 'string' && m.length > 0) message = m;
    e = (e as { cause?: unknown }).cause;
  }
  return message;
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

/** A sentence for a failure to reach the service, or undefined when the code says nothing a person can act on. */
export function describeNetworkCode(code: string | undefined, baseUrl: string): string | undefined {
  const host = hostOf(baseUrl);
  if (code === 'ECONNREFUSED')
    return `Cannot reach ${host}: nothing is listening there. Is the server running?`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return `Cannot find the server ${host}: the name does not resolve. Check the base URL and your network.`;
  }
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return `Cannot reach ${host}: the connection timed out. Check the base URL, your network or a firewall.`;
  }
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') {
    return `${host} closed the connection. Check that the base URL's scheme (http or https) and port are right.`;
  }
  if (code === 'ENETUNREACH' || code === 'EHOSTUNREACH') {
    return `Cannot reach ${host}: no network route to it. Check your network connection.`;
  }
  if (code !== undefined && TLS_CODES.has(code)) {
    return `Cannot set up a secure connection to ${host}: its certificate or TLS setup was refused (${code}). Check the base URL.`;
  }
  return undefined;
}

export function describeTestFailure(
  error: unknown,
  baseUrl: string,
  timeoutMs: number,
): Response<'connections.test'> {
  const e = toChannelError(error);
  const fail = (message: string): Response<'connections.test'> =>
    e.status === undefined ? { ok: false, message } : { ok: false, message, status: e.status };
  switch (e.kind) {
    case 'network':
      return fail(
        describeNetworkCode(networkCode(error), baseUrl) ??
          `Could not reach ${hostOf(baseUrl)} (${innermost(error) ?? 'no answer'}). Check the base URL and your network.`,
      );
    case 'timeout':
      return fail(
        `${hostOf(baseUrl)} did not answer within ${timeoutMs / 1000} s. Is the server running and reachable?`,
      );
    case 'http':
      break;
    default:
      return fail(e.message);
  }
  if (e.status === 401)
    return fail('The service refused the API key (401). Check that the key is complete and not revoked.');
  if (e.status === 403) {
    return fail(
      'The key was accepted but is not allowed to do this (403). Give it access to the base, or the scopes ' +
        'data.records:read and schema.bases:read.',
    );
  }
  if (e.status === 404)
    return fail(`${baseUrl} does not look like a Record Table Service (404). Check the base URL.`);
  return fail(`The service answered ${e.status}: ${e.message}`);
}
