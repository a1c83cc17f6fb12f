import { afterEach, describe, expect, it } from 'vitest';
import type { TableSchema } from '../../../core/records/types';
import { startFaultProxy } from '../../support/fault-proxy';
import type { FaultProxy } from '../../support/fault-proxy';
import { extensionlessConnection, startHarness } from './harness';
import type { Harness } from './harness';
import { holdPatches } from '../../support/held-patches';

let h: Harness;
let proxy: FaultProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  await h?.close();
});

/** A second connection to the embedded server through the fault proxy. */
async function proxied(): Promise<string> {
  const server = (await h.services.embedded)!;
  proxy = await startFaultProxy(server.url);
  const saved = await h.call('connections.save', {
    name: 'Proxied',
    baseUrl: proxy.url,
    apiKey: server.apiKey,
  });
  return saved.connection.id;
}

const idsIn = (r: { method: string; path: string; body: string }): number =>
  (r.method === 'GET' ? decodeURIComponent(r.path.replace(/\+/g, ' ')) : r.body).split('RECORD_ID()').length -
  1;

async function schema(baseId: string): Promise<Map<string, TableSchema>> {
  const tables = await h.call('meta.tables', { connectionId: 'demo', baseId });
  if (tables.refused) throw new Error(tables.message);
  return new Map(tables.tables.map((t) => [t.name, t as TableSchema]));
}

/** List requests (GET or POST listRecords) the server answered for one table, by its id. */
const listsOf = (tableId: string) =>
  h.requests.filter((r) => {
    const path = new URL(r.url, 'http://x').pathname;
    return (
      (r.method === 'GET' && path.endsWith(`/${tableId}`)) ||
      (r.method === 'POST' && path.endsWith(`/${tableId}/listRecords`))
    );
  }).length;

async function firstPageLinks(baseId: string) {
  const { viewId } = await h.call('view.open', { connectionId: 'demo', baseId, table: 'Tasks' });
  const { records } = await h.call('view.rows', { viewId, start: 0, end: 100 });
  const ids = [...new Set(records.flatMap((r) => (r.fields['Assignee'] as string[] | undefined) ?? []))];
  return { records, ids };
}

/** The people's names as the server holds them. */
async function serverNames(baseId: string, peopleId: string): Promise<Map<string, string>> {
  const server = await h.services.embedded!;
  const names = new Map<string, string>();
  let offset: string | undefined;
  do {
    const url = `${server.url}/v0/${baseId}/${peopleId}?pageSize=100${offset ? `&offset=${offset}` : ''}`;
    const page = (await (
      await fetch(url, { headers: { Authorization: `Bearer ${server.apiKey}` } })
    ).json()) as {
      records: { id: string; fields: Record<string, string> }[];
      offset?: string;
    };
    for (const r of page.records) names.set(r.id, r.fields['Name']!);
    offset = page.offset;
  } while (offset !== undefined);
  return names;
}

describe('names of linked records (real local server)', () => {
  it('names a page of links in one request per linked table, however the asks arrive, then from the cache', async () => {
    h = await startHarness();
    const baseId = await h.demoBaseId();
    const tables = await schema(baseId);
    const people = tables.get('People')!;
    const { ids } = await firstPageLinks(baseId);
    expect(ids.length).toBeGreaterThan(10);
    expect(ids.length).toBeLessThanOrEqual(100);
    const before = listsOf(people.id);

    // The grid asks block by block: three asks at once, overlapping, go out as one request.
    const thirds = [ids.slice(0, 20), ids.slice(10, 50), ids.slice(40)];
    const answers = await Promise.all(
      thirds.map((part) =>
        h.call('links.names', { connectionId: 'demo', baseId, tables: [{ tableId: people.id, ids: part }] }),
      ),
    );
    expect(listsOf(people.id) - before).toBe(1);
    const expected = await serverNames(baseId, people.id);
    const named = Object.assign({}, ...answers.map((a) => a.tables[0]!.names)) as Record<string, string>;
    expect(Object.keys(named).sort()).toEqual([...ids].sort());
    for (const id of ids) expect(named[id]).toBe(expected.get(id));

    // Asked again: from the cache, no request.
    const afterFirst = listsOf(people.id);
    const again = await h.call('links.names', {
      connectionId: 'demo',
      baseId,
      tables: [{ tableId: people.id, ids }],
    });
    expect(again.tables[0]!.names).toEqual(named);
    expect(listsOf(people.id)).toBe(afterFirst);
  });

  it('at 5 requests/s, reads the names of a page’s links at the next start, before the view’s count', async () => {
    h = await startHarness({ embedded: { rateLimit: 5 }, requestsPerSecond: 5 });
    const baseId = await h.demoBaseId();
    const people = (await schema(baseId)).get('People')!;
    // A quiet second: the page below is a cold start, as a table opened by a person.
    await new Promise((r) => setTimeout(r, 1100));
    const { ids } = await firstPageLinks(baseId);
    const { names } = (
      await h.call('links.names', { connectionId: 'demo', baseId, tables: [{ tableId: people.id, ids }] })
    ).tables[0]!;
    expect(Object.keys(names).sort()).toEqual([...ids].sort());
    // The count (background, asked with the page) goes after the names of the rows shown (visible).
    const path = (r: { url: string }) => new URL(r.url, 'http://x').pathname;
    const namesAt = h.requests.findIndex((r) => path(r).endsWith(`/${people.id}`));
    const countAt = h.requests.findIndex((r) => path(r).endsWith('/Tasks/count'));
    expect(namesAt).toBeGreaterThan(-1);
    expect(countAt === -1 || countAt > namesAt).toBe(true);
  });

  it('asks a page of 100 ids a request, and leaves out ids the service does not know', async () => {
    h = await startHarness();
    const baseId = await h.demoBaseId();
    const people = (await schema(baseId)).get('People')!;
    const all = [...(await serverNames(baseId, people.id)).keys()];
    expect(all.length).toBeGreaterThan(150);
    const before = listsOf(people.id);
    const wanted = [...all.slice(0, 150), 'recNoSuchRecord00'];
    const answer = await h.call('links.names', {
      connectionId: 'demo',
      baseId,
      tables: [{ tableId: people.id, ids: wanted }],
    });
    expect(listsOf(people.id) - before).toBe(2);
    expect(Object.keys(answer.tables[0]!.names)).toHaveLength(150);
    expect(answer.tables[0]!.names).not.toHaveProperty('recNoSuchRecord00');
  });

  it('follows a rename made through the edit queue, and announces it', async () => {
    h = await startHarness();
    const baseId = await h.demoBaseId();
    const people = (await schema(baseId)).get('People')!;
    const { ids } = await firstPageLinks(baseId);
    const person = ids[0]!;
    await h.call('links.names', { connectionId: 'demo', baseId, tables: [{ tableId: people.id, ids }] });
    const requests = listsOf(people.id);

    await h.call('edits.edit', {
      target: { connectionId: 'demo', baseId, table: 'People' },
      changes: [{ recordId: person, fields: { Name: 'Renamed Person' } }],
    });
    await expect
      .poll(() => h.eventsOf('links.renamed').find((e) => e.names[person] !== undefined), { timeout: 10_000 })
      .toEqual({ baseId, tableId: people.id, names: { [person]: 'Renamed Person' } });
    const after = await h.call('links.names', {
      connectionId: 'demo',
      baseId,
      tables: [{ tableId: people.id, ids: [person] }],
    });
    expect(after.tables[0]!.names[person]).toBe('Renamed Person');
    // The saved record carried the new name: nothing was asked again.
    expect(listsOf(people.id)).toBe(requests);
  });

  it('puts a cached name back when a rename that a save showed is refused and discarded', async () => {
    // The first rename stays on its way while the second is made.
    const patches = holdPatches();
    h = await startHarness({ fetch: patches.fetch });
    const baseId = await h.demoBaseId();
    const people = (await schema(baseId)).get('People')!;
    const { ids } = await firstPageLinks(baseId);
    const person = ids[0]!;
    const named = async () =>
      (
        await h.call('links.names', {
          connectionId: 'demo',
          baseId,
          tables: [{ tableId: people.id, ids: [person] }],
        })
      ).tables[0]!.names[person];
    const original = await named();
    const target = { connectionId: 'demo', baseId, table: 'People' };

    await h.call('edits.edit', {
      target,
      changes: [{ recordId: person, fields: { Name: 'Saved Name' }, previous: { Name: original } }],
    });
    h.services.dispatch('edits.sendNow', {});
    await expect.poll(() => patches.count).toBe(1);
    // The service refuses the record's next request (its team was deleted meanwhile), the name with it. The
    // first rename's save carries the second as edited since.
    await h.call('edits.edit', {
      target,
      changes: [
        {
          recordId: person,
          fields: { Name: 'Never Saved', Team: ['recGoneTeam000000'] },
          previous: { Name: 'Saved Name' },
        },
      ],
    });
    patches.release();
    await expect.poll(async () => (await h.call('edits.status', {})).rejected, { timeout: 10_000 }).toBe(1);
    await expect.poll(named).toBe('Never Saved');

    await h.call('edits.discard', { target, recordId: person });
    await expect.poll(named).toBe('Saved Name');
    expect((await serverNames(baseId, people.id)).get(person)).toBe('Saved Name');
    await expect
      .poll(() => h.eventsOf('links.renamed').at(-1))
      .toEqual({ baseId, tableId: people.id, names: { [person]: 'Saved Name' } });
  });

  it('searches a table by its primary field, resolves names to ids, and reads one record', async () => {
    h = await startHarness();
    const baseId = await h.demoBaseId();
    const people = (await schema(baseId)).get('People')!;
    const names = await serverNames(baseId, people.id);
    const [id, name] = [...names][3]!;
    const ref = { connectionId: 'demo', baseId, tableId: people.id };

    const found = await h.call('links.search', { ...ref, text: name.slice(1, -1).toUpperCase() });
    expect(found.records).toContainEqual({ id, name });
    for (const r of found.records) expect(r.name.toLowerCase()).toContain(name.slice(1, -1).toLowerCase());
    const firstPage = await h.call('links.search', { ...ref, text: '' });
    expect(firstPage.records).toHaveLength(100);
    expect(firstPage.offset).toBeDefined();
    const next = await h.call('links.search', { ...ref, text: '', offset: firstPage.offset! });
    expect(next.records[0]!.id).not.toBe(firstPage.records[0]!.id);

    const resolved = await h.call('links.resolve', { ...ref, names: [name, "No one's name"] });
    expect(resolved.ids).toEqual({ [name]: id });

    const { record } = await h.call('links.record', { ...ref, recordId: id });
    expect(record.fields['Name']).toBe(name);
  });

  it('asks fewer ids a request after the service refuses a page of them as too much work', async () => {
    h = await startHarness();
    const baseId = await h.demoBaseId();
    const people = (await schema(baseId)).get('People')!;
    const expected = await serverNames(baseId, people.id);
    const wanted = [...expected.keys()].slice(0, 150);
    const connectionId = await proxied();
    proxy!.inject(
      {
        type: 'status',
        status: 422,
        body: JSON.stringify({
          error: {
            type: 'INVALID_FILTER_BY_FORMULA',
            message:
              'The formula for filtering records is too expensive: it needs more work than one request may take.',
          },
        }),
      },
      { match: (r) => idsIn(r) > 60, times: Infinity },
    );
    const answer = await h.call('links.names', {
      connectionId,
      baseId,
      tables: [{ tableId: people.id, ids: wanted }],
    });
    expect(Object.keys(answer.tables[0]!.names)).toHaveLength(150);
    for (const id of wanted) expect(answer.tables[0]!.names[id]).toBe(expected.get(id));
    const sizes = proxy!.log.filter((r) => idsIn(r) > 0).map(idsIn);
    // 100 refused beside 50 read, then a probe of 50 that passes, then the last 50.
    expect(sizes).toEqual([100, 50, 50, 50]);
  });

  it('says which ids it could not name in a few words, however many there are', async () => {
    h = await startHarness();
    const baseId = await h.demoBaseId();
    const people = (await schema(baseId)).get('People')!;
    const wanted = [...(await serverNames(baseId, people.id)).keys()].slice(0, 150);
    const connectionId = await proxied();
    proxy!.inject({ type: 'status', status: 403 }, { match: (r) => idsIn(r) > 0, times: Infinity });
    const answer = await h.call('links.names', {
      connectionId,
      baseId,
      tables: [{ tableId: people.id, ids: wanted }],
    });
    expect(answer.tables[0]!.names).toEqual({});
    const lastError = () =>
      h.eventsOf('client.status').findLast((s) => s.connectionId === connectionId && s.lastError)
        ?.lastError ?? '';
    await expect
      .poll(lastError, { timeout: 10_000 })
      .toContain(
        `Names of 150 linked records could not be read (${wanted.slice(0, 3).join(', ')} and 147 more)`,
      );
    expect(lastError().match(/rec[A-Za-z0-9]{14}/g)).toHaveLength(3);

    // Not cached: asked again once the service answers, they are named.
    proxy!.reset();
    const again = await h.call('links.names', {
      connectionId,
      baseId,
      tables: [{ tableId: people.id, ids: wanted }],
    });
    expect(Object.keys(again.tables[0]!.names)).toHaveLength(150);
  });
  it('on a metered connection, names the links of ten pages of rows by reading a small linked table whole', async () => {
    h = await startHarness();
    const baseId = await h.demoBaseId();
    const people = (await schema(baseId)).get('People')!;
    const size = (await serverNames(baseId, people.id)).size;
    expect(size).toBeGreaterThan(100);
    expect(size).toBeLessThanOrEqual(300);
    const hosted = await extensionlessConnection(h);
    proxy = hosted.proxy;
    const { connectionId } = hosted;
    const { viewId } = await h.call('view.open', { connectionId, baseId, table: 'Tasks' });
    const peopleReads = () =>
      hosted.proxy.log.filter(
        (r) => /^\/v0\/app\w+\/tbl\w+(\?|\/listRecords)/.test(r.path) && r.path.includes(people.id),
      ).length;
    const named = new Map<string, string>();
    // The grid asks for each block's names as its rows arrive, a page of 100 at a time.
    for (let start = 0; start < 1000; start += 100) {
      const { records } = await h.call('view.rows', { viewId, start, end: start + 100 });
      const ids = [...new Set(records.flatMap((r) => (r.fields['Assignee'] as string[] | undefined) ?? []))];
      const answer = await h.call('links.names', {
        connectionId,
        baseId,
        tables: [{ tableId: people.id, ids }],
      });
      expect(Object.keys(answer.tables[0]!.names).sort()).toEqual([...ids].sort());
      for (const [id, name] of Object.entries(answer.tables[0]!.names)) named.set(id, name);
    }
    // Its 100-record pages, read once (by ids it was a request for nearly every page of rows).
    expect(peopleReads()).toBe(Math.ceil(size / 100));
    const expected = await serverNames(baseId, people.id);
    for (const [id, name] of named) expect(name).toBe(expected.get(id));
  });
});
