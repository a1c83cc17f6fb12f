/**
 * The local Record Table Service inside the app: on 127.0.0.1, a random port, a random key kept in the key
 * vault, its SQLite data in the user-data folder, the demo base seeded on first start. It runs in this
 * process, in a worker thread of it (an installed app: the seed and the queries stay off Electron's main
 * thread), or in a child process on the real Node where better-sqlite3's build does not fit this process
 * (an unpackaged Electron run). Outside this thread it is watched: started again on its port when it dies
 * (supervise.ts).
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { startServer } from '../server/index';
import { invariant } from '../core/invariant';
import type { RunningServer, ServerOptions } from '../server/index';
import { startChildServer } from './embedded-server/child-runner';
import { startWorkerServer, WorkerUnavailable } from './embedded-server/worker-runner';
import { supervise } from './embedded-server/supervise';
import type { WatchedServer } from './embedded-server/supervise';
import type { KeyVault } from './keys/key-vault';

/**
 * 'in-process' (default); a worker thread running the built `worker` script; or a child process on this Node
 * binary, run from the unpacked app in `appDir`.
 */
export type EmbeddedRunner = 'in-process' | { worker: string | URL } | { nodePath: string; appDir: string };

export interface EmbeddedServer extends RunningServer {
  /** The process serving it: this one, or the child. */
  pid: number;
}

export interface EmbeddedServerOptions {
  userDataDir: string;
  vault: KeyVault;
  /** Requests per second per base, as the hosted service allows (5); 'off' for benchmarks. */
  rateLimit?: number | 'off';
  /** Keep the data in memory (tests). */
  memory?: boolean;
  largeTableRecords?: number;
  offsetTtlMs?: number;
  /** Every request the server answered (tests and benches measure the request pattern with it). */
  onRequest?: ServerOptions['onRequest'];
  /** More keys, each for a user of its own (tests: comments written by someone else). */
  users?: ServerOptions['users'];
  runner?: EmbeddedRunner;
  /** Told when a server outside this thread died and was started again, or could not be. */
  onDown?: (message: string) => void;
}

/** What only an in-process server can honour (neither the child's command line nor a worker takes them). */
const IN_PROCESS_ONLY = ['largeTableRecords', 'offsetTtlMs', 'onRequest', 'users'] as const;

const KEY_NAME = 'embedded-server';

/**
 * The demo base keeps the service's 5 requests/s, so the app paces itself as it must with the service, but
 * not its 30 s penalty: the server is the user's own, and a rare 429 its own throttle draws on a busy machine
 * (two requests bunched by event-loop delays) would freeze the demo for half a minute. The client waits the
 * 429's Retry-After, 2 s.
 */
export const EMBEDDED_PENALTY_MS = 2000;

/**
 * The demo server's own key. It only guards a server on loopback that this app starts, so a key the vault can
 * no longer open (the OS keyring changed, a Keychain prompt was denied) is replaced rather than fatal.
 */
async function demoKey(vault: KeyVault): Promise<string> {
  const saved = await vault.get(KEY_NAME).catch((error: unknown) => {
    console.error('TableDesk: the demo server key could not be read; a new one replaces it.', error);
    return undefined;
  });
  if (saved !== undefined) return saved;
  const key = `pat${randomBytes(24).toString('hex')}`;
  await vault.set(KEY_NAME, key);
  return key;
}

export async function startEmbeddedServer(options: EmbeddedServerOptions): Promise<EmbeddedServer> {
  const apiKey = await demoKey(options.vault);
  const dataDir = join(options.userDataDir, 'local-server');
  const runner = options.runner ?? 'in-process';
  if (runner !== 'in-process') {
    const unsupported = IN_PROCESS_ONLY.filter((name) => options[name] !== undefined);
    // The caller's options, not the user's.
    invariant(
      unsupported.length === 0,
      `the ${'worker' in runner ? 'worker-thread' : 'child-process'} demo server does not take ${unsupported.join(', ')}`,
    );
    const common = {
      apiKey,
      dataDir,
      memory: options.memory,
      rateLimit: options.rateLimit,
      penaltyMs: EMBEDDED_PENALTY_MS,
    };
    const start = (port?: number): Promise<WatchedServer> =>
      'nodePath' in runner
        ? startChildServer({ ...runner, ...common, port })
        : startWorkerServer(runner.worker, { ...common, port });
    try {
      return await supervise(start, options.onDown ?? ((message) => console.error(`TableDesk: ${message}`)));
    } catch (error) {
      if (!(error instanceof WorkerUnavailable)) throw error;
      // A demo that holds up the window while it seeds beats no demo at all.
      console.error('TableDesk: the demo server runs on the main thread instead of its own thread.', error);
      return startInProcess(options, apiKey, dataDir);
    }
  }
  return startInProcess(options, apiKey, dataDir);
}

async function startInProcess(
  options: EmbeddedServerOptions,
  apiKey: string,
  dataDir: string,
): Promise<EmbeddedServer> {
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    apiKey,
    dataDir,
    memory: options.memory,
    demo: options.largeTableRecords === undefined ? true : { largeTableRecords: options.largeTableRecords },
    rateLimit: options.rateLimit,
    penaltyMs: EMBEDDED_PENALTY_MS,
    offsetTtlMs: options.offsetTtlMs,
    onRequest: options.onRequest,
    users: options.users,
  });
  return Object.assign(server, { pid: process.pid });
}
