/**
 * The hosted service's cap across every base of one token (50 requests/s, beside 5 per base; issue 26), met on
 * the local server, which enforces the same cap per key: 60 list requests over 13 bases, one client per base
 * (as the app's connections make them: one throttle registry for the app, so one gate for the token), all
 * asked for within the same moment. Goals: no 429 (the gate spaces the token's starts), and the requests
 * taking at least 1.2 s (50 a second allow no faster).
 */
import { RecordTableClient, SchedulerRegistry } from '../core/api/index';
import { startServer } from '../server/index';
import type { BenchResult } from './result';

const BASES = 13;
const REQUESTS = 60;
const TOKEN_PER_SECOND = 50;
/** The fastest 60 requests may go at 50 a second: the first at 0, the last 1.2 s later. */
const FLOOR_MS = (REQUESTS * 1000) / TOKEN_PER_SECOND;

export async function tokenCap(): Promise<BenchResult[]> {
  const statuses: number[] = [];
  const server = await startServer({
    memory: true,
    demo: { largeTableRecords: 10, outsidePhotos: false },
    rateLimit: 5,
    tokenRateLimit: TOKEN_PER_SECOND,
    onRequest: (e) => statuses.push(e.status),
  });
  try {
    const setup = new RecordTableClient({ baseUrl: server.url, apiKey: server.apiKey });
    for (let i = server.bases.length; i < BASES; i++)
      await setup.meta.createBase({
        name: `Base ${i}`,
        tables: [{ name: 'T', fields: [{ name: 'Name', type: 'singleLineText' }] }],
      });
    const demoBase = server.bases[0]!.id;
    // The setup's requests must not share the measured second of the server's window.
    await new Promise((r) => setTimeout(r, 1100));
    const schedulers = new SchedulerRegistry();
    const tables = server.bases.map((b) =>
      new RecordTableClient({ baseUrl: server.url, apiKey: server.apiKey, schedulers }).table(
        b.id,
        b.id === demoBase ? 'Teams' : 'T',
      ),
    );
    if (tables.length !== BASES) throw new Error(`The server has ${tables.length} bases, not ${BASES}.`);
    const mark = statuses.length;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: REQUESTS }, (_, i) => tables[i % BASES]!.listPage({ pageSize: 1 })),
    );
    const ms = performance.now() - started;
    const refused = statuses.slice(mark).filter((s) => s === 429).length;
    return [
      {
        name: `token cap: 429s of ${REQUESTS} requests over ${BASES} bases asked for at once, one token (goal 0)`,
        value: refused,
        unit: 'count',
        ratio: refused,
      },
      {
        name: `token cap: time for ${REQUESTS} requests over ${BASES} bases, one token (ratio to the ${FLOOR_MS / 1000} s that ${TOKEN_PER_SECOND}/s allow: at least 1)`,
        value: ms,
        unit: 'ms',
        ratio: ms / FLOOR_MS,
      },
    ];
  } finally {
    await server.close();
  }
}
