/**
 * The local server's webhooks over loopback: create, list, refresh, delete; payloads read with the cursor,
 * one per write, holding creates, changes (current and previous) and deletes from every write route; the
 * table scope; the cap per base; and bad input refused with a 4xx that echoes no key.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_WEBHOOKS_PER_BASE } from '../../../server/store/webhooks';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';

let s: LocalServer;
let hooks: string;
let tasksId: string;
let nameId: string;
let labelId: string;
let assigneeId: string;
let peopleId: string;

const tableData = (extra: Record<string, unknown> = {}) => ({
  specification: { options: { filters: { dataTypes: ['tableData'], ...extra } } },
});

async function newHook(extra: Record<string, unknown> = {}): Promise<string> {
  const r = await s.request('POST', hooks, tableData(extra));
  expect(r.status).toBe(200);
  return r.body.id as string;
}

async function payloads(hook: string, cursor?: number) {
  const r = await s.request('GET', `${hooks}/${hook}/payloads${cursor ? `?cursor=${cursor}` : ''}`);
  expect(r.status).toBe(200);
  return r.body;
}

beforeAll(async () => {
  s = await startLocalServer({ demo: { largeTableRecords: 20 } });
  hooks = `/v0/bases/${s.baseId}/webhooks`;
  const meta = await s.request('GET', `/v0/meta/bases/${s.baseId}/tables`);
  const tasks = meta.body.tables.find((t: { name: string }) => t.name === 'Tasks');
  tasksId = tasks.id;
  const field = (name: string) => tasks.fields.find((f: { name: string }) => f.name === name).id as string;
  nameId = field('Name');
  labelId = field('Label');
  assigneeId = field('Assignee');
  peopleId = meta.body.tables.find((t: { name: string }) => t.name === 'People').id;
});

afterAll(async () => {
  await s.close();
});

describe('webhooks', () => {
  it('creates, lists, refreshes and deletes a webhook', async () => {
    const before = Date.now();
    const r = await s.request('POST', hooks, { notificationUrl: null, ...tableData() });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: expect.stringMatching(/^ach[A-Za-z0-9]{14}$/),
      macSecretBase64: expect.stringMatching(/^[A-Za-z0-9+/]{43}=$/),
    });
    const expires = Date.parse(r.body.expirationTime);
    expect(expires - before).toBeGreaterThanOrEqual(7 * 24 * 3600_000 - 1000);
    const list = await s.request('GET', hooks);
    const listed = list.body.webhooks.find((w: { id: string }) => w.id === r.body.id);
    expect(listed).toMatchObject({
      areNotificationsEnabled: false,
      isHookEnabled: true,
      cursorForNextPayload: expect.any(Number),
      specification: { options: { filters: { dataTypes: ['tableData'] } } },
    });
    expect(JSON.stringify(list.body)).not.toContain(r.body.macSecretBase64);
    const refreshed = await s.request('POST', `${hooks}/${r.body.id}/refresh`);
    expect(refreshed.status).toBe(200);
    expect(Date.parse(refreshed.body.expirationTime)).toBeGreaterThanOrEqual(expires);
    expect((await s.request('DELETE', `${hooks}/${r.body.id}`)).status).toBe(200);
    expect((await s.request('DELETE', `${hooks}/${r.body.id}`)).status).toBe(404);
    expect((await s.request('POST', `${hooks}/${r.body.id}/refresh`)).status).toBe(404);
    expect((await s.request('GET', `${hooks}/${r.body.id}/payloads`)).status).toBe(404);
  });

  it('records one payload per write, read in order with the cursor: creates, changes and deletes', async () => {
    const hook = await newHook();
    const start = await payloads(hook);
    expect(start).toMatchObject({ payloads: [], mightHaveMore: false });
    const created = await s.request('POST', `/v0/${s.baseId}/Tasks`, {
      records: [{ fields: { Name: 'one' } }, { fields: { Name: 'two' } }],
    });
    const [one, two] = created.body.records.map((x: { id: string }) => x.id) as [string, string];
    await s.request('PATCH', `/v0/${s.baseId}/Tasks/${one}`, { fields: { Name: 'uno' } });
    await s.request('DELETE', `/v0/${s.baseId}/Tasks/${two}`);

    const read = await payloads(hook, start.cursor);
    expect(read.mightHaveMore).toBe(false);
    expect(read.payloads).toHaveLength(3);
    const [p1, p2, p3] = read.payloads;
    expect(p1.baseTransactionNumber).toBeLessThan(p2.baseTransactionNumber);
    expect(p2.baseTransactionNumber).toBeLessThan(p3.baseTransactionNumber);
    expect(p1.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(Object.keys(p1.changedTablesById[tasksId].createdRecordsById).sort()).toEqual([one, two].sort());
    expect(p1.changedTablesById[tasksId].createdRecordsById[one].cellValuesByFieldId[nameId]).toBe('one');
    // The formula over Name (Label) changed with it, in the same payload.
    expect(p2.changedTablesById[tasksId].changedRecordsById[one]).toEqual({
      current: { cellValuesByFieldId: { [nameId]: 'uno', [labelId]: ': uno' } },
      previous: { cellValuesByFieldId: { [nameId]: 'one', [labelId]: ': one' } },
    });
    expect(p3.changedTablesById[tasksId].destroyedRecordIds).toEqual([two]);

    const after = await payloads(hook, read.cursor);
    expect(after.payloads).toEqual([]);
    expect(after.cursor).toBe(read.cursor);
  });

  it("a cleared cell is null in current; typecast's new link record and the inverse link are in the same payload", async () => {
    const hook = await newHook();
    const { cursor } = await payloads(hook);
    const r = await s.request('POST', `/v0/${s.baseId}/Tasks`, { fields: { Name: 'temp' } });
    await s.request('PATCH', `/v0/${s.baseId}/Tasks/${r.body.id}`, { fields: { Name: null } });
    const linked = await s.request('PATCH', `/v0/${s.baseId}/Tasks/${r.body.id}`, {
      fields: { Assignee: ['Webhook Person'] },
      typecast: true,
    });
    expect(linked.status).toBe(200);
    const read = await payloads(hook, cursor);
    expect(read.payloads).toHaveLength(3);
    expect(read.payloads[1].changedTablesById[tasksId].changedRecordsById[r.body.id]).toMatchObject({
      current: { cellValuesByFieldId: { [nameId]: null } },
      previous: { cellValuesByFieldId: { [nameId]: 'temp' } },
    });
    const person = linked.body.fields.Assignee[0] as string;
    const last = read.payloads[2].changedTablesById;
    expect(last[tasksId].changedRecordsById[r.body.id].current.cellValuesByFieldId[assigneeId]).toEqual([
      person,
    ]);
    // The new person, made by typecast, already links back to the task (its inverse field).
    expect(Object.keys(last[peopleId].createdRecordsById)).toEqual([person]);
  });

  it('a webhook reads nothing written before it was made, even from cursor 1 with another webhook logging', async () => {
    const older = await newHook();
    await s.request('POST', `/v0/${s.baseId}/Tasks`, { fields: { Name: 'before the hook' } });
    const hook = await newHook();
    expect((await payloads(hook, 1)).payloads).toEqual([]);
    await s.request('POST', `/v0/${s.baseId}/Tasks`, { fields: { Name: 'after the hook' } });
    const read = await payloads(hook, 1);
    expect(read.payloads).toHaveLength(1);
    const made = Object.values(read.payloads[0].changedTablesById[tasksId].createdRecordsById) as {
      cellValuesByFieldId: Record<string, unknown>;
    }[];
    expect(made.map((r) => r.cellValuesByFieldId[nameId])).toEqual(['after the hook']);
    // The list's cursor for the next payload is where this read stopped.
    const listed = (await s.request('GET', hooks)).body.webhooks.find((w: { id: string }) => w.id === hook);
    expect(listed.cursorForNextPayload).toBe(read.cursor);
    expect((await payloads(older, 1)).payloads).toHaveLength(2);
  });

  it('a cursor read before a restart goes on after it: nothing skipped, nothing again, later transactions numbered after', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'td-hooks-'));
    try {
      const first = await startLocalServer({ memory: false, dataDir, demo: { largeTableRecords: 5 } });
      const path = `/v0/bases/${first.baseId}/webhooks`;
      const id = (await first.request('POST', path, tableData())).body.id as string;
      const write = (server: LocalServer, name: string) =>
        server.request('POST', `/v0/${server.baseId}/Tasks`, { fields: { Name: name } });
      await write(first, 'one');
      await write(first, 'two');
      const before = (await first.request('GET', `${path}/${id}/payloads`)).body;
      expect(before.payloads).toHaveLength(2);
      await first.close();

      const second = await startLocalServer({ memory: false, dataDir });
      try {
        await write(second, 'three');
        const after = (await second.request('GET', `${path}/${id}/payloads?cursor=${before.cursor}`)).body;
        expect(after.payloads).toHaveLength(1);
        expect(after.payloads[0].baseTransactionNumber).toBeGreaterThan(
          before.payloads[1].baseTransactionNumber,
        );
        const all = (await second.request('GET', `${path}/${id}/payloads`)).body;
        expect(all.payloads.map((p: { baseTransactionNumber: number }) => p.baseTransactionNumber)).toEqual([
          ...before.payloads.map((p: { baseTransactionNumber: number }) => p.baseTransactionNumber),
          after.payloads[0].baseTransactionNumber,
        ]);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('a table scope sees only its table', async () => {
    const meta = await s.request('GET', `/v0/meta/bases/${s.baseId}/tables`);
    const other = meta.body.tables.find((t: { id: string }) => t.id !== tasksId);
    const hook = await newHook({ recordChangeScope: other.id });
    const { cursor } = await payloads(hook);
    await s.request('POST', `/v0/${s.baseId}/Tasks`, { fields: { Name: 'not seen' } });
    const made = await s.request('POST', `/v0/${s.baseId}/${other.id}`, { fields: {} });
    expect(made.status).toBe(200);
    const read = await payloads(hook, cursor);
    expect(read.payloads).toHaveLength(1);
    expect(Object.keys(read.payloads[0].changedTablesById)).toEqual([other.id]);
    const unknown = await s.request('POST', hooks, tableData({ recordChangeScope: 'tblNoSuchTable0000' }));
    expect(unknown.status).toBe(404);
  });

  it(`caps a base at ${MAX_WEBHOOKS_PER_BASE} webhooks`, async () => {
    for (const w of (await s.request('GET', hooks)).body.webhooks)
      await s.request('DELETE', `${hooks}/${w.id}`);
    for (let i = 0; i < MAX_WEBHOOKS_PER_BASE; i++) await newHook();
    const over = await s.request('POST', hooks, tableData());
    expect(over.status).toBe(422);
    expect(over.body.error.type).toBe('TOO_MANY_WEBHOOKS_BY_OAUTH_INTEGRATION_IN_BASE');
    for (const w of (await s.request('GET', hooks)).body.webhooks)
      await s.request('DELETE', `${hooks}/${w.id}`);
  });

  it('refuses bad input with a 4xx and never echoes the key', async () => {
    const bad: [string, string, unknown][] = [
      ['POST', hooks, {}],
      ['POST', hooks, { specification: { options: { filters: { dataTypes: ['tableFields'] } } } }],
      ['POST', hooks, { notificationUrl: 'not a url', ...tableData() }],
      ['POST', hooks, { notificationUrl: `https://x.test/${'a'.repeat(3000)}`, ...tableData() }],
      ['POST', hooks, '{"specification": '],
      ['GET', `${hooks}/achNoSuchHook00000/payloads`, undefined],
      ['GET', `${hooks}/${'a'.repeat(900)}/payloads`, undefined],
    ];
    const hook = await newHook();
    bad.push(
      ['GET', `${hooks}/${hook}/payloads?cursor=0`, undefined],
      ['GET', `${hooks}/${hook}/payloads?cursor=abc`, undefined],
      ['GET', `${hooks}/${hook}/payloads?limit=51`, undefined],
      ['GET', `${hooks}/${hook}/payloads?cursor=99999999999999999999`, undefined],
    );
    for (const [method, path, body] of bad) {
      const r = await s.request(method, path, body);
      expect(r.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
      expect(r.status, `${method} ${path}`).toBeLessThan(500);
      expect(r.text).not.toContain(s.apiKey);
    }
    const other = await s.request('GET', `/v0/bases/appNoSuchBase00000/webhooks`);
    expect(other.status).toBe(403);
    const noKey = await s.request('GET', hooks, undefined, { authorization: 'Bearer nope' });
    expect(noKey.status).toBe(401);
    await s.request('DELETE', `${hooks}/${hook}`);
  });
});
