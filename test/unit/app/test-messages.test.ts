import { describe, expect, it } from 'vitest';
import { RecordTableError } from '../../../core/api';
import { describeTestFailure } from '../../../services/connections/test-messages';

/** A network failure shaped as fetch (undici) gives it: the socket error twice wrapped in `cause`. */
function networkFailure(code: string): RecordTableError {
  const socket = Object.assign(new Error(`connect ${code} 127.0.0.1:4999`), { code });
  const fetchError = new TypeError('fetch failed', { cause: socket });
  return new RecordTableError({
    kind: 'network',
    message: `GET /v0/meta/whoami failed: fetch failed`,
    cause: fetchError,
  });
}

const message = (error: unknown, baseUrl = 'http://127.0.0.1:4999') =>
  describeTestFailure(error, baseUrl, 10_000).message;

describe('messages for a failed connection test', () => {
  it('says nothing is listening when the connection is refused, without the socket code', () => {
    const text = message(networkFailure('ECONNREFUSED'));
    expect(text).toBe('Cannot reach 127.0.0.1:4999: nothing is listening there. Is the server running?');
  });

  it('says the name does not resolve for a DNS failure', () => {
    expect(message(networkFailure('ENOTFOUND'), 'https://no-such-host.invalid')).toBe(
      'Cannot find the server no-such-host.invalid: the name does not resolve. Check the base URL and your network.',
    );
  });

  it('says the connection timed out for a connect timeout and for the client timeout', () => {
    expect(message(networkFailure('UND_ERR_CONNECT_TIMEOUT'))).toMatch(
      /^Cannot reach 127\.0\.0\.1:4999: the connection timed out/,
    );
    const late = new RecordTableError({
      kind: 'timeout',
      message: 'GET /v0/meta/whoami timed out after 10000 ms',
    });
    expect(message(late)).toBe(
      '127.0.0.1:4999 did not answer within 10 s. Is the server running and reachable?',
    );
  });

  it('names a certificate problem as a secure-connection failure', () => {
    expect(message(networkFailure('DEPTH_ZERO_SELF_SIGNED_CERT'), 'https://example.test')).toMatch(
      /^Cannot set up a secure connection to example\.test: its certificate/,
    );
  });

  it('falls back to a plain sentence for an unknown code, never the raw fetch text', () => {
    const text = message(networkFailure('EWHATEVER'));
    expect(text).toBe(
      'Could not reach 127.0.0.1:4999 (connect EWHATEVER 127.0.0.1:4999). Check the base URL and your network.',
    );
    expect(text).not.toMatch(/fetch failed/);
  });

  it('keeps the status for a refused key', () => {
    const refused = new RecordTableError({ kind: 'http', status: 401, message: 'Unauthorized' });
    expect(describeTestFailure(refused, 'http://x', 10_000)).toMatchObject({ ok: false, status: 401 });
  });
});
