/**
 * Closing the server is bounded: a connection still busy when close starts (here a request whose headers never
 * end) is cut after the grace period, rather than holding close up until Node's own timeouts (60 s and more).
 * The app closes its embedded server on quit and the tests after every file, so an unbounded close hangs both.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../../server/index';

describe('server close', () => {
  it('ends within the grace period while a request is still in flight', async () => {
    const server = await startServer({ memory: true });
    const { hostname, port } = new URL(server.url);
    const socket = connect(Number(port), hostname);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write(`GET /v0/meta/bases HTTP/1.1\r\nHost: ${hostname}:${port}\r\n`);
    await new Promise((r) => setTimeout(r, 100));

    const started = Date.now();
    await server.close();
    const took = Date.now() - started;
    await closed;
    // The grace period is 5 s; Node alone would wait for its 60 s headers timeout.
    expect(took).toBeLessThan(20_000);
    expect(took).toBeGreaterThanOrEqual(4_000);
  }, 40_000);
});
