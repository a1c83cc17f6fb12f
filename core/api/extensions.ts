/**
 * Which of TableDesk's own wire extensions a server answers. Only the local server has any; a client uses an
 * extension only where this says the server has it, so a hosted (Airtable) connection keeps to Airtable's wire.
 */
import { RecordTableError } from './errors';
import type { RequestOptions } from './options';
import { encodeSegment } from './query';
import type { Requester } from './requester';
import { asObject } from './responses';

const PREFIX = '/_tabledesk/v1';
export const EXTENSIONS_PATH = `${PREFIX}/extensions`;

/** The extension that counts a view's records in one request (`Table.count`). */
export const COUNT_EXTENSION = 'count';

export function countPath(baseId: string, table: string): string {
  return `${PREFIX}/${encodeSegment(baseId)}/${encodeSegment(table)}/count`;
}

/** The extension that hands out the offset at any position of a list (`Table.seek`). */
export const SEEK_EXTENSION = 'seek';

export function seekPath(baseId: string, table: string): string {
  return `${PREFIX}/${encodeSegment(baseId)}/${encodeSegment(table)}/seek`;
}

/** An answer naming more is not a TableDesk server's: names are short words, and there are few. */
const MAX_NAMES = 64;
const NAME = /^[a-z][a-z0-9-]{0,39}$/;

/**
 * Statuses that mean "this server has no such path" rather than a failure: Airtable answers an unknown path
 * with 404, and proxies in front of it with 403, 405 or 400. A 401 (bad key) or a 5xx is a real failure.
 */
const NOT_ANSWERED = new Set([400, 403, 404, 405]);

export async function fetchExtensions(
  requester: Requester,
  opts?: RequestOptions,
): Promise<ReadonlySet<string>> {
  let body: unknown;
  try {
    body = await requester.send({
      signal: opts?.signal,
      priority: opts?.priority,
      // Whichever view of the client asks, this is a question about the server.
      purpose: 'schema',
      baseId: '',
      method: 'GET',
      path: EXTENSIONS_PATH,
      creates: false,
    });
  } catch (e) {
    if (
      e instanceof RecordTableError &&
      e.kind === 'http' &&
      e.status !== undefined &&
      NOT_ANSWERED.has(e.status)
    )
      return new Set();
    throw e;
  }
  const list = asObject(body, 'the extensions answer')['extensions'];
  if (!Array.isArray(list)) return new Set();
  return new Set(list.slice(0, MAX_NAMES).filter((n): n is string => typeof n === 'string' && NAME.test(n)));
}
