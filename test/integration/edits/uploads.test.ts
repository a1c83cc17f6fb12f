/**
 * Attachment uploads through the services: staged in parts, sent once through the throttle, journaled like a
 * create. A lost answer (the fault proxy drops it) is listed as uncertain, survives a restart, and the file is
 * never sent again on its own.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Dialog, OpenDialogOptions } from 'electron';
import { afterEach, describe, expect, it } from 'vitest';
import { RecordTableClient } from '../../../core/api';
import { UPLOAD_PART_BYTES, attachmentChannels, attachmentEvents } from '../../../core/contract/attachments';
import type { EventPayload } from '../../../core/contract';
import type { ResponseOf } from '../../../core/contract/define';
import { Uploads } from '../../../services/attachments/uploads';
import type { ChooseFile } from '../../../services/attachments/uploads';
import { attachmentSource } from '../../../electron/attachment-source';
import { startHarness } from './harness';
import type { Harness } from './harness';

let h: Harness | undefined;
let restarted: Harness | undefined;
afterEach(async () => {
  await restarted?.close();
  await h?.close();
  h = restarted = undefined;
});

type Progress = EventPayload<'attachments.progress'>;

function uploadsOf(harness: Harness, chooseFile?: ChooseFile) {
  const progress: Progress[] = [];
  const saved: EventPayload<'edits.saved'>[] = [];
  const client = new RecordTableClient({
    baseUrl: harness.proxy?.url ?? harness.server.url,
    apiKey: harness.server.apiKey,
    backoffBaseMs: 20,
  });
  const uploads = new Uploads({
    clientFor: async () => client,
    edits: Promise.resolve(harness.parts),
    chooseFile,
    emit: (event, payload) => {
      if (event === 'attachments.progress')
        progress.push(attachmentEvents['attachments.progress'].parse(payload));
      else saved.push(payload as EventPayload<'edits.saved'>);
    },
  });
  // As the dispatcher calls them: requests and answers checked by the contract.
  const call = async <C extends keyof Uploads['handlers']>(
    channel: C,
    request: unknown,
  ): Promise<ResponseOf<typeof attachmentChannels, C>> =>
    attachmentChannels[channel].response.parse(
      await (uploads.handlers[channel] as (r: unknown) => Promise<unknown>)(
        attachmentChannels[channel].request.parse(request),
      ),
    ) as ResponseOf<typeof attachmentChannels, C>;
  return { uploads, progress, saved, call };
}

async function firstPerson(harness: Harness): Promise<string> {
  const [p] = (await harness.reader('People').listPage({ pageSize: 1 })).records;
  await harness.reader('People').update(p!.id, { Photo: [] });
  return p!.id;
}

const uploadCalls = (harness: Harness) => harness.seen.filter((r) => r.url.endsWith('/uploadAttachment'));

describe('uploads through the services', () => {
  it('takes a file in parts, sends it once, reports progress and the saved record', async () => {
    h = await startHarness();
    const { progress, saved, call } = uploadsOf(h);
    const recordId = await firstPerson(h);
    const bytes = Buffer.alloc(UPLOAD_PART_BYTES + 1000, 9);
    const target = h.target('People');
    const { uploadId } = (await call('attachments.stage', {
      target,
      recordId,
      field: 'Photo',
      filename: 'two-parts.bin',
      contentType: 'application/octet-stream',
      size: bytes.length,
    })) as { uploadId: string };
    const first = bytes.subarray(0, UPLOAD_PART_BYTES);
    await call('attachments.part', { uploadId, offset: 0, data: first.toString('base64') });
    // A part out of place is refused: the file is assembled in order.
    await expect(call('attachments.part', { uploadId, offset: 5, data: 'AAAA' })).rejects.toThrow(
      /out of order/,
    );
    await call('attachments.part', {
      uploadId,
      offset: first.length,
      data: bytes.subarray(first.length).toString('base64'),
    });
    const { record } = (await call('attachments.send', { uploadId })) as {
      record: { fields: Record<string, unknown> };
    };
    expect(record.fields.Photo).toMatchObject([{ filename: 'two-parts.bin', size: bytes.length }]);
    expect(uploadCalls(h)).toHaveLength(1);
    expect(progress.map((p) => p.state)).toEqual(
      expect.arrayContaining(['staged', 'queued', 'sending', 'done']),
    );
    expect(progress.at(-1)?.state).toBe('done');
    expect(saved.map((s) => s.recordId)).toEqual([recordId]);
    // Sent: the upload is gone.
    await expect(call('attachments.send', { uploadId })).rejects.toThrow(/no longer waiting/);
    expect(h.parts.records.uncertain()).toEqual([]);
  });

  it('refuses a file over 5 MB, or of no usable type, before anything is sent', async () => {
    h = await startHarness();
    const { call } = uploadsOf(h);
    const base = { target: h.target('People'), recordId: await firstPerson(h), field: 'Photo' };
    await expect(
      call('attachments.stage', {
        ...base,
        filename: 'big.mov',
        contentType: 'video/quicktime',
        size: 6_000_000,
      }),
    ).rejects.toThrow(/is 5.8 MB; an upload may be at most 5 MB/);
    await expect(
      call('attachments.stage', { ...base, filename: 'x', contentType: 'nonsense', size: 3 }),
    ).rejects.toThrow(/content type/);
    expect(uploadCalls(h)).toEqual([]);
  });

  it('an upload whose answer was lost is listed as uncertain, across a restart, and never sent again', async () => {
    h = await startHarness({ proxy: true });
    const { progress, call } = uploadsOf(h);
    const recordId = await firstPerson(h);
    h.proxy!.inject({ type: 'drop-after' }, { match: (r) => r.path.endsWith('/uploadAttachment') });
    const { uploadId } = (await call('attachments.stage', {
      target: h.target('People'),
      recordId,
      field: 'Photo',
      filename: 'lost.txt',
      contentType: 'text/plain',
      size: 4,
    })) as { uploadId: string };
    await call('attachments.part', { uploadId, offset: 0, data: Buffer.from('lost').toString('base64') });
    await expect(call('attachments.send', { uploadId })).rejects.toThrow(
      /lost.txt may or may not have been attached/,
    );
    expect(progress.at(-1)?.state).toBe('uncertain');
    const listed = h.parts.records.uncertain();
    expect(listed).toMatchObject([{ upload: { recordId, field: 'Photo', filename: 'lost.txt', size: 4 } }]);
    // It did arrive, once; the services do not send it again, now or after a restart.
    expect(uploadCalls(h)).toHaveLength(1);
    await h.services.close();
    restarted = await startHarness({ restartOf: h });
    await new Promise((r) => setTimeout(r, 300));
    expect(restarted.parts.records.uncertain()).toMatchObject([
      { id: listed[0]!.id, upload: { filename: 'lost.txt' } },
    ]);
    expect(uploadCalls(h)).toHaveLength(1);
    const photos = (await restarted.reader('People').get(recordId)).fields.Photo as { filename: string }[];
    expect(photos.map((p) => p.filename)).toEqual(['lost.txt']);
    // Dismissed once the user has checked.
    expect(await restarted.parts.records.dismissUncertain(listed[0]!.id)).toBe(true);
    expect(restarted.parts.records.uncertain()).toEqual([]);
  });
});

describe("the door's open dialog", () => {
  /** Electron's dialog, the one stand-in: it answers with the file the user "picked". */
  const dialogPicking = (path: string | undefined, asked: OpenDialogOptions[]) =>
    ({
      showOpenDialog: async (options: OpenDialogOptions) => {
        asked.push(options);
        return { canceled: path === undefined, filePaths: path === undefined ? [] : [path] };
      },
    }) as unknown as Pick<Dialog, 'showOpenDialog'>;

  it('reads the file the user picked in the services and uploads it; the renderer names no path', async () => {
    h = await startHarness();
    const path = join(h.userDataDir, 'picked.txt');
    await writeFile(path, 'picked in the dialog');
    const asked: OpenDialogOptions[] = [];
    const { call } = uploadsOf(
      h,
      attachmentSource({ dialog: dialogPicking(path, asked), window: () => undefined }),
    );
    const recordId = await firstPerson(h);
    const request = { target: h.target('People'), recordId, field: 'Photo' };
    // A path in the request is not part of the channel: it is dropped before the handler sees it.
    const picked = await call('attachments.pick', { ...request, path: '/etc/passwd' });
    if (!picked.staged) throw new Error('nothing staged');
    expect(asked).toMatchObject([{ properties: ['openFile'] }]);
    expect(picked.staged).toMatchObject({ filename: 'picked.txt', size: 20 });
    const { record } = await call('attachments.send', { uploadId: picked.staged.uploadId });
    expect(record.fields['Photo']).toMatchObject([{ filename: 'picked.txt', type: 'text/plain' }]);
  });

  it('a cancelled dialog stages nothing; a picked file over 5 MB is refused; no dialog, no pick', async () => {
    h = await startHarness();
    const base = { target: h.target('People'), recordId: await firstPerson(h), field: 'Photo' };
    const cancelled = uploadsOf(
      h,
      attachmentSource({ dialog: dialogPicking(undefined, []), window: () => undefined }),
    );
    expect(await cancelled.call('attachments.pick', base)).toEqual({ supported: true });
    const big = join(h.userDataDir, 'big.bin');
    await writeFile(big, Buffer.alloc(5 * 1024 * 1024 + 1));
    const tooBig = uploadsOf(
      h,
      attachmentSource({ dialog: dialogPicking(big, []), window: () => undefined }),
    );
    await expect(tooBig.call('attachments.pick', base)).rejects.toThrow(/big.bin is 5.1 MB/);
    expect(await uploadsOf(h).call('attachments.pick', base)).toEqual({ supported: false });
    expect(uploadCalls(h)).toEqual([]);
  });
});

describe('an upload right after an edit', () => {
  it('an upload right after the cell was edited keeps both: the edit reaches the service first', async () => {
    h = await startHarness();
    const { call } = uploadsOf(h);
    const recordId = await firstPerson(h);
    const target = h.target('People');
    const upload = async (filename: string) => {
      const bytes = Buffer.from(filename);
      const { uploadId } = (await call('attachments.stage', {
        target,
        recordId,
        field: 'Photo',
        filename,
        contentType: 'application/octet-stream',
        size: bytes.length,
      })) as { uploadId: string };
      await call('attachments.part', { uploadId, offset: 0, data: bytes.toString('base64') });
      await call('attachments.send', { uploadId });
    };
    await upload('one.bin');
    // Not awaited: the file taken out is still journaled, or waits for a pause, when the next one is sent.
    const edit = h.call('edits.edit', { target, changes: [{ recordId, fields: { Photo: [] } }] });
    await upload('two.bin');
    await edit;
    await h.parts.queue.whenIdle();
    const photo = (await h.reader('People').get(recordId)).fields.Photo as { filename: string }[];
    expect(photo.map((a) => a.filename)).toEqual(['two.bin']);
  });
});
