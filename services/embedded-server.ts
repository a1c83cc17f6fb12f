/**
 * The local Record Table Service inside the app: on 127.0.0.1, a random port, a random key kept in the key
 * vault, its SQLite data in the user-data folder, the demo base seeded on first start. It runs in this
 * process, or in a child process on the real Node where better-sqlite3's build does not fit this process
 * (an unpackaged Electron run).
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { startServer } from '../server/index';
import type { RunningServer, ServerOptions } from '../server/index';
import { startChildServer } from './embedded-server/child-runner';
import type { KeyVault } from './keys/key-vault';

/** 'in-process' (default), or a child process on this Node binary, run from the unpacked app in `appDir`. */
export type EmbeddedRunner = 'in-process' | { nodePath: string; appDir: string };

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
  runner?: EmbeddedRunner;
}

/** What only an in-process server can honour (the child's command line has no room for them). */
const IN_PROCESS_ONLY = ['largeTableRecords', 'offsetTtlMs', 'onRequest'] as const;

const KEY_NAME = 'embedded-server';

export async function startEmbeddedServer(options: EmbeddedServerOptions): Promise<EmbeddedServer> {
  let apiKey = await options.vault.get(KEY_NAME);
  if (apiKey === undefined) {
    apiKey = `pat${randomBytes(24).toString('hex')}`;
    await options.vault.set(KEY_NAME, apiKey);
  }
  const dataDir = join(options.userDataDir, 'local-server');
  const runner = options.runner ?? 'in-process';
  if (runner !== 'in-process') {
    const unsupported = IN_PROCESS_ONLY.filter((name) => options[name] !== undefined);
    if (unsupported.length > 0)
      throw new Error(`The child-process demo server does not take ${unsupported.join(', ')}`);
    return startChildServer({
      ...runner,
      apiKey,
      dataDir,
      memory: options.memory,
      rateLimit: options.rateLimit,
    });
  }
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    apiKey,
    dataDir,
    memory: options.memory,
    demo: options.largeTableRecords === undefined ? true : { largeTableRecords: options.largeTableRecords },
    rateLimit: options.rateLimit,
    offsetTtlMs: options.offsetTtlMs,
    onRequest: options.onRequest,
  });
  return Object.assign(server, { pid: process.pid });
}
