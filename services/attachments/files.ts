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

/** A saved file may be large, but not without end, and a stalled download ends. */
export const MAX_DOWNLOAD_BYTES = 2 * 1024 ** 3;
const DOWNLOAD_TIMEOUT_MS = 30 * 60_000;

export interface AttachmentFilesOptions {
  tableFor: (target: EditTarget) => Promise<Pick<TableClient, 'get'>>;
  chooseDestination?: ChooseDestination;
  openLink?: OpenLink;
  fetch?: typeof fetch;
  maxBytes?: number;
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
    const response = await fetchImpl(this.checked(url), { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
    // Redirects are followed; where they end must pass the same check.
    if (response.url !== '' && response.url !== url) this.checked(response.url);
    if (!response.ok || response.body === null)
      throw new ServiceError('network', `The file could not be downloaded (HTTP ${response.status}).`);
    const max = this.options.maxBytes ?? MAX_DOWNLOAD_BYTES;
    const declared = Number(response.headers.get('content-length') ?? '0');
    if (declared > max) throw tooLarge(max);
    let seen = 0;
    const limit = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        seen += chunk.length;
        done(seen > max ? tooLarge(max) : null, chunk);
      },
    });
    const part = `${filePath}.${randomBytes(4).toString('hex')}.part`;
    try {
      await pipeline(
        Readable.fromWeb(response.body as WebReadableStream<Uint8Array>),
        limit,
        createWriteStream(part),
      );
      await rename(part, filePath);
    } catch (error) {
      await rm(part, { force: true });
      throw error instanceof ServiceError
        ? error
        : new ServiceError('network', `The file could not be saved: ${(error as Error).message}`);
    }
  }
}

const tooLarge = (max: number) =>
  new ServiceError('invalid-request', `The file is larger than ${Math.round(max / 1024 ** 2)} MB.`);
