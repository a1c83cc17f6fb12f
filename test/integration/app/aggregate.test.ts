/**
 * `view.aggregate` through the app's services: on the local server from its extension (one request, the whole
 * view); where the server has no extension (as Airtable, here the fault proxy answering the discovery path
 * with a 404), from the rows loaded, or from a walk of the whole view at background priority when asked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordData } from '../../../core/records/types';
import { asHostedService, startFaultProxy } from '../../support/fault-proxy';
import type { FaultProxy } from '../../support/fault-proxy';
import { startHarness } from './harness';
import type { Harness } from './harness';

const TASKS = 'Tasks';
const TOTAL = 1050;
let h: Harness;
let proxy: FaultProxy;
let hostedId: string;
let baseId: string;
let all: RecordData[];

beforeAll(async () => {
  h = await startHarness();
  const server = (await h.services.embedded)!;
  baseId = await h.demoBaseId();
  proxy = await startFaultProxy(server.url);
  const saved = await h.call('connections.save', {
    name: 'Hosted-like',
    baseUrl: proxy.url,
    apiKey: server.apiKey,
  });
  hostedId = saved.connection.id;
  const res = await fetch(
    `${server.url}/v0/${baseId}/${TASKS}?pageSize=100&fields[]=Status&fields[]=Budget&sort[0][field]=Status`,
    { headers: { authorization: `Bearer ${server.apiKey}` } },
  );
  let page = (await res.json()) as { records: RecordData[]; offset?: string };
  all = [...page.records];
  while (page.offset !== undefined) {
    const next = await fetch(
      `${server.url}/v0/${baseId}/${TASKS}?pageSize=100&fields[]=Status&fields[]=Budget&sort[0][field]=Status&offset=${encodeURIComponent(page.offset)}`,
      { headers: { authorization: `Bearer ${server.apiKey}` } },
    );
    page = (await next.json()) as { records: RecordData[]; offset?: string };
    all.push(...page.records);
  }
});

afterAll(async () => {
  await proxy.close();
  await h.close();
});

/** Groups by Status as runs of the sorted records (each from its first position), with the sum of Budget. */
function expected(records: readonly RecordData[]) {
  const groups: { value: unknown; count: number; start: number }[] = [];
  let sum = 0;
  records.forEach((r, position) => {
    const value = r.fields['Status'] ?? null;
    if (groups.at(-1)?.value === value) groups.at(-1)!.count++;
    else groups.push({ value, count: 1, start: position });
    sum += (r.fields['Budget'] as number | undefined) ?? 0;
  });
  return { groups, sum };
}

const request = (viewId: string, scope: 'loaded' | 'all' = 'loaded') => ({
  viewId,
  groupBy: [{ field: 'Status', direction: 'asc' as const }],
  summaries: [{ field: 'Budget', kind: 'sum' as const }],
  scope,
});

async function open(connectionId: string): Promise<string> {
  const { viewId } = await h.call('view.open', {
    connectionId,
    baseId,
    table: TASKS,
    query: { sort: [{ field: 'Status', direction: 'asc' }] },
  });
  return viewId;
}

describe('view.aggregate', () => {
  it('on the local server: the whole view from its extension, in one request', async () => {
    const viewId = await open('demo');
    const before = h.requests.length;
    const a = await h.call('view.aggregate', request(viewId));
    const { groups, sum } = expected(all);
    expect(a.basis).toBe('view');
    expect(a.total).toBe(TOTAL);
    expect(a.groups).toEqual(groups);
    expect(a.summaries[0]!.value).toBeCloseTo(sum, 6);
    const asked = h.requests.slice(before);
    expect(asked.map((r) => new URL(r.url, 'http://x').pathname)).toEqual(
      expect.arrayContaining([`/_tabledesk/v1/${baseId}/${TASKS}/aggregate`]),
    );
    expect(asked.filter((r) => r.method === 'GET' && r.url.includes(`/v0/${baseId}/`))).toHaveLength(0);
  });

  it('without the extension: the rows loaded, said so; then the whole view by a walk when asked', async () => {
    asHostedService(proxy);
    const viewId = await open(hostedId);
    // A view with nothing loaded yet has its first page read first, so its groups are not empty.
    const fresh = await h.call('view.aggregate', request(viewId));
    expect(fresh).toMatchObject({ basis: 'loaded', total: 100 });
    expect(fresh.groups).toEqual(expected(all.slice(0, 100)).groups);
    await h.call('view.rows', { viewId, start: 0, end: 300 });
    const loaded = await h.call('view.aggregate', request(viewId));
    expect(loaded.basis).toBe('loaded');
    expect(loaded.total).toBe(300);
    const first300 = expected(all.slice(0, 300));
    expect(loaded.groups).toEqual(first300.groups);
    expect(loaded.summaries[0]!.value).toBeCloseTo(first300.sum, 6);

    const whole = await h.call('view.aggregate', request(viewId, 'all'));
    const { groups, sum } = expected(all);
    expect(whole.basis).toBe('view');
    expect(whole.total).toBe(TOTAL);
    expect(whole.groups).toEqual(groups);
    expect(whole.summaries[0]!.value).toBeCloseTo(sum, 6);
    // The walk asked only for the fields it needed.
    const walked = proxy.log.filter((r) => r.path.includes(`/v0/${baseId}/`) && r.path.includes('fields'));
    expect(walked.length).toBeGreaterThanOrEqual(Math.ceil(TOTAL / 100));
    expect(proxy.log.some((r) => r.path.includes('aggregate'))).toBe(false);
  });

  it('a server that named the extension and then answers its path with a 404 is taken as one without it', async () => {
    proxy.reset();
    const server = (await h.services.embedded)!;
    const other = await h.call('connections.save', {
      name: 'Lost extension',
      baseUrl: proxy.url,
      apiKey: server.apiKey,
    });
    const viewId = await open(other.connection.id);
    expect((await h.call('view.aggregate', request(viewId))).basis).toBe('view');
    proxy.inject(
      { type: 'status', status: 404, body: '{"error":"NOT_FOUND"}' },
      { match: (r) => r.path.includes('/aggregate'), times: Infinity },
    );
    const after = await h.call('view.aggregate', request(viewId));
    expect(after).toMatchObject({ basis: 'loaded', total: 100 });
    proxy.reset();
  });
});
