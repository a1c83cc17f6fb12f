/** Figures of a throttled job against the local server: its time, its rate against the 5/s ceiling, its 429s. */
import { startServer } from '../server/index';
import type { RunningServer } from '../server/index';
import { startFaultProxy } from '../test/support/fault-proxy';
import type { FaultProxy } from '../test/support/fault-proxy';
import type { BenchResult } from './result';

export const CEILING = 5;

export interface Run {
  seconds: number;
  requests: number;
  tooMany: number;
}

/** Time, rate against the ceiling and 429s of one job; `against` adds the ratio of its time to ours. */
export function rows(label: string, run: Run, against?: Run): BenchResult[] {
  const rate = run.requests / run.seconds;
  return [
    {
      name: `${label}: time${against ? ' (ratio: client time / this time)' : ''}`,
      value: run.seconds,
      unit: 's',
      ...(against ? { ratio: against.seconds / run.seconds } : {}),
    },
    {
      name: `${label}: requests/s (ratio to the 5/s ceiling)`,
      value: rate,
      unit: 'req/s',
      ratio: rate / CEILING,
    },
    { name: `${label}: 429 responses`, value: run.tooMany, unit: 'count' },
  ];
}

/**
 * Times one job, counting the requests the server answered meanwhile (`statuses` grows with each answer).
 * It first waits for the previous job's requests to leave the server's one-second window.
 */
export async function timed(statuses: readonly number[], job: () => Promise<unknown>): Promise<Run> {
  await new Promise((r) => setTimeout(r, 1200));
  const mark = statuses.length;
  const t0 = performance.now();
  await job();
  const seconds = (performance.now() - t0) / 1000;
  const done = statuses.slice(mark);
  return { seconds, requests: done.length, tooMany: done.filter((s) => s === 429).length };
}

export interface RatedServer {
  server: RunningServer;
  /** In front of the server, adding latency. */
  proxy: FaultProxy;
  baseId: string;
  /** The status of every answer, in order. */
  statuses: number[];
  /** Times a job against `statuses` (see timed). */
  timed(job: () => Promise<unknown>): Promise<Run>;
  close(): Promise<void>;
}

/** The local server with its rate limit on and a demo Tasks table of `records`, behind a latency proxy. */
export async function startRatedServer(records: number): Promise<RatedServer> {
  const statuses: number[] = [];
  const server = await startServer({
    memory: true,
    demo: { largeTableRecords: records },
    onRequest: (e) => statuses.push(e.status),
  });
  const proxy = await startFaultProxy(server.url);
  return {
    server,
    proxy,
    baseId: server.bases[0]?.id ?? '',
    statuses,
    timed: (job) => timed(statuses, job),
    close: async () => {
      await proxy.close();
      await server.close();
    },
  };
}
