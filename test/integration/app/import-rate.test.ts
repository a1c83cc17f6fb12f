/**
 * Every bulk write goes through the connection's one throttled, counted client: a CSV import with a user's
 * edits made meanwhile, against a local server playing the hosted service (extensions off, its own 5
 * requests/s per base enforced), seen through a fault proxy that logs each arrival. No second of arrivals at
 * the service holds more than 5 of the base's requests (with the server's own allowance for loopback
 * bunching), the service refuses none, and the request budget counts every write the service received.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RecordTableClient } from '../../../core/api/index';
import type { BrowserApp } from '../../../host/launch';
import { ARRIVAL_JITTER_MS } from '../../../server/http/rate-limit';
import { startFaultProxy } from '../../support/fault-proxy';
import type { FaultProxy } from '../../support/fault-proxy';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';
import { stageNames } from './import-stage';
import { startStandInDoor } from './stand-in-door';

const ROWS = 150;
const EDITS = 8;
const PER_SECOND = 5;

let app: BrowserApp;
let hosted: LocalServer;
let proxy: FaultProxy;

beforeAll(async () => {
  app = await startStandInDoor(100, PER_SECOND);
  hosted = await startLocalServer({
    extensions: false,
    rateLimit: PER_SECOND,
    penaltyMs: 2000,
    demo: { largeTableRecords: 100 },
  });
  proxy = await startFaultProxy(hosted.url);
});

afterAll(async () => {
  await app?.close();
  await proxy?.close();
  await hosted?.close();
});

const until = async (done: () => Promise<boolean>): Promise<void> => {
  while (!(await done())) await new Promise((r) => setTimeout(r, 50));
};

it('an import and edits meanwhile stay within 5 requests/s at the service, and the budget counts them all', async () => {
  const h = app.services.handlers;
  // Records to edit, read past the proxy; then a quiet second, so the server's window starts empty.
  const tasks = await new RecordTableClient({ baseUrl: hosted.url, apiKey: hosted.apiKey })
    .table(hosted.baseId, 'Tasks')
    .listPage({ pageSize: EDITS, fields: ['Name'] });
  await new Promise((r) => setTimeout(r, 1100));

  const { connection } = await h['connections.save']({
    name: 'Hosted',
    baseUrl: proxy.url,
    apiKey: hosted.apiKey,
    remember: true,
  });
  const target = { connectionId: connection.id, baseId: hosted.baseId, table: 'Tasks' };
  const importId = await stageNames(app, target, ROWS, (i) => `Rated ${i}`);
  await h['import.run']({ importId });
  // A user typing into cells while the import runs: the edit queue sends them at interactive priority, ahead of
  // the import's batches, through the same throttle.
  for (const [i, r] of tasks.records.entries()) {
    await h['edits.edit']({
      target,
      changes: [{ recordId: r.id, fields: { Name: `Edited ${i}` }, previous: r.fields, typecast: false }],
      undoable: true,
    });
    await new Promise((r) => setTimeout(r, 150));
  }
  await until(async () => !(await h['import.list']({})).imports.some((s) => s.importId === importId));
  await until(async () => (await h['edits.status']({})).pending === 0);

  const ofBase = proxy.log.filter((e) => e.path.includes(hosted.baseId));
  expect(ofBase.filter((e) => e.status === 429)).toEqual([]);
  // Of any PER_SECOND + 1 arrivals in a row, the first and the last are a second apart, less the jitter the
  // server itself allows for loopback bunching.
  const at = ofBase.map((e) => e.at).sort((a, b) => a - b);
  const closest = Math.min(...at.slice(PER_SECOND).map((t, i) => t - at[i]!));
  expect(closest).toBeGreaterThanOrEqual(1000 - ARRIVAL_JITTER_MS);

  const writes = ofBase.filter((e) => e.method === 'POST' || e.method === 'PATCH');
  expect(writes.filter((e) => e.method === 'POST')).toHaveLength(ROWS / 10);
  expect(writes.filter((e) => e.method === 'PATCH').length).toBeGreaterThan(0);
  const report = await h['budget.report']({});
  const metered = report.scopes.flatMap((s) => s.bases).find((b) => b.connectionId === connection.id);
  expect(metered?.baseId).toBe(hosted.baseId);
  expect(metered?.purposes.edits).toBe(writes.length);
  expect(metered?.calls).toBe(ofBase.length);
}, 60_000);
