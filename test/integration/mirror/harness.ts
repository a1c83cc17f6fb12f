/**
 * Two real local servers: one plays the hosted service (behind the fault proxy), the other is the app's
 * embedded server that holds the copies. A hosted base with text, number, checkbox, select, link, attachment
 * and formula fields.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { RecordTableClient, SchedulerRegistry } from '../../../core/api/index';
import type { TableClient } from '../../../core/api/index';
import type { RecordData } from '../../../core/records/types';
import { startServer } from '../../../server/index';
import type { RunningServer } from '../../../server/index';
import { createMirrors } from '../../../services/mirror/index';
import type { MirrorDeps, Mirrors, MirrorSummary } from '../../../services/mirror/index';
import { behindProxy } from '../../support/fault-proxy';
import type { FaultProxy } from '../../support/fault-proxy';

export interface MirrorHarness {
  hosted: RunningServer;
  proxy: FaultProxy;
  local: RunningServer;
  baseId: string;
  /** The hosted service, straight (not through the proxy), for the test's own reads and writes. */
  hostedClient: RecordTableClient;
  /** The embedded server, as the app's demo connection reaches it. */
  localClient: RecordTableClient;
  /** A client through the proxy (what the mirror uses). */
  remoteClient: RecordTableClient;
  dataDir: string;
  /** A mirror engine on the harness's data folder; `deps` overrides its options (bounds of downloads). */
  mirrors(deps?: Partial<MirrorDeps>): Mirrors;
  close(): Promise<void>;
}

export const HOSTED_CONNECTION = 'conHosted';

/**
 * `fast`: the service has no rate limit and every client starts requests 1 ms apart, for tests of the merge
 * (not of the pacing) that sync many times.
 */
export async function startMirrorHarness(
  opts: { records?: number; fast?: boolean } = {},
): Promise<MirrorHarness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tabledesk-mirror-'));
  const pace = opts.fast ? { requestsPerSecond: 1000, minSpacingMs: 1 } : {};
  const { server: hosted, proxy } = await behindProxy((publicOrigin) =>
    startServer({ memory: true, rateLimit: opts.fast ? 'off' : 5, penaltyMs: 1000, publicOrigin }),
  );
  const local = await startServer({
    dataDir: join(dataDir, 'local-server'),
    rateLimit: opts.fast ? 'off' : 5,
  });
  const schedulers = new SchedulerRegistry();
  // One throttle per base for the test's own calls and the mirror's, as in the app.
  const hostedClient = new RecordTableClient({
    baseUrl: hosted.url,
    apiKey: hosted.apiKey,
    schedulers,
    ...pace,
  });
  const base = await hostedClient.meta.createBase({
    name: 'Hosted CRM',
    tables: [
      {
        name: 'Companies',
        fields: [
          { name: 'Name', type: 'singleLineText' },
          { name: 'Size', type: 'number', options: { precision: 0 } },
        ],
      },
      {
        name: 'People',
        fields: [
          { name: 'Name', type: 'singleLineText' },
          { name: 'Age', type: 'number', options: { precision: 0 } },
          { name: 'Active', type: 'checkbox', options: { icon: 'check', color: 'greenBright' } },
          {
            name: 'Stage',
            type: 'singleSelect',
            options: { choices: [{ name: 'Lead' }, { name: 'Won' }] },
          },
          { name: 'Notes', type: 'multilineText' },
          { name: 'Photo', type: 'multipleAttachments' },
        ],
      },
    ],
  });
  const people = base.tables.find((t) => t.name === 'People')!;
  const companies = base.tables.find((t) => t.name === 'Companies')!;
  await hostedClient.meta.createField(base.id, people.id, {
    name: 'Company',
    type: 'multipleRecordLinks',
    options: { linkedTableId: companies.id },
  });
  await hostedClient.meta.createField(base.id, people.id, {
    name: 'Label',
    type: 'formula',
    options: { formula: `CONCATENATE({Name}, ' (', {Age}, ')')` },
  });
  const co = await hostedClient
    .table(base.id, 'Companies')
    .createMany([1, 2, 3].map((i) => ({ Name: `Company ${i}`, Size: i * 10 })));
  const n = opts.records ?? 45;
  const rows = Array.from({ length: n }, (_, i) => ({
    Name: `Person ${i}`,
    Age: 20 + i,
    Active: i % 2 === 0,
    Stage: i % 3 === 0 ? 'Won' : 'Lead',
    Notes: `Line one of ${i}\nline two`,
    Company: [co[i % 3]!.id],
  }));
  await hostedClient.table(base.id, 'People').createMany(rows);
  const remoteClient = new RecordTableClient({
    baseUrl: proxy.url,
    apiKey: hosted.apiKey,
    schedulers,
    backoffBaseMs: 50,
    backoffMaxMs: 200,
    rateLimitPauseMs: 1000,
    ...pace,
  });
  const localClient = new RecordTableClient({ baseUrl: local.url, apiKey: local.apiKey, ...pace });
  const open: Mirrors[] = [];
  return {
    hosted,
    proxy,
    local,
    baseId: base.id,
    hostedClient,
    localClient,
    remoteClient,
    dataDir,
    mirrors: (deps) => {
      const m = createMirrors({
        dataDir,
        clientFor: () => remoteClient,
        local: { connectionId: 'demo', url: local.url, apiKey: local.apiKey },
        refreshOverlapMs: 2000,
        ...deps,
      });
      open.push(m);
      return m;
    },
    close: async () => {
      for (const m of open) m.close();
      await proxy.close();
      await local.close();
      await hosted.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const png = (r: number) =>
  sharp({ create: { width: 8, height: 6, channels: 3, background: { r, g: 20, b: 30 } } })
    .png()
    .toBuffer();

export async function uploadPhoto(h: MirrorHarness, recordId: string, bytes: Buffer, name: string) {
  return h.hostedClient.uploadAttachment(h.baseId, recordId, 'Photo', {
    bytes,
    filename: name,
    contentType: 'image/png',
  });
}

/**
 * Writes a People record's Photo cell on the hosted service as it may hold it, links to any host among them,
 * through the service's mirror write (which takes attachment items as given).
 */
export async function putHostedPhoto(h: MirrorHarness, recordId: string, items: unknown[]): Promise<void> {
  const [current] = (await allRecords(h.hostedClient, h.baseId, 'People')).filter((r) => r.id === recordId);
  const table = (await h.hostedClient.meta.baseSchema(h.baseId)).find((t) => t.name === 'People')!;
  const computed = new Set(table.fields.filter((f) => f.type === 'formula').map((f) => f.id));
  const fields = Object.fromEntries(Object.entries(current!.fields).filter(([k]) => !computed.has(k)));
  fields[table.fields.find((f) => f.name === 'Photo')!.id] = items;
  const res = await fetch(`${h.hosted.url}/_tabledesk/mirror/bases/${h.baseId}/tables/${table.id}/records`, {
    method: 'POST',
    headers: { authorization: `Bearer ${h.hosted.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ records: [{ id: recordId, createdTime: current!.createdTime, fields }] }),
  });
  expect(res.status).toBe(200);
}

/** Every record of a table, by id, with fields by id, sorted. */
export async function allRecords(
  client: RecordTableClient,
  baseId: string,
  table: string,
): Promise<RecordData[]> {
  const list = await client.table(baseId, table).all({ returnFieldsByFieldId: true });
  return list.sort((a, b) => a.id.localeCompare(b.id));
}

/** Attachment cells without their URLs (signed per read and per server). */
export function withoutUrls(records: RecordData[]): RecordData[] {
  return records.map((r) => ({
    ...r,
    fields: Object.fromEntries(
      Object.entries(r.fields).map(([k, v]) => [
        k,
        Array.isArray(v) && v.some((a) => typeof a === 'object' && a !== null && 'url' in a)
          ? v.map((a: { id: string; filename: string; size: number; type: string }) => ({
              id: a.id,
              filename: a.filename,
              size: a.size,
              type: a.type,
            }))
          : v,
      ]),
    ),
  }));
}

/** An attachment item of a cell, as the tests read it. */
export type AttachmentItem = { id: string; url: string; filename: string; size: number };

/** A file's bytes, by its URL. */
export const bytesOf = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());

/** The id of People's Photo field on the server `client` reaches. */
export async function photoFieldId(client: RecordTableClient, baseId: string): Promise<string> {
  return (await client.meta.baseSchema(baseId))
    .find((t) => t.name === 'People')!
    .fields.find((f) => f.name === 'Photo')!.id;
}

/** The copy's records equal the service's, URLs aside, table by table. */
export async function expectCopyEqualsRemote(h: MirrorHarness, tables = ['People']): Promise<void> {
  for (const table of tables)
    expect(withoutUrls(await allRecords(h.localClient, h.baseId, table))).toEqual(
      withoutUrls(await allRecords(h.hostedClient, h.baseId, table)),
    );
}

/** A link field of People to Companies and the field of Companies that links back, by name and id. */
export interface PeopleLink {
  name: string;
  id: string;
  inverseName: string;
  inverseId: string;
}

/**
 * Link fields from People to Companies made on the service until there is one whose id sorts before its
 * inverse's and one whose id sorts after (ids are random): whatever the engine does with one side of a pair,
 * a test then runs both ways. Keyed by `people field id < inverse id`.
 */
export async function linksBothWays(h: MirrorHarness): Promise<Map<boolean, PeopleLink>> {
  const schema = await h.hostedClient.meta.baseSchema(h.baseId);
  const people = schema.find((t) => t.name === 'People')!;
  const companies = schema.find((t) => t.name === 'Companies')!;
  const out = new Map<boolean, PeopleLink>();
  for (let k = 0; out.size < 2 && k < 30; k++) {
    const f = await h.hostedClient.meta.createField(h.baseId, people.id, {
      name: `Tie ${k}`,
      type: 'multipleRecordLinks',
      options: { linkedTableId: companies.id },
    });
    const inverseId = String(f.options?.['inverseLinkFieldId']);
    if (out.has(f.id < inverseId)) continue;
    const inverse = (await h.hostedClient.meta.baseSchema(h.baseId))
      .find((t) => t.id === companies.id)!
      .fields.find((x) => x.id === inverseId)!;
    out.set(f.id < inverseId, { name: f.name, id: f.id, inverseName: inverse.name, inverseId });
  }
  expect(out.size).toBe(2);
  return out;
}

/**
 * A fetch for the mirror's calls to the copy that runs `during` once, before the first POST whose URL has
 * `path` in it (an edit made in the copy just as the engine writes it).
 */
export function beforeFirstPost(path: string, during: () => Promise<void>): typeof fetch {
  let done = false;
  return async (input, init) => {
    if (!done && init?.method === 'POST' && String(input).includes(path)) {
      done = true;
      await during();
    }
    return globalThis.fetch(input, init);
  };
}

/** Resolves every open conflict of a mirror by "take theirs": a case starts with none, whatever the last left. */
export async function resolveAllTheirs(mirrors: Mirrors, mirrorId: string): Promise<void> {
  const open = await mirrors.conflicts(mirrorId);
  if (open.length > 0)
    await mirrors.resolve(
      mirrorId,
      open.map((c) => ({ conflictId: c.id, choice: 'theirs' as const })),
    );
}

/** A link cell's ids as `client` reads them, by field name (none for an empty cell). */
export const linkCell = async (client: TableClient, id: string, field: string): Promise<string[]> =>
  ((await client.get(id)).fields[field] as string[] | undefined) ?? [];

/** An idle sync after everything is settled sends and receives nothing, and the copy is the service. */
export async function expectSettled(
  h: MirrorHarness,
  mirrors: Mirrors,
  mirrorId: string,
  tables: string[],
): Promise<void> {
  await expectCopyEqualsRemote(h, tables);
  expect((await mirrors.list())[0]!.localChanges).toBe(0);
  expect(await mirrors.sync(mirrorId)).toMatchObject({ sent: 0, received: 0, conflicts: 0 });
  await expectCopyEqualsRemote(h, tables);
}

/** One offline copy of a hosted base, shared by the cases of a test file (see offlineCopyOf). */
export interface OfflineCopy {
  readonly h: MirrorHarness;
  readonly mirrors: Mirrors;
  readonly summary: MirrorSummary;
  /** A table of the hosted service, straight. */
  remote(table: string): TableClient;
  /** A table of the copy, through the embedded server's Web API (as another app would edit it). */
  copy(table: string): TableClient;
  /** expectSettled over the file's tables. */
  settled(): Promise<void>;
}

/**
 * Registers the file's hooks: a harness whose hosted base `shape` changes first (fields, tables), made
 * available offline once; each case starts with no conflict open; the harness closes after the last.
 */
export function offlineCopyOf(
  opts: Parameters<typeof startMirrorHarness>[0],
  tables: string[],
  shape: (h: MirrorHarness) => Promise<void> = async () => {},
): OfflineCopy {
  let h: MirrorHarness | undefined;
  let mirrors: Mirrors | undefined;
  let summary: MirrorSummary | undefined;
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the offline copy is made in beforeAll');
    return value;
  };
  beforeAll(async () => {
    h = await startMirrorHarness(opts);
    await shape(h);
    mirrors = h.mirrors();
    summary = await mirrors.makeAvailableOffline({ connectionId: HOSTED_CONNECTION, baseId: h.baseId });
  }, 120_000);
  afterAll(() => h?.close());
  beforeEach(() => resolveAllTheirs(ready(mirrors), ready(summary).id));
  return {
    get h() {
      return ready(h);
    },
    get mirrors() {
      return ready(mirrors);
    },
    get summary() {
      return ready(summary);
    },
    remote: (table) => ready(h).hostedClient.table(ready(h).baseId, table),
    copy: (table) => ready(h).localClient.table(ready(h).baseId, table),
    settled: () => expectSettled(ready(h), ready(mirrors), ready(summary).id, tables),
  };
}
