/**
 * The embedded server's worker thread (an installed app): the 50,000-record demo seed and every SQLite query
 * run here, never on Electron's main thread, which must keep the window responsive. Started by
 * worker-runner.ts; answers one `ready` or `failed` message, and stops on any message from its parent.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { startServer } from '../../server/index';
import { invariant } from '../../core/invariant';
import type { WorkerServerOptions, WorkerReply } from './worker-runner';

const parent = parentPort;
invariant(parent !== null, 'worker.ts runs only as a worker thread');
const options = workerData as WorkerServerOptions;
const reply = (message: WorkerReply): void => parent.postMessage(message);

try {
  const server = await startServer({
    host: '127.0.0.1',
    port: options.port ?? 0,
    apiKey: options.apiKey,
    dataDir: options.dataDir,
    memory: options.memory,
    demo: true,
    rateLimit: options.rateLimit,
    penaltyMs: options.penaltyMs,
  });
  parent.once('message', () => {
    void server.close().finally(() => parent.close());
  });
  reply({ ready: { url: server.url, bases: server.bases } });
} catch (error) {
  reply({ failed: error instanceof Error ? error.message : String(error) });
  parent.close();
}
