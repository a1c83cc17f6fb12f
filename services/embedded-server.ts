/**
 * The local Record Table Service inside the app: on 127.0.0.1, a random port, a random key kept in the key
 * vault, its SQLite data in the user-data folder, the demo base seeded on first start.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { startServer } from '../server/index';
import type { RunningServer, ServerOptions } from '../server/index';
import type { KeyVault } from './keys/key-vault';

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
}

const KEY_NAME = 'embedded-server';

export async function startEmbeddedServer(options: EmbeddedServerOptions): Promise<RunningServer> {
  let apiKey = await options.vault.get(KEY_NAME);
  if (apiKey === undefined) {
    apiKey = `pat${randomBytes(24).toString('hex')}`;
    await options.vault.set(KEY_NAME, apiKey);
  }
  return startServer({
    host: '127.0.0.1',
    port: 0,
    apiKey,
    dataDir: join(options.userDataDir, 'local-server'),
    memory: options.memory,
    demo: options.largeTableRecords === undefined ? true : { largeTableRecords: options.largeTableRecords },
    rateLimit: options.rateLimit,
    offsetTtlMs: options.offsetTtlMs,
    onRequest: options.onRequest,
  });
}
