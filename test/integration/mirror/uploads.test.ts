/**
 * Files attached in the copy reach the service on the next sync (by uploadAttachment, then kept by id in the
 * cell's PATCH), with the same bytes, and the merge base then matches: the sync after sends nothing. An
 * upload whose answer was lost is not sent again; one the service never received is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TableClient } from '../../../core/api/index';
import type { RecordData } from '../../../core/records/types';
import {
  allRecords,
  bytesOf,
  expectCopyEqualsRemote,
  photoFieldId,
  png,
  startMirrorHarness,
  uploadPhoto,
} from './harness';
import type { AttachmentItem, MirrorHarness } from './harness';
import type { Mirrors, MirrorSummary } from '../../../services/mirror/index';
import type { ProxiedRequest } from '../../support/fault-proxy';

let h: MirrorHarness;
let mirrors: Mirrors;
let summary: MirrorSummary;
let remote: TableClient;
let copy: TableClient;
let ids: string[];
let photo: string;

const isUpload = (r: ProxiedRequest) => r.method === 'POST' && r.path.endsWith('/uploadAttachment');
const isPatch = (r: ProxiedRequest) => r.method === 'PATCH';
const cell = async (t: TableClient, id: string) =>
  ((await t.get(id, { returnFieldsByFieldId: true })).fields[photo] ?? []) as AttachmentItem[];
const attachHere = (id: string, bytes: Buffer, filename: string) =>
  h.localClient.uploadAttachment(h.baseId, id, 'Photo', { bytes, filename, contentType: 'image/png' });
const named = (list: AttachmentItem[], filename: string) => list.filter((a) => a.filename === filename);

beforeAll(async () => {
  h = await startMirrorHarness({ records: 10 });
  remote = h.hostedClient.table(h.baseId, 'People');
  copy = h.localClient.table(h.baseId, 'People');
  ids = (await allRecords(h.hostedClient, h.baseId, 'People')).map((r: RecordData) => r.id);
  photo = await photoFieldId(h.hostedClient, h.baseId);
  await uploadPhoto(h, ids[0]!, await png(200), 'face.png');
  mirrors = h.mirrors();
  summary = await mirrors.makeAvailableOffline({ connectionId: 'conHosted', baseId: h.baseId });
}, 120_000);
afterAll(() => h.close());

describe('files attached offline', () => {
  it('are uploaded by the next sync with the same bytes, and the sync after sends nothing', async () => {
    const bytes = await png(120);
    await attachHere(ids[0]!, bytes, 'offline.png');
    expect((await mirrors.list())[0]!.localChanges).toBe(1);
    h.proxy.log.length = 0;
    const result = await mirrors.sync(summary.id);
    expect(result).toMatchObject({ sent: 1, conflicts: 0 });
    expect(h.proxy.log.filter(isUpload)).toHaveLength(1);
    const there = await cell(remote, ids[0]!);
    expect(there.map((a) => a.filename)).toEqual(['face.png', 'offline.png']);
    expect((await bytesOf(named(there, 'offline.png')[0]!.url)).equals(bytes)).toBe(true);
    // The copy's attachment took the service's id; its file is still served here.
    const here = await cell(copy, ids[0]!);
    expect(here.map((a) => a.id)).toEqual(there.map((a) => a.id));
    expect(named(here, 'offline.png')[0]!.url.startsWith(h.local.url)).toBe(true);
    await expectCopyEqualsRemote(h);
    expect((await mirrors.list())[0]!.localChanges).toBe(0);

    h.proxy.log.length = 0;
    expect((await mirrors.sync(summary.id)).sent).toBe(0);
    expect(h.proxy.log.filter((r) => isUpload(r) || isPatch(r))).toEqual([]);
  });

  it('sends an upload whose answer was lost once, and one the service never received again', async () => {
    await attachHere(ids[1]!, await png(60), 'lost-answer.png');
    h.proxy.inject({ type: 'drop-after' }, { match: isUpload });
    await expect(mirrors.sync(summary.id)).rejects.toThrow();
    h.proxy.log.length = 0;
    await mirrors.sync(summary.id);
    expect(h.proxy.log.filter(isUpload)).toEqual([]);
    expect(named(await cell(remote, ids[1]!), 'lost-answer.png')).toHaveLength(1);

    await attachHere(ids[2]!, await png(70), 'never-arrived.png');
    h.proxy.inject({ type: 'drop-before' }, { match: isUpload });
    await expect(mirrors.sync(summary.id)).rejects.toThrow();
    h.proxy.log.length = 0;
    await mirrors.sync(summary.id);
    expect(h.proxy.log.filter(isUpload)).toHaveLength(1);
    expect(named(await cell(remote, ids[2]!), 'never-arrived.png')).toHaveLength(1);

    await expectCopyEqualsRemote(h);
    expect((await mirrors.list())[0]!.localChanges).toBe(0);
  });

  it('are sent with a record made offline, in the same sync', async () => {
    const made = await copy.create({ Name: 'Made with a file' });
    const bytes = await png(15);
    await attachHere(made.id, bytes, 'new-record.png');
    h.proxy.log.length = 0;
    expect((await mirrors.sync(summary.id)).conflicts).toBe(0);
    expect(h.proxy.log.filter(isUpload)).toHaveLength(1);
    const [there] = await remote.all({ formula: "{Name} = 'Made with a file'", returnFieldsByFieldId: true });
    const files = (there!.fields[photo] ?? []) as AttachmentItem[];
    expect(files.map((a) => a.filename)).toEqual(['new-record.png']);
    expect((await bytesOf(files[0]!.url)).equals(bytes)).toBe(true);
    await expectCopyEqualsRemote(h);
    h.proxy.log.length = 0;
    expect((await mirrors.sync(summary.id)).sent).toBe(0);
    expect(h.proxy.log.filter((r) => isUpload(r) || isPatch(r))).toEqual([]);
  });

  it('keeps a file the service cannot take (over 5 MB) here, sends the rest, and fails nothing', async () => {
    // A 6 MB file on the service (added there by URL, as Airtable allows), copied by the pull...
    const big = Buffer.alloc(6 * 1024 * 1024, 7);
    const stored = (await (
      await fetch(`${h.hosted.url}/_tabledesk/mirror/files`, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.hosted.apiKey}`, 'content-type': 'application/octet-stream' },
        body: big,
      })
    ).json()) as { hash: string };
    const table = (await h.hostedClient.meta.baseSchema(h.baseId)).find((t) => t.name === 'People')!;
    const current = await remote.get(ids[3]!, { returnFieldsByFieldId: true });
    const fields = Object.fromEntries(
      Object.entries(current.fields).filter(
        ([k]) => table.fields.find((f) => f.id === k)?.type !== 'formula',
      ),
    );
    const put = await fetch(
      `${h.hosted.url}/_tabledesk/mirror/bases/${h.baseId}/tables/${table.id}/records`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${h.hosted.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          records: [
            {
              id: ids[3],
              createdTime: current.createdTime,
              fields: {
                ...fields,
                [photo]: [
                  {
                    id: 'attBigBigBigBig01',
                    filename: 'big.bin',
                    type: 'application/octet-stream',
                    blob: stored.hash,
                  },
                ],
              },
            },
          ],
        }),
      },
    );
    expect(put.status).toBe(200);
    await mirrors.sync(summary.id);
    // ...then pasted here into another record (a new attachment of the same file), with a text edit.
    const [copied] = await cell(copy, ids[3]!);
    await copy.update(ids[4]!, {
      Notes: 'with a big file',
      Photo: [{ url: copied!.url, filename: 'big.bin' }],
    });
    h.proxy.log.length = 0;
    const result = await mirrors.sync(summary.id);
    expect(result.conflicts).toBe(0);
    expect(h.proxy.log.filter(isUpload)).toEqual([]);
    expect((await remote.get(ids[4]!)).fields.Notes).toBe('with a big file');
    expect(await cell(remote, ids[4]!)).toEqual([]);
    const kept = await cell(copy, ids[4]!);
    expect(kept.map((a) => a.filename)).toEqual(['big.bin']);
    expect((await bytesOf(kept[0]!.url)).equals(big)).toBe(true);
  });
});
