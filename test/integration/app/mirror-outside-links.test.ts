/**
 * A copy of some of a hosted base's tables keeps links into the tables it left out (issue 22, item 5): only
 * the service holds those records. Undoing a delete of a team (its People link to records the copy of Teams
 * does not hold) re-creates it with them, an edit of the links keeps those it did not touch, a create names
 * them by id, and the sync sends each as it is. A second local server plays the hosted service.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';
import { startHarness } from './harness';
import type { Harness } from './harness';

interface Wire {
  id: string;
  fields: Record<string, unknown>;
}

let remote: LocalServer;
let h: Harness;
let mirrorId: string;
let target: { connectionId: string; baseId: string; table: string };

beforeAll(async () => {
  remote = await startLocalServer({ demo: { largeTableRecords: 20 } });
  h = await startHarness({ embedded: { largeTableRecords: 20 } });
  const { connection } = await h.call('connections.save', {
    name: 'Hosted',
    baseUrl: remote.url,
    apiKey: remote.apiKey,
  });
  const tables = (await remote.request('GET', `/v0/meta/bases/${remote.baseId}/tables`)).body as {
    tables: { id: string; name: string }[];
  };
  const teams = tables.tables.find((t) => t.name === 'Teams')!.id;
  const made = await h.call('mirror.start', {
    connectionId: connection.id,
    baseId: remote.baseId,
    tableIds: [teams],
  });
  mirrorId = made.mirror!.id;
  target = { connectionId: 'demo', baseId: made.mirror!.local.baseId, table: 'Teams' };
});
afterAll(async () => {
  await h?.close();
  await remote?.close();
});

const remoteTeams = async () =>
  ((await remote.request('GET', `/v0/${remote.baseId}/Teams`)).body as { records: Wire[] }).records;

async function copyRows(): Promise<Wire[]> {
  const { viewId } = await h.call('view.open', { ...target, query: {} });
  return (await h.call('view.rows', { viewId, start: 0, end: 100 })).records;
}

async function sync() {
  const result = await h.call('mirror.sync', { mirrorId });
  expect(result).toMatchObject({ conflicts: 0 });
  return result;
}

describe('a single-table copy and links into the tables it left out', () => {
  it('undoing a delete brings the record back with its links, and the sync sends them as they are', async () => {
    const team = (await copyRows()).find((r) => r.fields.Name === 'Design')!;
    const people = team.fields.People as string[];
    expect(people.length).toBeGreaterThan(1);
    await h.call('records.delete', {
      target,
      records: [{ id: team.id, fields: team.fields }],
      readOnlyFields: ['Task count', 'Budget total'],
      undoable: true,
    });
    const undone = await h.call('history.undo', { target });
    expect(undone).toMatchObject({ done: true });
    const back = (await copyRows()).find((r) => r.fields.Name === 'Design')!;
    expect(back.id).not.toBe(team.id);
    expect(back.fields.People).toEqual(people);

    await sync();
    const theirs = (await remoteTeams()).filter((r) => r.fields.Name === 'Design');
    expect(theirs).toHaveLength(1);
    expect(theirs[0]!.fields.People).toEqual(people);
  });

  it('an edit of the links and a create naming records by id keep them, on the copy and on the service', async () => {
    const team = (await copyRows()).find((r) => r.fields.Name === 'Growth')!;
    const people = team.fields.People as string[];
    const kept = people.slice(1);
    await h.call('edits.edit', { target, changes: [{ recordId: team.id, fields: { People: kept } }] });
    const { created } = await h.call('records.create', {
      target,
      records: [{ fields: { Name: 'Offline team', People: [people[0]!] } }],
    });
    expect(created).toHaveLength(1);
    await expect
      .poll(async () => (await copyRows()).find((r) => r.id === team.id)?.fields.People, { timeout: 10_000 })
      .toEqual(kept);

    await sync();
    const theirs = await remoteTeams();
    expect(theirs.find((r) => r.id === team.id)?.fields.People).toEqual(kept);
    expect(theirs.find((r) => r.fields.Name === 'Offline team')?.fields.People).toEqual([people[0]]);
  });

  it('a name typed into such a link is refused with words, not made into a record the copy cannot send', async () => {
    const res = await h.call('records.create', {
      target,
      records: [{ fields: { Name: 'Typed', People: 'Ada Lovelace' } }],
      typecast: true,
    });
    expect(res.created).toHaveLength(0);
    expect(JSON.stringify(res.failed)).toContain('which this offline copy does not hold');
  });
});
