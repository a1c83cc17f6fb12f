/**
 * The local server in a child process on the real Node (an unpackaged Electron run: better-sqlite3 is built
 * for Node there, not for Electron). The child runs `server/main.ts` through tsx's loader with
 * `--ready-json`, gets its key in the environment (never on the command line, which other users can read),
 * and stops when its stdin closes: on `close()`, and when this process dies, however it dies.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import type { WatchedServer } from './supervise';
import { ServiceError } from '../errors';

export interface ChildServerOptions {
  /** The Node binary to run the server with. */
  nodePath: string;
  /** The unpacked app: holds `server/main.ts` and `node_modules/tsx`. */
  appDir: string;
  apiKey: string;
  /** 0 (default): any free port; a restart asks for the port it had. */
  port?: number;
  /** The SQLite folder; undefined with `memory`. */
  dataDir?: string;
  memory?: boolean;
  rateLimit?: number | 'off';
  penaltyMs?: number;
}

export type ChildServer = WatchedServer;

/** Seeding the 50,000-record demo base on a slow disk takes a while; a server silent longer than this is stuck. */
const READY_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 10_000;
/** Lines of the child's stderr kept to explain a failed start. */
const STDERR_LINES = 20;

interface ReadyLine {
  url: string;
  bases: { id: string; name: string }[];
}

function isReadyLine(value: unknown): value is ReadyLine {
  const v = value as Partial<ReadyLine> | null;
  return typeof v?.url === 'string' && Array.isArray(v.bases);
}

function serverArgs(options: ChildServerOptions): string[] {
  const tsxLoader = createRequire(join(options.appDir, 'package.json')).resolve('tsx');
  const storage =
    options.memory || options.dataDir === undefined ? ['--memory'] : ['--data', options.dataDir];
  return [
    '--import',
    pathToFileURL(tsxLoader).href,
    join(options.appDir, 'server/main.ts'),
    '--ready-json',
    '--host',
    '127.0.0.1',
    '--port',
    String(options.port ?? 0),
    ...storage,
    '--demo',
    '--rate-limit',
    String(options.rateLimit ?? 5),
    ...(options.penaltyMs === undefined ? [] : ['--penalty-ms', String(options.penaltyMs)]),
  ];
}

export function startChildServer(options: ChildServerOptions): Promise<ChildServer> {
  const child = spawn(options.nodePath, serverArgs(options), {
    cwd: options.appDir,
    env: { ...process.env, TABLEDESK_API_KEY: options.apiKey },
    stdio: ['pipe', 'pipe', 'pipe'],
    windowsHide: true,
  });
  const stderr: string[] = [];
  createInterface({ input: child.stderr }).on('line', (line) => {
    stderr.push(line);
    if (stderr.length > STDERR_LINES) stderr.shift();
  });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));

  return new Promise<ChildServer>((resolve, reject) => {
    const fail = (message: string): void => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      const detail = stderr.length > 0 ? `:\n${stderr.join('\n')}` : '';
      reject(new ServiceError('network', `${message}${detail}`));
    };
    const timer = setTimeout(
      () => fail(`The local demo server did not report ready within ${READY_TIMEOUT_MS / 1000} s`),
      READY_TIMEOUT_MS,
    );
    child.once('error', (error: NodeJS.ErrnoException) => {
      fail(
        error.code === 'ENOENT'
          ? `Node.js was not found at "${options.nodePath}". In a development run the demo server runs on the ` +
              'Node that started the app (TABLEDESK_NODE, else node on PATH): start it with npm start'
          : `The local demo server could not be started with ${options.nodePath}: ${error.message}`,
      );
    });
    // 'close' comes after the last of stderr, which says why.
    const closedEarly = (code: number | null, signal: NodeJS.Signals | null): void =>
      fail(`The local demo server stopped before it was ready (${signal ?? `exit code ${code}`})`);
    child.once('close', closedEarly);
    // The child stops when stdin ends; an error writing to a child that is gone changes nothing.
    child.stdin.on('error', () => undefined);

    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      let ready: unknown;
      try {
        ready = JSON.parse(line);
      } catch {
        ready = undefined;
      }
      if (!isReadyLine(ready)) {
        fail(`The local demo server answered something other than its ready line: ${line.slice(0, 200)}`);
        return;
      }
      clearTimeout(timer);
      let closing = false;
      child.off('close', closedEarly);
      const stoppedEarly = new Promise<string>((stopped) =>
        child.once('close', (code, signal) => {
          if (closing) return;
          console.error(
            `TableDesk: the local demo server stopped (${signal ?? `exit code ${code}`})\n${stderr.join('\n')}`,
          );
          stopped(signal ?? `exit code ${code}`);
        }),
      );
      resolve({
        exited: stoppedEarly,
        url: ready.url,
        apiKey: options.apiKey,
        bases: ready.bases,
        // A child that printed its ready line was spawned, so it has a pid.
        pid: child.pid as number,
        async close() {
          closing = true;
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.stdin.end();
          const killer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
          await exited;
          clearTimeout(killer);
        },
      });
    });
  });
}
