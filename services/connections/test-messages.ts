/** What "Test connection" tells the user for each way a connection can fail. */
import type { Response } from '../../core/contract';
import { toChannelError } from '../errors';

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
      return fail(`Could not reach ${baseUrl}: ${e.message} Check the base URL and your network.`);
    case 'timeout':
      return fail(`${baseUrl} did not answer within ${timeoutMs / 1000} s.`);
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
