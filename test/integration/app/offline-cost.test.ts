/**
 * Making a base available offline on the Free plan asks with a total where the app can tell it (issue 26):
 * the base's tables from the metadata and each one's size counted before; a floor naming the tables whose
 * size is not known yet, never "1 call per 100 records" for a base whose tables it knows. Then a copy made
 * with a yes costs about what the question said. The app against a local server playing the hosted service
 * (extensions off) behind the fault proxy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaultProxy } from '../../support/fault-proxy';
import { startFreePlanHostedApp, startFreePlanService } from '../../support/free-plan';
import type { LocalServer } from '../../support/local-server';
import type { Harness } from './harness';
const TASKS = 1_000;

let h: Harness;
let hosted: LocalServer;
let proxy: FaultProxy;
let connectionId: string;

beforeAll(async () => {
  ({ hosted, proxy } = await startFreePlanService(TASKS));
  ({ h, connectionId } = await startFreePlanHostedApp(hosted, proxy));
}, 60_000);
afterAll(async () => {
  await h?.close();
  await proxy?.close();
  await hosted?.close();
});

const until = async (check: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
};

async function askOf(purpose: string) {
  let found: Awaited<ReturnType<typeof asks>>[number] | undefined;
  await until(async () => {
    found = (await asks()).find((a) => a.purpose === purpose);
    return found !== undefined;
  });
  return found!;
}
const asks = async () => (await h.call('budget.asks', {})).asks;

/** The offline question for the whole base (or some tables), declined: what it said. */
async function offlineQuestion(tableIds?: string[]) {
  const started = h.call('mirror.start', {
    connectionId,
    baseId: hosted.baseId,
    ...(tableIds ? { tableIds } : {}),
  });
  const ask = await askOf('offline');
  await h.call('budget.answer', { askId: ask.askId, choice: 'no' });
  expect(await started).toMatchObject({ cancelled: true, declined: true });
  return ask;
}

/** Opens a table's whole view and counts it with a yes (its size not known, the count asks). */
async function count(table: string) {
  const { viewId } = await h.call('view.open', { connectionId, baseId: hosted.baseId, table });
  await h.call('view.rows', { viewId, start: 0, end: 100 });
  await h.call('budget.answer', { askId: (await askOf('count')).askId, choice: 'yes' });
  await until(() => h.eventsOf('view.count').some((c) => c.viewId === viewId && c.exact));
}

describe('the offline question on the Free plan', () => {
  it('names the tables not counted yet and gives a floor', async () => {
    const ask = await offlineQuestion();
    expect(ask).toMatchObject({ calls: 2 + 3 * 3, estimate: true, uncounted: ['Teams', 'People', 'Tasks'] });
    // A floor of a few calls still asks: the table may hold any number of records.
    const schema = await h.call('meta.tables', { connectionId, baseId: hosted.baseId });
    if (schema.refused) throw new Error(schema.message);
    const teams = schema.tables.find((t) => t.name === 'Teams')!.id;
    expect(await offlineQuestion([teams])).toMatchObject({ calls: 2 + 3, uncounted: ['Teams'] });
  });

  it('gives a total once every table was counted, and a copy made with a yes costs no more', async () => {
    await count('Teams');
    await count('People');
    await count('Tasks');
    const ask = await offlineQuestion();
    const calls = 2 + (3 + 1) + (3 + 2) + (3 + TASKS / 100);
    expect(ask).toMatchObject({ calls, estimate: true });
    expect(ask.uncounted).toBeUndefined();

    const from = proxy.log.length;
    const started = h.call('mirror.start', { connectionId, baseId: hosted.baseId });
    await h.call('budget.answer', { askId: (await askOf('offline')).askId, choice: 'yes' });
    expect(await started).toMatchObject({ cancelled: false, mirror: { state: 'ready' } });
    const spent = proxy.log.slice(from).filter((e) => !e.path.startsWith('/_tabledesk/')).length;
    // An estimate: the walk's chains follow the measured latency, each ending on a part page.
    expect(Math.abs(spent - calls)).toBeLessThanOrEqual(10);
  }, 60_000);
});
