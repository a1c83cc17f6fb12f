/**
 * Attachments whose files cannot be downloaded (a dropped connection, a 404, a URL that never
 * answers, a file over the size bound): the pull still ends ready with their records copied and those
 * attachments kept as links, counted; a push sends nothing for them, and an edited cell keeps them; a later
 * sync downloads a file once its URL answers, taking the URL the service gives now.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TableClient } from '../../../core/api/index';
import type { RecordData } from '../../../core/records/types';
import {
  allRecords,
  bytesOf,
  expectCopyEqualsRemote,
  png,
  photoFieldId,
  putHostedPhoto,
  startMirrorHarness,
  uploadPhoto,
} from './harness';
import type { AttachmentItem, MirrorHarness } from './harness';
import type { MirrorProgress, Mirrors, MirrorSummary } from '../../../services/mirror/index';
import type { ProxiedRequest } from '../../support/fault-proxy';

interface Link {
  id: string;
  filename: string;
  type: string;
  size: number;
  url: string;
}

let h: MirrorHarness;
let mirrors: Mirrors;
let summary: MirrorSummary;
let remote: TableClient;
let copy: TableClient;
let ids: string[];
let photo: string;
let faceBytes: Buffer;
let keptBytes: Buffer;
let realBytes: Buffer;
/** A file of the hosted service, and the same under another URL (which answers 404 at first). */
let realUrl: string;
let proxiedUrl: string;
const links: Record<'dead' | 'missing' | 'slow' | 'big', Link> = {} as never;
const progress: MirrorProgress[] = [];

const link = (url: string, filename: string, size: number): Link => ({
  id: `att${randomBytes(7).toString('hex')}`,
  filename,
  type: 'image/png',
  size,
  url,
});

const cell = (r: RecordData) => (r.fields[photo] ?? []) as AttachmentItem[];
const copyCell = async (id: string) => cell(await copy.get(id, { returnFieldsByFieldId: true }));
const isPatch = (r: ProxiedRequest) => r.method === 'PATCH';
const isFile = (r: ProxiedRequest) => r.path.startsWith('/files/');

/**
 * At the service's origin (the proxy): /gone.png drops every connection, /slow never answers, /big sends 4 KB
 * (no length announced).
 */
function serveBrokenFiles(): void {
  h.proxy.inject({ type: 'drop-before' }, { match: (r) => r.path === '/gone.png', times: Infinity });
  h.proxy.inject(
    { type: 'answer', answer: () => undefined },
    { match: (r) => r.path === '/slow', times: Infinity },
  );
  h.proxy.inject(
    {
      type: 'answer',
      answer: (res) => {
        res.writeHead(200, { 'content-type': 'image/png' });
        for (let i = 0; i < 4; i++) res.write(Buffer.alloc(1024, i));
        res.end();
      },
    },
    { match: (r) => r.path === '/big', times: Infinity },
  );
}

beforeAll(async () => {
  h = await startMirrorHarness({ records: 12 });
  remote = h.hostedClient.table(h.baseId, 'People');
  copy = h.localClient.table(h.baseId, 'People');
  ids = (await allRecords(h.hostedClient, h.baseId, 'People')).map((r) => r.id);
  photo = await photoFieldId(h.hostedClient, h.baseId);

  faceBytes = await png(200);
  keptBytes = await png(90);
  realBytes = await png(30);
  await uploadPhoto(h, ids[0]!, faceBytes, 'face.png');
  await uploadPhoto(h, ids[2]!, keptBytes, 'kept.png');
  await uploadPhoto(h, ids[3]!, realBytes, 'real.png');
  realUrl = cell(await remote.get(ids[3]!, { returnFieldsByFieldId: true }))[0]!.url;
  // The same file under a URL of its own (the file route reads no other query part), which answers 404 at first.
  proxiedUrl = `${realUrl}&missing=1`;

  serveBrokenFiles();
  links.dead = link(`${h.proxy.url}/gone.png`, 'gone.png', realBytes.length);
  links.missing = link(proxiedUrl, 'missing.png', realBytes.length);
  links.slow = link(`${h.proxy.url}/slow`, 'slow.png', 10);
  links.big = link(`${h.proxy.url}/big`, 'big.png', 4096);
  const kept = cell(await remote.get(ids[2]!, { returnFieldsByFieldId: true }))[0]!;
  await putHostedPhoto(h, ids[1]!, [links.dead]);
  await putHostedPhoto(h, ids[2]!, [{ id: kept.id }, links.missing]);
  await putHostedPhoto(h, ids[4]!, [links.slow]);
  await putHostedPhoto(h, ids[5]!, [links.big]);

  h.proxy.inject(
    { type: 'status', status: 404, body: 'Not Found' },
    { match: (r) => isFile(r) && r.path.endsWith('&missing=1'), times: Infinity },
  );
  mirrors = h.mirrors({ fileStallMs: 1000, maxFileBytes: 2048 });
  summary = await mirrors.makeAvailableOffline({ connectionId: 'conHosted', baseId: h.baseId }, (p) =>
    progress.push(p),
  );
}, 120_000);

afterAll(() => h.close());

describe('attachments that cannot be downloaded', () => {
  it('leave the pull ready, their records copied and the attachments linked, counted', async () => {
    expect(summary.state).toBe('ready');
    expect(summary.filesMissing).toBe(4);
    expect(progress.at(-1)!.filesMissing).toBe(4);
    expect(h.proxy.log.some((r) => isFile(r) && r.status === 404)).toBe(true);
    await expectCopyEqualsRemote(h);
    expect((await copyCell(ids[1]!)).map((a) => a.url)).toEqual([links.dead.url]);
    // The other attachments' files are here, served by the local server.
    const face = (await copyCell(ids[0]!))[0]!;
    expect(face.url.startsWith(h.local.url)).toBe(true);
    expect((await bytesOf(face.url)).equals(faceBytes)).toBe(true);
    const [kept, missing] = await copyCell(ids[2]!);
    expect(kept!.url.startsWith(h.local.url)).toBe(true);
    expect((await bytesOf(kept!.url)).equals(keptBytes)).toBe(true);
    expect(missing!.url).toBe(proxiedUrl);
    expect((await mirrors.list())[0]).toMatchObject({ localChanges: 0, filesMissing: 4 });
  });

  it('are no local change: a push sends nothing for them, and an edited cell keeps them', async () => {
    h.proxy.log.length = 0;
    const quiet = await mirrors.sync(summary.id);
    expect(quiet).toMatchObject({ sent: 0, conflicts: 0, filesMissing: 4 });
    expect(h.proxy.log.filter(isPatch)).toEqual([]);

    // One attachment removed here (the downloaded one), the linked one kept; another record's text edited.
    const [, missing] = await copyCell(ids[2]!);
    await copy.update(ids[2]!, { Photo: [{ id: missing!.id }] });
    await copy.update(ids[1]!, { Notes: 'edited offline' });
    expect((await mirrors.list())[0]!.localChanges).toBe(2);
    h.proxy.log.length = 0;
    const result = await mirrors.sync(summary.id);
    expect(result).toMatchObject({ sent: 2, conflicts: 0 });
    const sent = h.proxy.log
      .filter(isPatch)
      .flatMap((r) => (JSON.parse(r.body) as { records: { id: string; fields: object }[] }).records);
    expect(sent.find((r) => r.id === ids[2])!.fields).toEqual({ [photo]: [{ id: links.missing.id }] });
    expect(Object.keys(sent.find((r) => r.id === ids[1])!.fields)).not.toContain(photo);
    expect(cell(await remote.get(ids[2]!, { returnFieldsByFieldId: true }))).toMatchObject([
      { id: links.missing.id, url: proxiedUrl },
    ]);
    expect(cell(await remote.get(ids[1]!, { returnFieldsByFieldId: true }))).toMatchObject([
      { id: links.dead.id, url: links.dead.url },
    ]);
    await expectCopyEqualsRemote(h);
    expect((await mirrors.list())[0]).toMatchObject({ localChanges: 0, filesMissing: 4 });
  });

  it('are downloaded by a later sync once their URL answers, with the URL the service gives now', async () => {
    h.proxy.reset();
    serveBrokenFiles();
    // The service signs a new URL for the dead link (as Airtable's expire); the 404 answers now.
    await putHostedPhoto(h, ids[1]!, [{ ...links.dead, url: realUrl }]);
    const result = await mirrors.sync(summary.id);
    expect(result).toMatchObject({ sent: 0, conflicts: 0, filesMissing: 2 });
    expect(h.proxy.log.filter(isPatch)).toEqual([]);
    for (const id of [ids[1]!, ids[2]!]) {
      const [a] = await copyCell(id);
      expect(a!.url.startsWith(h.local.url)).toBe(true);
      expect((await bytesOf(a!.url)).equals(realBytes)).toBe(true);
    }
    await expectCopyEqualsRemote(h);
    expect((await mirrors.list())[0]).toMatchObject({ localChanges: 0, filesMissing: 2 });
    h.proxy.log.length = 0;
    expect((await mirrors.sync(summary.id)).sent).toBe(0);
    expect(h.proxy.log.filter(isPatch)).toEqual([]);
  });

  it("are counted in the CLI's JSON", async () => {
    // /slow never answers and the CLI waits its 30 s stall window: point that link at the dropping one (three quick tries).
    await putHostedPhoto(h, ids[4]!, [{ ...links.slow, url: links.dead.url }]);
    const dataDir = mkdtempSync(join(tmpdir(), 'tabledesk-mirror-cli-'));
    try {
      // Asynchronously: the hosted service and the proxy answer from this process.
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          'host/mirror-cli.ts',
          'pull',
          '--base',
          h.baseId,
          '--url',
          h.proxy.url,
          '--data',
          dataDir,
        ],
        { env: { ...process.env, TABLEDESK_API_KEY: h.hosted.apiKey }, stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
      expect(await new Promise((resolve) => child.on('exit', resolve))).toBe(0);
      const lines = out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { mirror?: object; progress?: object });
      // Without this test's bounds the 4 KB file is downloaded; the dead link is the one missing.
      expect(lines.at(-1)!.mirror).toMatchObject({ state: 'ready', filesMissing: 1 });
      expect(lines.filter((l) => l.progress).at(-1)!.progress).toMatchObject({ filesMissing: 1 });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
