/**
 * Save and Open for an attachment, in the services, where the door has a save dialog and a way to hand a link
 * to the system (Electron): the page cannot do either there (a link to another origin with `download` is a
 * navigation, which the window refuses). The attachment is read again from its record, because its link
 * expires two hours after it was read; Save then fetches the file into the place the user chose (a part file
 * renamed when whole, so a failed download leaves nothing half-written under the chosen name).
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { TableClient } from '../../core/api';
import type { attachmentChannels } from '../../core/contract/attachments';
import type { RequestOut, ResponseOf } from '../../core/contract/define';
import { isAttachment } from '../../core/records/attachments';
import type { AttachmentData } from '../../core/records/attachments';
import { opensExternally } from '../../core/records/external-links';
import { StallWatch } from '../../core/api/stall-watch';
import type { ChooseDestination } from '../edits/csv-export';
import type { EditTarget } from '../edits/types';
import { ServiceError } from '../errors';

type Channels = typeof attachmentChannels;
type FileChannel = 'attachments.save' | 'attachments.open';
export type AttachmentFileHandlers = {
  [C in FileChannel]: (request: RequestOut<Channels, C>) => Promise<ResponseOf<Channels, C>>;
};

/** Hands a link to the system's browser (Electron's shell.openExternal). */
export type OpenLink = (url: string) => Promise<void>;

/** A saved file may be large, but not without end. */
export const MAX_DOWNLOAD_BYTES = 2 * 1024 ** 3;
/**
 * A download that stalls ends (see StallWatch): a window of DOWNLOAD_STALL_MS with no answer or less than
 * DOWNLOAD_STALL_BYTES (about 1 KB/s). A big file on a slow line is saved however long it takes.
 */
const DOWNLOAD_STALL_MS = 30_000;
const DOWNLOAD_STALL_BYTES = 32 * 1024;

export interface AttachmentFilesOptions {
  tableFor: (target: EditTarget) => Promise<Pick<TableClient, 'get'>>;
  chooseDestination?: ChooseDestination;
  openLink?: OpenLink;
  fetch?: typeof fetch;
  maxBytes?: number;
  /** The stall window (default DOWNLOAD_STALL_MS). */
  stallMs?: number;
}

export class AttachmentFiles {
  constructor(private readonly options: AttachmentFilesOptions) {}

  readonly handlers: AttachmentFileHandlers = {
    'attachments.save': async (r) => {
      const choose = this.options.chooseDestination;
      if (choose === undefined) return { supported: false };
      const { filename } = await this.current(r);
      const filePath = await choose(filename, { title: 'Save attachment' });
      if (filePath === undefined) return { supported: true };
      // Read again: the dialog may have stayed open past the link's two hours.
      await this.download((await this.current(r)).url, filePath);
      return { supported: true, filePath };
    },
    'attachments.open': async (r) => {
      const open = this.options.openLink;
      if (open === undefined) return { supported: false };
      await open(this.checked((await this.current(r)).url));
      return { supported: true };
    },
  };

  private async current(r: RequestOut<Channels, FileChannel>): Promise<AttachmentData> {
    const table = await this.options.tableFor(r.target);
    const record = await table.get(r.recordId);
    const cell = record.fields[r.field];
    const item = (Array.isArray(cell) ? cell : []).filter(isAttachment).find((a) => a.id === r.attachmentId);
    if (item === undefined)
      throw new ServiceError('not-found', `The record no longer has that file in ${r.field}.`);
    return item;
  }

  private checked(url: string): string {
    if (!opensExternally(url))
      throw new ServiceError(
        'invalid-request',
        'The service gave a link TableDesk does not open (not https).',
      );
    return url;
  }

  private async download(url: string, filePath: string): Promise<void> {
    const fetchImpl = this.options.fetch ?? fetch;
    const windowMs = this.options.stallMs ?? DOWNLOAD_STALL_MS;
    const watch = new StallWatch(
      { windowMs, minBytes: DOWNLOAD_STALL_BYTES },
      () =>
        new ServiceError(
          'network',
          `The download stalled (less than ${DOWNLOAD_STALL_BYTES / 1024} KiB in ${windowMs / 1000} s).`,
        ),
    );
    const part = `${filePath}.${randomBytes(4).toString('hex')}.part`;
    try {
      const response = await fetchImpl(this.checked(url), { signal: watch.signal });
      watch.answered();
      // Redirects are followed; where they end must pass the same check.
      if (response.url !== '' && response.url !== url) this.checked(response.url);
      if (!response.ok || response.body === null) {
        await response.body?.cancel();
        throw new ServiceError('network', `The file could not be downloaded (HTTP ${response.status}).`);
      }
      const max = this.options.maxBytes ?? MAX_DOWNLOAD_BYTES;
      const declared = Number(response.headers.get('content-length') ?? '0');
      if (declared > max) {
        await response.body.cancel();
        throw tooLarge(max);
      }
      let seen = 0;
      const limit = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          seen += chunk.length;
          watch.moved(chunk.length);
          done(seen > max ? tooLarge(max) : null, chunk);
        },
      });
      await pipeline(
        Readable.fromWeb(response.body as WebReadableStream<Uint8Array>),
        limit,
        createWriteStream(part),
      );
      await rename(part, filePath);
    } catch (e) {
      await rm(part, { force: true });
      const error = watch.error(e);
      throw error instanceof ServiceError
        ? error
        : new ServiceError('network', `The file could not be saved: ${(error as Error).message}`);
    } finally {
      watch.stop();
    }
  }
}

const tooLarge = (max: number) =>
  new ServiceError('invalid-request', `The file is larger than ${Math.round(max / 1024 ** 2)} MB.`);
