import { afterEach, describe, expect, it } from 'vitest';
import type { ChannelError } from '../../../core/contract';
import type { RecordData } from '../../../core/records/types';
import { countOnlyConnection, startHarness } from './harness';
import type { Harness } from './harness';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

const TASKS = 'Tasks';
const TOTAL = 1050;

async function openTasks(query = {}): Promise<string> {
  const baseId = await h.demoBaseId();
  const { viewId } = await h.call('view.open', { connectionId: 'demo', baseId, table: TASKS, query });
  return viewId;
}

/** The whole table in the service's order, read straight from the server with the same client. */
async function everyRecord(): Promise<RecordData[]> {
  const client = await (await h.services.embedded)!;
  const res = await fetch(`${client.url}/v0/${await h.demoBaseId()}/${TASKS}?pageSize=100`, {
    headers: { Authorization: `Bearer ${client.apiKey}` },
  });
  let page = (await res.json()) as { records: RecordData[]; offset?: string };
  const all = [...page.records];
  while (page.offset !== undefined) {
    const next = await fetch(
      `${client.url}/v0/${await h.demoBaseId()}/${TASKS}?pageSize=100&offset=${encodeURIComponent(page.offset)}`,
      { headers: { Authorization: `Bearer ${client.apiKey}` } },
    );
    page = (await next.json()) as { records: RecordData[]; offset?: string };
    all.push(...page.records);
  }
  return all;
}

describe('table view page chain (real local server)', () => {
  it('walks the chain page by page, serving rows as pages arrive and fixing the count at the last page', async () => {
    h = await startHarness();
    const viewId = await openTasks();
    const first = await h.call('view.rows', { viewId, start: 0, end: 100 });
    expect(first.records).toHaveLength(100);
    expect(first.rowCount).toBeUndefined();
    expect(first.loaded).toBe(100);

    const ids = new Set(first.records.map((r) => r.id));
    for (let start = 100; start < TOTAL; start += 100) {
      const page = await h.call('view.rows', { viewId, start, end: start + 100 });
      for (const r of page.records) ids.add(r.id);
    }
    const last = await h.call('view.rows', { viewId, start: 1000, end: 1100 });
    expect(last.records).toHaveLength(50);
    expect(last.rowCount).toBe(TOTAL);
    expect(ids.size).toBe(TOTAL);
    // 11 pages, each asked for once: pages already fetched came from memory.
    expect(h.listRequests(TASKS)).toHaveLength(11);
    const states = h.eventsOf('view.state').filter((s) => s.viewId === viewId);
    expect(states.at(-1)).toMatchObject({ loaded: TOTAL, total: TOTAL });
  });

  it('a far jump reads its pages where they are: a seek and the page, then the next page by its offset', async () => {
    h = await startHarness();
    const expected = await everyRecord();
    const before = h.requests.length;
    const viewId = await openTasks();
    const rows = await h.call('view.rows', { viewId, start: 550, end: 650 });
    expect(rows.records.map((r) => r.id)).toEqual(expected.slice(550, 650).map((r) => r.id));
    const asked = h.requests.slice(before).map((r) => new URL(r.url, 'http://x'));
    const seeks = asked.filter((u) => u.pathname.endsWith(`/${TASKS}/seek`));
    const pages = asked.filter((u) => u.pathname.endsWith(`/${TASKS}`));
    // The page at 500 by a seek; the page at 600 by the offset the page at 500 answered.
    expect(seeks.map((u) => u.searchParams.get('position'))).toEqual(['500']);
    expect(pages).toHaveLength(2);
    expect(pages.every((u) => u.searchParams.has('offset'))).toBe(true);
    // The chain was not walked, and the view's size came with the seek.
    expect(rows.loaded).toBe(0);
    expect(rows.rowCount).toBe(TOTAL);
  });

  it('concurrent requests for rows share their pages instead of fetching one twice', async () => {
    h = await startHarness();
    const viewId = await openTasks();
    const [a, b, c] = await Promise.all([
      h.call('view.rows', { viewId, start: 300, end: 400 }),
      h.call('view.rows', { viewId, start: 0, end: 100 }),
      h.call('view.rows', { viewId, start: 350, end: 450 }),
    ]);
    expect(a.records).toHaveLength(100);
    expect(b.records).toHaveLength(100);
    expect(c.records.map((r) => r.id).slice(0, 50)).toEqual(a.records.map((r) => r.id).slice(50));
    // The first page, the page at 300 (after its seek) and the one at 400, each once.
    expect(h.listRequests(TASKS)).toHaveLength(3);
  });

  it('where the server has no seek, a far jump walks the chain forward, reporting the page it is loading', async () => {
    h = await startHarness();
    const { connectionId, proxy } = await countOnlyConnection(h);
    try {
      const expected = await everyRecord();
      const { viewId } = await h.call('view.open', {
        connectionId,
        baseId: await h.demoBaseId(),
        table: TASKS,
        query: {},
      });
      const rows = await h.call('view.rows', { viewId, start: 550, end: 650 });
      expect(rows.records.map((r) => r.id)).toEqual(expected.slice(550, 650).map((r) => r.id));
      expect(rows.loaded).toBe(700);
      const walked = proxy.log.filter((r) => new URL(r.path, 'http://x').pathname.endsWith(`/${TASKS}`));
      expect(walked).toHaveLength(7);
      // Each offset comes from the previous page: the first request has none, each later one has one.
      expect(walked.map((r) => new URL(r.path, 'http://x').searchParams.has('offset'))).toEqual([
        false,
        true,
        true,
        true,
        true,
        true,
        true,
      ]);
      const loading = h
        .eventsOf('view.state')
        .filter((s) => s.viewId === viewId && s.loadingPage !== undefined)
        .map((s) => s.loadingPage);
      expect(loading).toEqual([1, 2, 3, 4, 5, 6, 7]);
    } finally {
      await proxy.close();
    }
  });

  it('restarts the walk after an expired offset, without losing or repeating a record', async () => {
    h = await startHarness({ embedded: { offsetTtlMs: 300 } });
    const expected = await everyRecord();
    const viewId = await openTasks();
    await h.call('view.rows', { viewId, start: 0, end: 200 });
    await new Promise((r) => setTimeout(r, 500));
    const before = h.listRequests(TASKS).length;
    const rows = await h.call('view.rows', { viewId, start: 200, end: 300 });
    expect(rows.records.map((r) => r.id)).toEqual(expected.slice(200, 300).map((r) => r.id));
    const after = h.listRequests(TASKS).slice(before);
    // The expired offset was refused, then the walk began again from the first page.
    expect(after[0]).toMatchObject({ status: 422 });
    expect(new URL(after[1]!.url, 'http://x').searchParams.has('offset')).toBe(false);
    const all = await h.call('view.rows', { viewId, start: 0, end: 300 });
    expect(new Set(all.records.map((r) => r.id)).size).toBe(300);
  });

  it('closing a view cancels its queued requests', async () => {
    h = await startHarness({ requestsPerSecond: 4 });
    // Without seek the far rows are a walk of ten pages (2.5 s at 4/s), still queued when the view closes; a
    // seek and its page could be done before, on a slow machine.
    const { connectionId, proxy } = await countOnlyConnection(h);
    try {
      const baseId = await h.demoBaseId();
      const { viewId } = await h.call('view.open', { connectionId, baseId, table: TASKS, query: {} });
      const far = h.call('view.rows', { viewId, start: 900, end: 1000 });
      const farResult = far.then(
        () => undefined,
        (e: ChannelError) => e,
      );
      await new Promise((r) => setTimeout(r, 600));
      await h.call('view.close', { viewId });
      const error = await farResult;
      expect(error).toMatchObject({ kind: 'aborted' });
      const atClose = h.listRequests(TASKS).length;
      expect(atClose).toBeLessThan(10);
      await new Promise((r) => setTimeout(r, 800));
      // At most the request already in flight at close reaches the server afterwards.
      expect(h.listRequests(TASKS).length).toBeLessThanOrEqual(atClose + 1);
      await expect(h.call('view.rows', { viewId, start: 0, end: 10 })).rejects.toMatchObject({
        kind: 'not-found',
      });
    } finally {
      await proxy.close();
    }
  });

  it('sends the query: sort and fields shape the rows and the columns', async () => {
    h = await startHarness();
    const baseId = await h.demoBaseId();
    const opened = await h.call('view.open', {
      connectionId: 'demo',
      baseId,
      table: TASKS,
      query: { sort: [{ field: 'Points', direction: 'desc' }], fields: ['Name', 'Points'] },
    });
    expect(opened.columns.map((c) => c.name)).toEqual(['Name', 'Points']);
    expect(opened.columns[0]).toMatchObject({ primary: true, type: 'singleLineText', inferred: false });
    expect(opened.primaryField).toBe('Name');
    const rows = await h.call('view.rows', { viewId: opened.viewId, start: 0, end: 100 });
    const points = rows.records.map((r) => (r.fields.Points as number | undefined) ?? -Infinity);
    expect(points).toEqual([...points].sort((a, b) => b - a));
    expect(
      rows.records.every((r) => Object.keys(r.fields).every((f) => f === 'Name' || f === 'Points')),
    ).toBe(true);
  });

  it('a filter formula starts a chain of only the matching records', async () => {
    h = await startHarness();
    const viewId = await openTasks({
      formula: 'AND({Done}, {Points} > 5)',
      fields: ['Name', 'Done', 'Points'],
    });
    const all = await h.call('view.rows', { viewId, start: 0, end: 1000 });
    expect(all.rowCount).toBe(all.records.length);
    expect(all.records.length).toBeGreaterThan(0);
    expect(all.records.length).toBeLessThan(TOTAL);
    for (const r of all.records) {
      expect(r.fields.Done).toBe(true);
      expect(r.fields.Points).toBeGreaterThan(5);
    }
  });

  it('a formula the service refuses rejects with its 422 and message, and the status bar shows it', async () => {
    h = await startHarness();
    const viewId = await openTasks({ formula: '{No such field} = 1' });
    const error = (await h
      .call('view.rows', { viewId, start: 0, end: 100 })
      .catch((e: unknown) => e)) as ChannelError;
    expect(error).toMatchObject({ kind: 'http', status: 422 });
    expect(error.message.length).toBeGreaterThan(0);
    expect(h.eventsOf('view.state').some((s) => s.viewId === viewId && s.error?.status === 422)).toBe(true);
    await new Promise((r) => setTimeout(r, 400));
    expect(h.eventsOf('client.status').some((s) => s.lastError === error.message)).toBe(true);
  });

  it('refuses malformed requests with a clear message', async () => {
    h = await startHarness();
    await expect(h.call('view.rows', { viewId: 'x', start: 10, end: 5 })).rejects.toMatchObject({
      kind: 'invalid-request',
      message: expect.stringContaining('end ≥ start'),
    });
    const result = await h.services.dispatch('no.such.channel', {});
    expect(result).toMatchObject({ ok: false, error: { kind: 'invalid-request' } });
    await expect(
      h.call('view.open', { connectionId: 'demo', baseId: await h.demoBaseId(), table: 'Nope' }),
    ).rejects.toMatchObject({ kind: 'not-found', message: expect.stringContaining('Nope') });
  });
});

describe('table view and the edit services', () => {
  it('serves acknowledged edits and deletions from its cache, so rows asked for again are current', async () => {
    h = await startHarness();
    const baseId = await h.demoBaseId();
    const target = { connectionId: 'demo', baseId, table: TASKS };
    const viewId = await openTasks({ fields: ['Name', 'Points'] });
    const before = await h.call('view.rows', { viewId, start: 0, end: 200 });
    const edited = before.records[5]!;
    await h.call('edits.edit', { target, changes: [{ recordId: edited.id, fields: { Points: 4242 } }] });
    await expect
      .poll(async () => (await h.call('view.rows', { viewId, start: 5, end: 6 })).records[0]!.fields.Points, {
        timeout: 10_000,
      })
      .toBe(4242);
    const again = (await h.call('view.rows', { viewId, start: 5, end: 6 })).records[0]!;
    expect(Object.keys(again.fields).sort()).toEqual(['Name', 'Points']);

    const gone = before.records.slice(10, 12).map((r) => r.id);
    await h.call('records.delete', { target, records: gone.map((id) => ({ id })) });
    await expect
      .poll(
        async () => (await h.call('view.rows', { viewId, start: 0, end: 198 })).records.map((r) => r.id),
        {
          timeout: 10_000,
        },
      )
      .toEqual(before.records.map((r) => r.id).filter((id) => !gone.includes(id)));
  });
});

describe('table view and records created here', () => {
  it('a sorted view reads its rows again: created records show where the sort puts them', async () => {
    h = await startHarness();
    const baseId = await h.demoBaseId();
    const target = { connectionId: 'demo', baseId, table: TASKS };
    const sort = [{ field: 'Name', direction: 'asc' as const }];
    const viewId = await openTasks({ fields: ['Name'], sort });
    const before = await h.call('view.rows', { viewId, start: 0, end: 200 });
    const gone = before.records.slice(3, 5);
    await h.call('records.delete', { target, records: gone.map((r) => ({ id: r.id, fields: r.fields })) });
    await h.call('history.undo', { target });
    const after = (await h.call('view.rows', { viewId, start: 0, end: 200 })).records;
    // The same names in the same places; the two records back have new ids.
    expect(after.map((r) => r.fields.Name)).toEqual(before.records.map((r) => r.fields.Name));
    expect(after.map((r) => r.id).filter((id) => !before.records.some((r) => r.id === id))).toHaveLength(2);
  });

  it('a filtered view leaves out created records its filter excludes, and counts only those it keeps', async () => {
    h = await startHarness();
    const baseId = await h.demoBaseId();
    const target = { connectionId: 'demo', baseId, table: TASKS };
    const formula = `{Status} = 'Done'`;
    const kept = (await everyRecord()).filter((r) => r.fields.Status === 'Done').length;
    const viewId = await openTasks({ fields: ['Name', 'Status'], formula });
    const whole = await h.call('view.rows', { viewId, start: 0, end: 1000 });
    expect(whole.rowCount).toBe(kept);
    await h.call('records.create', {
      target,
      records: [
        { fields: { Name: 'kept', Status: 'Done' } },
        { fields: { Name: 'left out', Status: 'Todo' } },
      ],
    });
    const again = await h.call('view.rows', { viewId, start: 0, end: 1000 });
    expect(again.rowCount).toBe(kept + 1);
    expect(again.records.map((r) => r.fields.Name)).toContain('kept');
    expect(again.records.map((r) => r.fields.Name)).not.toContain('left out');
  });
});
