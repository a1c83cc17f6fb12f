/**
 * A probe of a server's responsiveness, in a thread of its own: it asks `GET /v0/meta/whoami` every few
 * milliseconds and keeps the longest wait for an answer. A probe on the server's own thread (an in-process
 * server, as tests start it) would be frozen by the very stall it should measure and report nothing, since a
 * probe asleep between two requests when the thread blocks starts its next one only after the stall.
 */
import { Worker } from 'node:worker_threads';

export interface ProbeReport {
  /** The longest time a probe waited for its answer, from the moment it was due. */
  worstMs: number;
  probes: number;
  /** Answers other than 200, and requests that failed outright. */
  failures: string[];
}

const LOOP = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, apiKey, everyMs, hangMs } = workerData;
let stop = false;
let worstMs = 0;
let probes = 0;
let doing = '';
const failures = [];
parentPort.on('message', (m) => {
  if (m && m.doing !== undefined) doing = m.doing;
  else stop = true;
});
let due = performance.now();
if (hangMs !== undefined) {
  setInterval(() => {
    const waited = performance.now() - due;
    if (waited < hangMs) return;
    require('node:fs').writeSync(2, '\\nThe server answered no probe for ' + Math.round(waited) + ' ms: a request hangs it; the process is ended so the suite does not stall.\\n' + doing + '\\n');
    process.kill(process.pid, 'SIGKILL');
  }, 250).unref();
}
(async () => {
  while (!stop) {
    try {
      const res = await fetch(url + '/v0/meta/whoami', { headers: { authorization: 'Bearer ' + apiKey } });
      await res.text();
      if (res.status !== 200) failures.push(String(res.status));
    } catch (e) {
      failures.push(String(e && e.message));
    }
    const now = performance.now();
    worstMs = Math.max(worstMs, now - due);
    probes++;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
    due = performance.now();
  }
  parentPort.postMessage({ worstMs, probes, failures: failures.slice(0, 20) });
})();
`;

export class Probe {
  private readonly worker: Worker;
  private readonly report: Promise<ProbeReport>;

  /**
   * `hangMs`: a probe unanswered that long means a request holds the server's thread for good (an in-process
   * server, so no timer of the test's can fire): the probe's thread prints what was running (`doing`) and ends
   * the process, which fails the test file at once instead of stalling the suite.
   */
  constructor(url: string, apiKey: string, everyMs = 10, hangMs?: number) {
    this.worker = new Worker(LOOP, { eval: true, workerData: { url, apiKey, everyMs, hangMs } });
    this.report = new Promise((resolve, reject) => {
      this.worker.once('message', resolve);
      this.worker.once('error', reject);
    });
  }

  /** What runs beside the probe, printed if the server hangs. */
  doing(what: string): void {
    this.worker.postMessage({ doing: what });
  }

  /** Stops probing and gives the report (the probe in flight is answered first). */
  async stop(): Promise<ProbeReport> {
    this.worker.postMessage('stop');
    const report = await this.report;
    await this.worker.terminate();
    return report;
  }
}

/** Runs `work` while a probe runs beside it; the work's result and the probe's report. */
export async function probing<T>(
  server: { url: string; apiKey: string },
  work: () => Promise<T>,
): Promise<{ result: T; probe: ProbeReport }> {
  const probe = new Probe(server.url, server.apiKey);
  // Let the thread start and send its first probe before the work begins.
  await new Promise((resolve) => setTimeout(resolve, 50));
  try {
    const result = await work();
    return { result, probe: await probe.stop() };
  } catch (e) {
    await probe.stop();
    throw e;
  }
}

/** How long a probe may wait behind one request to `server`: a second more than it waits on the idle server. */
export async function stallAllowanceMs(server: { url: string; apiKey: string }): Promise<number> {
  const { probe } = await probing(server, () => new Promise((resolve) => setTimeout(resolve, 500)));
  return 1000 + probe.worstMs;
}
