/**
 * The demo server's supervision (services/embedded-server/supervise.ts) on its own: how often a server that
 * keeps dying is started again, and what the user is told. Its servers here are stand-ins that die on
 * command; test/integration/app/embedded-child.test.ts kills a real one.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { supervise } from '../../../services/embedded-server/supervise';
import type { WatchedServer } from '../../../services/embedded-server/supervise';

interface Started {
  port: number | undefined;
  die: (reason: string) => void;
  closed: boolean;
}

function starter(failAfter = Infinity) {
  const started: Started[] = [];
  const start = async (port?: number): Promise<WatchedServer> => {
    if (started.length >= failAfter) throw new Error('EADDRINUSE');
    let die = (_reason: string): void => undefined;
    const exited = new Promise<string>((resolve) => (die = resolve));
    const entry: Started = { port, die, closed: false };
    started.push(entry);
    return {
      url: 'http://127.0.0.1:4321',
      apiKey: 'patX',
      bases: [],
      pid: 1000 + started.length,
      exited,
      close: async () => {
        entry.closed = true;
      },
    };
  };
  return { start, started };
}

afterEach(() => vi.useRealTimers());

describe('a supervised demo server', () => {
  it('is started again on its port each time it dies, up to three times a minute, then left down', async () => {
    vi.useFakeTimers();
    const { start, started } = starter();
    const told: string[] = [];
    const server = await supervise(start, (m) => told.push(m));
    for (let i = 0; i < 3; i++) {
      started.at(-1)!.die('SIGSEGV');
      await vi.waitFor(() => expect(started).toHaveLength(i + 2));
    }
    expect(started.map((s) => s.port)).toEqual([undefined, 4321, 4321, 4321]);
    expect(server.pid).toBe(1004);
    started.at(-1)!.die('SIGSEGV');
    await vi.waitFor(() => expect(told).toHaveLength(4));
    expect(told.at(-1)).toBe(
      'The local demo server stopped (SIGSEGV) again and is left stopped: restart TableDesk.',
    );
    expect(started).toHaveLength(4);

    // A minute later the count starts over.
    const again = starter();
    const told2: string[] = [];
    await supervise(again.start, (m) => told2.push(m));
    for (let i = 0; i < 3; i++) {
      again.started.at(-1)!.die('killed');
      await vi.waitFor(() => expect(again.started).toHaveLength(i + 2));
    }
    vi.advanceTimersByTime(61_000);
    again.started.at(-1)!.die('killed');
    await vi.waitFor(() => expect(again.started).toHaveLength(5));
    expect(told2).toHaveLength(4);
    expect(told2.every((m) => m.endsWith('and was started again.'))).toBe(true);
  });

  it('says so when it cannot be started again, and starts nothing once closed', async () => {
    const failing = starter(1);
    const told: string[] = [];
    await supervise(failing.start, (m) => told.push(m));
    failing.started[0]!.die('exit code 1');
    await vi.waitFor(() => expect(told).toHaveLength(1));
    expect(told[0]).toBe(
      'The local demo server stopped (exit code 1) and could not be started again: EADDRINUSE',
    );

    const closing = starter();
    const server = await supervise(closing.start, (m) => told.push(m));
    await server.close();
    expect(closing.started[0]!.closed).toBe(true);
    closing.started[0]!.die('exit code 0');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(closing.started).toHaveLength(1);
    expect(told).toHaveLength(1);
  });
});
