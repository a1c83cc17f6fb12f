/**
 * The hosted service as it really is, played by a local server (extensions off, 5 requests/s, a second user's
 * key) behind a proxy that adds the hosted API's mean latency to every answer: how long another user's edit
 * takes to show in a view open in the app, with the app looking for changes at its shortest interval. The edit
 * lands at a random moment of the interval, as a colleague's would; the goal is the interval plus 1 s.
 */
import { RecordTableClient } from '../../core/api/index';
import type { EventPayload } from '../../core/contract';
import { LIVE_INTERVALS } from '../../core/contract/live';
import { startServer } from '../../server/index';
import { startFaultProxy } from '../../test/support/fault-proxy';
import { startBenchApp } from '../app-services';
import type { BenchResult } from '../result';

/** Published mean of a hosted page read. */
const HOSTED_LATENCY_MS = 600;
const OTHER_KEY = 'patSecondUserOfTheHostedBench000000';
/** The shortest interval the user may choose (0, off, aside). */
const INTERVAL_S = Math.min(...LIVE_INTERVALS.filter((s) => s > 0));
const GOAL_MS = INTERVAL_S * 1000 + 1000;
/** A look that never shows the edit fails the run rather than hanging it. */
const GIVE_UP_MS = 3 * GOAL_MS;

export default async function run(): Promise<BenchResult[]> {
  const server = await startServer({
    memory: true,
    users: [{ apiKey: OTHER_KEY, user: { id: 'usrBenchOther0001', email: 'sam@example.com', name: 'Sam' } }],
    demo: { largeTableRecords: 1000, outsidePhotos: false },
    extensions: false,
    rateLimit: 5,
  });
  const proxy = await startFaultProxy(server.url);
  proxy.latencyMs = HOSTED_LATENCY_MS;
  const { services, call, close } = await startBenchApp({ embedded: false });
  try {
    const { connection } = await call('connections.save', {
      name: 'Hosted',
      baseUrl: proxy.url,
      apiKey: server.apiKey,
      remember: true,
    });
    const baseId = server.bases[0]!.id;
    const target = { connectionId: connection.id, baseId, table: 'Tasks' };
    const { viewId } = await call('view.open', target);
    const { records } = await call('view.rows', { viewId, start: 0, end: 100 });
    const record = records[0]!;
    const other = new RecordTableClient({ baseUrl: server.url, apiKey: OTHER_KEY }).table(baseId, 'Tasks');

    await call('live.interval', { seconds: INTERVAL_S });
    await new Promise((r) => setTimeout(r, Math.random() * INTERVAL_S * 1000));
    const name = `Changed by Sam ${Date.now()}`;
    let seen: (at: number) => void = () => undefined;
    const shown = new Promise<number>((resolve) => (seen = resolve));
    const off = services.events.subscribe((event, payload) => {
      if (event !== 'live.changes') return;
      const { updated } = payload as EventPayload<'live.changes'>;
      if (updated.some((u) => u.record.id === record.id && u.record.fields['Name'] === name))
        seen(performance.now());
    });
    const giveUp = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('Another user’s edit never showed.')), GIVE_UP_MS).unref(),
    );
    const t = performance.now();
    await other.update(record.id, { Name: name });
    const ms = (await Promise.race([shown, giveUp]).finally(off)) - t;
    return [
      {
        name: `another user's edit shows in an open view (looks every ${INTERVAL_S} s, ${HOSTED_LATENCY_MS} ms latency)`,
        value: ms,
        unit: 'ms',
        ratio: ms / GOAL_MS,
      },
    ];
  } finally {
    await close();
    await proxy.close();
    await server.close();
  }
}
