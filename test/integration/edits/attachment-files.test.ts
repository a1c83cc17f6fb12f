/**
 * Save and Open of an attachment through the services (Electron's door): the attachment read again from its
 * record on the real local server, the save dialog (electron/export-destination.ts over a dialog that answers
 * as the OS's would), the file fetched from the server's signed link and written where the user chose.
 */
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Dialog, SaveDialogOptions } from 'electron';
import { afterEach, describe, expect, it } from 'vitest';
import { RecordTableClient } from '../../../core/api';
import { attachmentChannels } from '../../../core/contract/attachments';
import type { ResponseOf } from '../../../core/contract/define';
import type { AttachmentData } from '../../../core/records/attachments';
import { exportDestination } from '../../../electron/export-destination';
import { AttachmentFiles } from '../../../services/attachments/files';
import type { AttachmentFilesOptions } from '../../../services/attachments/files';
import { startFaultProxy } from '../../support/fault-proxy';
import type { FaultProxy } from '../../support/fault-proxy';
import { startHarness } from './harness';
import type { Harness } from './harness';

let h: Harness | undefined;
let front: FaultProxy | undefined;
afterEach(async () => {
  await front?.close();
  await h?.close();
  h = undefined;
  front = undefined;
});

type Channel = keyof AttachmentFiles['handlers'];

function filesOf(harness: Harness, options: Partial<AttachmentFilesOptions> = {}) {
  const client = new RecordTableClient({ baseUrl: harness.server.url, apiKey: harness.server.apiKey });
  const files = new AttachmentFiles({
    tableFor: async (t) => client.table(t.baseId, t.table),
    ...options,
  });
  const call = async <C extends Channel>(
    channel: C,
    request: unknown,
  ): Promise<ResponseOf<typeof attachmentChannels, C>> =>
    attachmentChannels[channel].response.parse(
      await (files.handlers[channel] as (r: unknown) => Promise<unknown>)(
        attachmentChannels[channel].request.parse(request),
      ),
    ) as ResponseOf<typeof attachmentChannels, C>;
  return { files, call };
}

/** A save dialog that answers `path` (undefined: cancelled) and records what it was asked. */
const saveDialog = (path: string | undefined, asked: SaveDialogOptions[]) =>
  ({
    async showSaveDialog(...args: unknown[]) {
      asked.push(args.at(-1) as SaveDialogOptions);
      return { canceled: path === undefined, filePath: path ?? '' };
    },
  }) as unknown as Pick<Dialog, 'showSaveDialog'>;

/** A person with one uploaded file in Photo; its bytes. */
async function personWithFile(harness: Harness, bytes: Buffer) {
  const [person] = (await harness.reader('People').listPage({ pageSize: 1 })).records;
  const client = new RecordTableClient({ baseUrl: harness.server.url, apiKey: harness.server.apiKey });
  const record = await client.uploadAttachment(harness.baseId, person!.id, 'Photo', {
    contentType: 'text/plain',
    filename: 'notes: draft.txt',
    bytes,
  });
  const attachment = (record.fields['Photo'] as AttachmentData[]).at(-1)!;
  return { recordId: person!.id, attachment };
}

describe('Save and Open of an attachment in the services', () => {
  it('Save asks where (the file’s own type first), reads a fresh link and writes the file there whole', async () => {
    h = await startHarness();
    const bytes = Buffer.from('the file on the service\n'.repeat(2000));
    const { recordId, attachment } = await personWithFile(h, bytes);
    const asked: SaveDialogOptions[] = [];
    const chosen = join(h.userDataDir, 'saved.txt');
    const { call } = filesOf(h, {
      chooseDestination: exportDestination({
        dialog: saveDialog(chosen, asked),
        window: () => undefined,
        folder: () => '/home/someone/Downloads',
      }),
    });
    const request = { target: h.target('People'), recordId, field: 'Photo', attachmentId: attachment.id };
    expect(await call('attachments.save', request)).toEqual({ supported: true, filePath: chosen });
    expect(await readFile(chosen)).toEqual(bytes);
    expect(asked).toMatchObject([
      {
        title: 'Save attachment',
        defaultPath: '/home/someone/Downloads/notes_ draft.txt',
        filters: [
          { name: 'TXT', extensions: ['txt'] },
          { name: 'All files', extensions: ['*'] },
        ],
      },
    ]);
    expect((await readdir(h.userDataDir)).filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  it('a cancelled dialog saves nothing; no dialog or no opener: the page’s links do it', async () => {
    h = await startHarness();
    const { recordId, attachment } = await personWithFile(h, Buffer.from('x'));
    const request = { target: h.target('People'), recordId, field: 'Photo', attachmentId: attachment.id };
    const cancelled = filesOf(h, { chooseDestination: async () => undefined });
    expect(await cancelled.call('attachments.save', request)).toEqual({ supported: true });
    expect(await filesOf(h).call('attachments.save', request)).toEqual({ supported: false });
    expect(await filesOf(h).call('attachments.open', request)).toEqual({ supported: false });
  });

  it('Open hands the system the attachment’s current signed link', async () => {
    h = await startHarness();
    const { recordId, attachment } = await personWithFile(h, Buffer.from('opened'));
    const opened: string[] = [];
    const { call } = filesOf(h, { openLink: async (url) => void opened.push(url) });
    const request = { target: h.target('People'), recordId, field: 'Photo', attachmentId: attachment.id };
    expect(await call('attachments.open', request)).toEqual({ supported: true });
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatch(new RegExp(`^${h.server.url}/files/`));
    expect(await (await fetch(opened[0]!)).text()).toBe('opened');
  });

  it('refuses an attachment the record no longer has, a link that is not https, and a file over the limit', async () => {
    h = await startHarness();
    const { recordId, attachment } = await personWithFile(h, Buffer.alloc(4096, 1));
    const target = h.target('People');
    const chosen = join(h.userDataDir, 'big.bin');
    await writeFile(chosen, 'kept');
    const small = filesOf(h, { chooseDestination: async () => chosen, maxBytes: 1000 });
    const request = { target, recordId, field: 'Photo', attachmentId: attachment.id };
    await expect(small.call('attachments.save', request)).rejects.toThrow(/larger than/);
    // Nothing half-written replaced the file that was there.
    expect(await readFile(chosen, 'utf8')).toBe('kept');
    expect((await readdir(h.userDataDir)).filter((f) => f.endsWith('.part'))).toEqual([]);
    await expect(
      small.call('attachments.save', { ...request, attachmentId: 'attNOTTHERE00000' }),
    ).rejects.toThrow(/no longer has that file/);

    const elsewhere = filesOf(h, {
      tableFor: async () => ({
        get: async () => ({
          id: recordId,
          createdTime: '2026-01-01T00:00:00.000Z',
          fields: { Photo: [{ ...attachment, url: 'http://example.org/files/x' }] },
        }),
      }),
      openLink: async () => undefined,
    });
    await expect(elsewhere.call('attachments.open', request)).rejects.toThrow(/does not open/);
  });

  it('Save is bounded by progress: a big file sent slowly over many windows is saved whole, a stalled one ends', async () => {
    h = await startHarness();
    const bytes = Buffer.alloc(20 * 64 * 1024, 7);
    const { recordId, attachment } = await personWithFile(h, bytes);
    const server = h.server.url;
    front = await startFaultProxy(server);
    const proxy = front;
    const chosen = join(h.userDataDir, 'slow.bin');
    // The file's link reached through the proxy in front of the server, which sends it as the test says.
    const { call } = filesOf(h, {
      chooseDestination: async () => chosen,
      fetch: (url, init) => fetch(String(url).replace(server, proxy.url), init),
      stallMs: 500,
    });
    const request = { target: h.target('People'), recordId, field: 'Photo', attachmentId: attachment.id };
    const isFile = (r: { path: string }) => r.path.startsWith('/files/');
    // 20 pieces of 64 KiB, 100 ms apart: 2 s, four windows, each bringing far more than its floor.
    front.inject({ type: 'drip', chunks: 20, everyMs: 100 }, { match: isFile });
    expect(await call('attachments.save', request)).toEqual({ supported: true, filePath: chosen });
    expect((await readFile(chosen)).equals(bytes)).toBe(true);

    const stalled = join(h.userDataDir, 'stalled.bin');
    const held = filesOf(h, {
      chooseDestination: async () => stalled,
      fetch: (url, init) => fetch(String(url).replace(server, proxy.url), init),
      stallMs: 500,
    });
    front.inject(
      {
        type: 'answer',
        answer: (res) => {
          res.writeHead(200, { 'content-length': String(bytes.length) });
          res.write(bytes.subarray(0, 100));
        },
      },
      { match: isFile },
    );
    await expect(held.call('attachments.save', request)).rejects.toThrow(/The download stalled/);
    expect((await readdir(h.userDataDir)).filter((f) => f.startsWith('stalled'))).toEqual([]);
  });
});
