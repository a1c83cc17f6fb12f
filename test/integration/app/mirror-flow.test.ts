/**
 * The `mirror.*` channels end to end through the app's dispatcher, with a second local server playing the
 * hosted service: progress naming its base, Cancel leaving a partial mirror that the same call resumes, a
 * second start or Sync joining the one running, the badge's count of local changes following edits, a
 * conflict listed, saved as JSON and resolved, and the automatic sync remembered and run.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MirrorInfo } from '../../../core/contract';
import { diskFiles } from '../../../services/edits/journal';
import type { JournalFiles } from '../../../services/edits/ports';
import { startFaultProxy } from '../../support/fault-proxy';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';
import { startHarness } from './harness';
import type { Harness } from './harness';

let remote: LocalServer;
let tableIds: Record<string, string>;

beforeAll(async () => {
  remote = await startLocalServer({ demo: { largeTableRecords: 400 } });
  const tables = (await remote.request('GET', `/v0/meta/bases/${remote.baseId}/tables`)).body as {
    tables: { id: string; name: string }[];
  };
  tableIds = Object.fromEntries(tables.tables.map((t) => [t.name, t.id]));
});
afterAll(() => remote.close());

async function appWithHosted(options: Parameters<typeof startHarness>[0] = {}) {
  // The client's own throttle at the service's 5 requests/s, so that a pull takes long enough to cancel.
  const h = await startHarness({ requestsPerSecond: 5, embedded: { largeTableRecords: 20 }, ...options });
  const { connection } = await h.call('connections.save', {
    name: 'Hosted',
    baseUrl: remote.url,
    apiKey: remote.apiKey,
  });
  return { h, connectionId: connection.id };
}

async function until<T>(find: () => T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > end) throw new Error('waited in vain');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const remoteName = async (table: string, id: string) =>
  ((await remote.request('GET', `/v0/${remote.baseId}/${table}/${id}`)).body as { fields: { Name?: string } })
    .fields.Name;

/** The edit journal on disk, whose syncs a test can hold: an edit typed then is still being journaled. */
function heldJournal(): { files: JournalFiles; hold(): void; release(): void } {
  let gate: Promise<void> | undefined;
  let open = () => undefined as void;
  return {
    files: {
      ...diskFiles,
      open: async (path, flags, mode) => {
        const handle = await diskFiles.open(path, flags, mode);
        return {
          write: (data) => handle.write(data),
          sync: () => handle.sync(),
          truncate: (length) => handle.truncate(length),
          close: () => handle.close(),
          datasync: async () => {
            await gate;
            await handle.datasync();
          },
        };
      },
    },
    hold: () => void (gate = new Promise<void>((resolve) => (open = resolve))),
    release: () => {
      gate = undefined;
      open();
    },
  };
}

const lastChanged = (h: Harness): MirrorInfo | undefined => h.eventsOf('mirror.changed').at(-1)?.mirrors[0];

describe('a mirror through the channels', () => {
  let h: Harness;
  let connectionId: string;
  let mirror: MirrorInfo;
  let recordId: string;
  const journal = heldJournal();

  beforeAll(async () => {
    ({ h, connectionId } = await appWithHosted({ journalFiles: journal.files }));
  });
  afterAll(() => h.close());

  it('reports progress naming its base; Cancel leaves a partial mirror that the same call resumes', async () => {
    const source = { connectionId, baseId: remote.baseId, tableIds: [tableIds.Tasks!] };
    const pull = h.call('mirror.start', source);
    const first = await until(() => h.eventsOf('mirror.progress')[0]);
    expect(first.source).toEqual({ connectionId, baseId: remote.baseId });
    expect(await h.call('mirror.cancel', { mirrorId: first.mirrorId })).toEqual({ cancelled: true });
    const stopped = await pull;
    expect(stopped).toMatchObject({ cancelled: true, mirror: { id: first.mirrorId, state: 'partial' } });
    expect(await h.call('mirror.cancel', { mirrorId: first.mirrorId })).toEqual({ cancelled: false });
    await until(() => (lastChanged(h)?.state === 'partial' ? true : undefined));

    // Two clicks on Resume: the second joins the first (the engine runs one pull of a mirror at a time).
    const [a, b] = await Promise.all([h.call('mirror.start', source), h.call('mirror.start', source)]);
    expect(a).toEqual(b);
    expect(a).toMatchObject({
      cancelled: false,
      mirror: { id: first.mirrorId, state: 'ready', localChanges: 0 },
    });
    mirror = a.mirror!;
    expect(mirror.tables).toEqual([{ id: tableIds.Tasks, name: 'Tasks' }]);
    expect(mirror.local).toEqual({ connectionId: 'demo', baseId: remote.baseId });
    expect(mirror.autoSyncMinutes).toBe(0);
    for (const p of h.eventsOf('mirror.progress')) expect(p.source?.baseId).toBe(remote.baseId);
    expect(await h.call('mirror.list', {})).toEqual({ mirrors: [mirror] });
  });

  it('opens as a base of the local server and counts a local edit on the badge', async () => {
    const target = { connectionId: 'demo', baseId: mirror.local.baseId, table: 'Tasks' };
    const { viewId } = await h.call('view.open', { ...target, query: {} });
    recordId = (await h.call('view.rows', { viewId, start: 0, end: 1 })).records[0]!.id;
    const before = h.eventsOf('mirror.changed').length;
    await h.call('edits.edit', { target, changes: [{ recordId, fields: { Name: 'Mine' } }] });
    const changed = await until(() =>
      h
        .eventsOf('mirror.changed')
        .slice(before)
        .find((e) => e.mirrors[0]?.localChanges === 1),
    );
    expect(changed.mirrors[0]).toMatchObject({ id: mirror.id, localChanges: 1, conflicts: 0 });
  });

  it('syncs once for two clicks, lists the conflict, saves it as JSON and resolves it with an edit', async () => {
    await remote.request('PATCH', `/v0/${remote.baseId}/Tasks/${recordId}`, { fields: { Name: 'Theirs' } });
    const [a, b] = await Promise.all([
      h.call('mirror.sync', { mirrorId: mirror.id }),
      h.call('mirror.sync', { mirrorId: mirror.id }),
    ]);
    expect(a).toEqual(b);
    expect(a).toMatchObject({ sent: 0, conflicts: 1 });
    const syncProgress = h.eventsOf('mirror.progress').filter((p) => p.phase === 'push');
    expect(syncProgress.length).toBeGreaterThan(0);
    expect(syncProgress.every((p) => p.source === undefined)).toBe(true);

    const { conflicts } = await h.call('mirror.conflicts', { mirrorId: mirror.id });
    expect(conflicts).toEqual([
      expect.objectContaining({
        recordId,
        tableName: 'Tasks',
        fieldName: 'Name',
        kind: 'cell',
        mine: 'Mine',
        theirs: 'Theirs',
      }),
    ]);
    const report = await h.call('mirror.saveReport', { mirrorId: mirror.id });
    expect(report).toMatchObject({
      cancelled: false,
      conflicts: 1,
      fileName: expect.stringMatching(/ conflicts \d{4}-\d\d-\d\d\.json$/),
    });
    expect(report.filePath).toBeUndefined();
    const saved = JSON.parse(report.json!) as { kind: string; mirror: { id: string }; conflicts: unknown[] };
    expect(saved).toMatchObject({ kind: 'tabledesk.mirror-conflicts', mirror: { id: mirror.id } });
    expect(saved.conflicts).toEqual([
      {
        table: 'Tasks',
        tableId: tableIds.Tasks,
        recordId,
        // The record is named by its primary field as of the last sync, which here is the field in conflict.
        record: conflicts[0]!.base,
        field: 'Name',
        kind: 'cell',
        lastSynced: conflicts[0]!.base,
        mine: 'Mine',
        theirs: 'Theirs',
      },
    ]);

    const before = h.eventsOf('mirror.changed').length;
    expect(
      await h.call('mirror.resolve', {
        mirrorId: mirror.id,
        resolutions: [{ conflictId: conflicts[0]!.id, choice: 'edit', value: 'Both' }],
      }),
    ).toEqual({ resolved: 1, changed: 0 });
    expect(await remoteName('Tasks', recordId)).toBe('Both');
    const after = await until(() => h.eventsOf('mirror.changed').slice(before).at(-1));
    expect(after.mirrors[0]).toMatchObject({ conflicts: 0, localChanges: 0 });
    expect((await h.call('mirror.conflicts', { mirrorId: mirror.id })).conflicts).toEqual([]);
  });

  it('an edit made just before Sync is in that sync: a conflict with the service, never sent over it later', async () => {
    const target = { connectionId: 'demo', baseId: mirror.local.baseId, table: 'Tasks' };
    await remote.request('PATCH', `/v0/${remote.baseId}/Tasks/${recordId}`, {
      fields: { Name: 'Theirs again' },
    });
    // Not awaited: the edit is still being journaled, or waiting in the queue for more typing, when Sync comes.
    const edit = h.call('edits.edit', { target, changes: [{ recordId, fields: { Name: 'Mine again' } }] });
    const synced = await h.call('mirror.sync', { mirrorId: mirror.id });
    await edit;
    expect(synced).toMatchObject({ sent: 0, conflicts: 1 });
    const { conflicts } = await h.call('mirror.conflicts', { mirrorId: mirror.id });
    expect(conflicts).toEqual([
      expect.objectContaining({ recordId, mine: 'Mine again', theirs: 'Theirs again' }),
    ]);
    expect(await remoteName('Tasks', recordId)).toBe('Theirs again');
  });

  it('an edit made just before a resolution is in the sync that follows it', async () => {
    const target = { connectionId: 'demo', baseId: mirror.local.baseId, table: 'Tasks' };
    const [open] = (await h.call('mirror.conflicts', { mirrorId: mirror.id })).conflicts;
    const { viewId } = await h.call('view.open', { ...target, query: {} });
    const other = (await h.call('view.rows', { viewId, start: 1, end: 2 })).records[0]!.id;
    await remote.request('PATCH', `/v0/${remote.baseId}/Tasks/${other}`, { fields: { Name: 'Theirs too' } });
    // The edit of another record is still being journaled when the user resolves.
    journal.hold();
    const edit = h.call('edits.edit', {
      target,
      changes: [{ recordId: other, fields: { Name: 'Mine too' } }],
    });
    const mark = h.eventsOf('mirror.progress').length;
    const resolved = h.call('mirror.resolve', {
      mirrorId: mirror.id,
      resolutions: [{ conflictId: open!.id, choice: 'theirs' }],
    });
    const progress = (phase?: string) =>
      until(() =>
        h
          .eventsOf('mirror.progress')
          .slice(mark)
          .find((p) => !phase || p.phase === phase),
      );
    // A sync that does not wait for the edit starts at once: the edit is let go once it has pulled (or ended).
    // One that waits shows nothing until the edit is let go (a while later).
    const started = await Promise.race([progress(), new Promise((r) => setTimeout(r, 2000))]);
    if (started) await Promise.race([progress('push'), resolved]);
    journal.release();
    await resolved;
    await edit;
    const { conflicts } = await h.call('mirror.conflicts', { mirrorId: mirror.id });
    expect(conflicts).toEqual([
      expect.objectContaining({ recordId: other, mine: 'Mine too', theirs: 'Theirs too' }),
    ]);
    expect(await remoteName('Tasks', other)).toBe('Theirs too');
  });
});

describe('the automatic sync', () => {
  it('is remembered per mirror, runs at its interval, and stops when turned off', async () => {
    // A "minute" of 150 ms.
    const { h, connectionId } = await appWithHosted({ autoSyncMinuteMs: 150 });
    try {
      const { mirror } = await h.call('mirror.start', {
        connectionId,
        baseId: remote.baseId,
        tableIds: [tableIds.Teams!],
      });
      const mirrorId = mirror!.id;
      expect(await h.call('mirror.autoSync', { mirrorId, minutes: 2 })).toEqual({ autoSyncMinutes: 2 });
      const file = JSON.parse(await readFile(join(h.userDataDir, 'mirrors.json'), 'utf8')) as unknown;
      expect(file).toEqual({ autoSync: { [mirrorId]: 2 } });
      expect((await h.call('mirror.list', {})).mirrors[0]?.autoSyncMinutes).toBe(2);

      const synced = mirror!.lastSyncedAt!;
      await until(() => {
        const m = lastChanged(h);
        return m !== undefined && m.lastSyncedAt! > synced ? m : undefined;
      });

      await h.call('mirror.autoSync', { mirrorId, minutes: 0 });
      expect(JSON.parse(await readFile(join(h.userDataDir, 'mirrors.json'), 'utf8'))).toEqual({
        autoSync: {},
      });
      await new Promise((r) => setTimeout(r, 400));
      const settled = (await h.call('mirror.list', {})).mirrors[0]!;
      await new Promise((r) => setTimeout(r, 900));
      expect((await h.call('mirror.list', {})).mirrors[0]!.lastSyncedAt).toBe(settled.lastSyncedAt);
      expect(settled.autoSyncMinutes).toBe(0);
    } finally {
      await h.close();
    }
  });
  it('says when each automatic sync ended, so that a newer failure or success shows over a manual result', async () => {
    // The toolbar keeps a manual sync's result only until an automatic sync ends after it (issue 22, item 6).
    const proxy = await startFaultProxy(remote.url);
    const h = await startHarness({
      requestsPerSecond: 5,
      embedded: { largeTableRecords: 20 },
      autoSyncMinuteMs: 150,
    });
    try {
      const { connection } = await h.call('connections.save', {
        name: 'Hosted',
        baseUrl: proxy.url,
        apiKey: remote.apiKey,
      });
      const { mirror } = await h.call('mirror.start', {
        connectionId: connection.id,
        baseId: remote.baseId,
        tableIds: [tableIds.Teams!],
      });
      const mirrorId = mirror!.id;
      await h.call('mirror.sync', { mirrorId });
      const manualAt = Date.now();
      expect((await h.call('mirror.list', {})).mirrors[0]!.autoSyncAt).toBeUndefined();

      proxy.inject(
        { type: 'status', status: 403, body: '{"error":{"type":"INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND"}}' },
        { times: Infinity },
      );
      await h.call('mirror.autoSync', { mirrorId, minutes: 1 });
      const failed = await until(() => {
        const m = lastChanged(h);
        return m?.autoSyncError !== undefined ? m : undefined;
      });
      expect(failed.autoSyncAt).toBeGreaterThanOrEqual(manualAt);

      proxy.reset();
      const recovered = await until(() => {
        const m = lastChanged(h);
        return m !== undefined && m.autoSyncError === undefined ? m : undefined;
      });
      expect(recovered.autoSyncAt).toBeGreaterThan(failed.autoSyncAt!);
      expect(recovered.autoSyncAt).toBeGreaterThanOrEqual(recovered.lastSyncedAt!);

      // Turned off while an automatic sync is under way (the service holds each answer), the automatic
      // outcome is forgotten, and that sync's ending does not bring it back.
      proxy.inject({ type: 'delay', ms: 400 }, { times: Infinity });
      const arrived = proxy.arrived;
      await until(() => (proxy.arrived > arrived ? true : undefined));
      await h.call('mirror.autoSync', { mirrorId, minutes: 0 });
      await new Promise((r) => setTimeout(r, 500));
      const off = (await h.call('mirror.list', {})).mirrors[0]!;
      expect(off.autoSyncAt).toBeUndefined();
      expect(off.autoSyncError).toBeUndefined();
    } finally {
      await h.close();
      await proxy.close();
    }
  });
});

describe('the conflicts report in Electron', () => {
  it('is written where the save dialog says, and nowhere when it is declined', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'tabledesk-report-'));
    const answers: (string | undefined)[] = [join(folder, 'chosen.json'), undefined];
    const asked: string[] = [];
    const { h, connectionId } = await appWithHosted({
      exportDestination: async (name) => {
        asked.push(name);
        return answers.shift();
      },
    });
    try {
      const { mirror } = await h.call('mirror.start', {
        connectionId,
        baseId: remote.baseId,
        tableIds: [tableIds.Teams!],
      });
      const mirrorId = mirror!.id;
      const saved = await h.call('mirror.saveReport', { mirrorId });
      expect(saved).toEqual({
        fileName: asked[0],
        conflicts: 0,
        filePath: join(folder, 'chosen.json'),
        cancelled: false,
      });
      expect(asked[0]).toMatch(/^TableDesk Demo \(offline copy\) conflicts .*\.json$/);
      const text = JSON.parse(await readFile(join(folder, 'chosen.json'), 'utf8')) as {
        conflicts: unknown[];
      };
      expect(text.conflicts).toEqual([]);
      expect(existsSync(join(folder, 'chosen.json.partial'))).toBe(false);

      await rm(join(folder, 'chosen.json'));
      expect(await h.call('mirror.saveReport', { mirrorId })).toMatchObject({ cancelled: true });
      expect(existsSync(join(folder, 'chosen.json'))).toBe(false);
    } finally {
      await h.close();
      await rm(folder, { recursive: true, force: true });
    }
  });
});
