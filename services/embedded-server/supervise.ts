/**
 * The demo server outside this thread (a child process, a worker thread) can die after it started: a native
 * crash in SQLite or libvips (in a child process), a kill, an out-of-memory, an error nothing caught. It is then started again
 * on the same port, so every link the app holds (the demo connection, the mirrors' copy, signed attachment
 * links) stays good, and the user is told; one that keeps dying (three times in a minute) or cannot start
 * again is left down, and the user is told that instead.
 */
import type { RunningServer } from '../../server/index';

/** A server this process started elsewhere; `exited` settles when it stops without being closed. */
export interface WatchedServer extends RunningServer {
  pid: number;
  exited: Promise<string>;
}

/** Starts the server; on the given port when one is given (a restart). */
export type StartWatched = (port?: number) => Promise<WatchedServer>;

const MAX_RESTARTS = 3;
const RESTART_WINDOW_MS = 60_000;

export interface Supervised extends RunningServer {
  /** The process serving now (it changes with a restart). */
  readonly pid: number;
}

export async function supervise(start: StartWatched, report: (message: string) => void): Promise<Supervised> {
  let current = await start();
  const port = Number(new URL(current.url).port);
  const restarts: number[] = [];
  let closing = false;

  const watch = (server: WatchedServer): void => {
    void server.exited.then(async (reason) => {
      if (closing || server !== current) return;
      const now = Date.now();
      while (restarts.length > 0 && now - restarts[0]! > RESTART_WINDOW_MS) restarts.shift();
      if (restarts.length >= MAX_RESTARTS) {
        report(`The local demo server stopped (${reason}) again and is left stopped: restart TableDesk.`);
        return;
      }
      restarts.push(now);
      console.error(`TableDesk: the local demo server stopped (${reason}); starting it again`);
      try {
        const next = await start(port);
        if (closing) {
          await next.close();
          return;
        }
        current = next;
        watch(next);
        report(`The local demo server stopped (${reason}) and was started again.`);
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        report(`The local demo server stopped (${reason}) and could not be started again: ${why}`);
      }
    });
  };
  watch(current);

  return {
    url: current.url,
    apiKey: current.apiKey,
    bases: current.bases,
    get pid() {
      return current.pid;
    },
    async close() {
      closing = true;
      await current.close();
    },
  };
}
