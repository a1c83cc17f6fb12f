/**
 * The local server in a worker thread of this process (an installed app, whose better-sqlite3 is built for
 * Electron): seeding the demo base takes seconds and must not freeze the window, so neither it nor any query
 * runs on the main thread. The worker's script is built beside the main bundle (electron.vite.config.ts).
 */
import { Worker } from 'node:worker_threads';
import type { WatchedServer } from './supervise';
import { ServiceError } from '../errors';

/** What the demo server's own thread or process is started with. */
export interface WorkerServerOptions {
  apiKey: string;
  /** 0 (default): any free port; a restart asks for the port it had. */
  port?: number;
  dataDir?: string;
  memory?: boolean;
  rateLimit?: number | 'off';
  penaltyMs?: number;
}

export type WorkerReply =
  { ready: { url: string; bases: { id: string; name: string }[] } } | { failed: string };

export type WorkerServer = WatchedServer;

/** The thread itself could not run (its script did not load), as opposed to a server that failed to start. */
export class WorkerUnavailable extends Error {
  override name = 'WorkerUnavailable';
}

/** `script`: the built worker.ts (a file path or file URL). */
export function startWorkerServer(script: string | URL, options: WorkerServerOptions): Promise<WorkerServer> {
  const worker = new Worker(script, { workerData: options });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return new Promise<WorkerServer>((resolve, reject) => {
    const fail = (error: Error): void => {
      void worker.terminate();
      reject(error);
    };
    const failed = (error: Error): void =>
      fail(
        new WorkerUnavailable(`The local demo server's thread failed: ${error.message}`, { cause: error }),
      );
    const stopped = (code: number): void =>
      fail(new WorkerUnavailable(`The local demo server's thread stopped (exit code ${code})`));
    worker.once('error', failed);
    worker.once('exit', stopped);
    worker.once('message', (message: WorkerReply) => {
      if ('failed' in message) {
        fail(new ServiceError('network', `The local demo server did not start: ${message.failed}`));
        return;
      }
      worker.off('exit', stopped);
      worker.off('error', failed);
      let closing = false;
      let lastError = '';
      worker.on('error', (error) => {
        lastError = `: ${error.message}`;
        console.error('TableDesk: the local demo server failed', error);
      });
      resolve({
        ...message.ready,
        apiKey: options.apiKey,
        pid: process.pid,
        exited: new Promise((stopped) =>
          worker.once('exit', (code) => {
            if (!closing) stopped(`its thread ended with exit code ${code}${lastError}`);
          }),
        ),
        async close() {
          closing = true;
          worker.postMessage('close');
          await exited;
        },
      });
    });
  });
}
