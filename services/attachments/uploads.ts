/**
 * Attachment uploads: a file is staged in parts (each fits a WebSocket frame), or picked with the door's open
 * dialog and read here, then sent once through the connection's throttle with uploadAttachment. Every upload
 * is journaled like a create (RecordWriter.once): one whose answer was lost is listed and never sent again.
 */
import { randomUUID } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { RecordTableClient } from '../../core/api';
import type { attachmentChannels } from '../../core/contract/attachments';
import { UPLOAD_PART_BYTES } from '../../core/contract/attachments';
import type { RequestOut, ResponseOf } from '../../core/contract/define';
import type { EventPayload } from '../../core/contract';
import { MAX_UPLOAD_BYTES, uploadProblem } from '../../core/records/attachments';
import type { RecordData } from '../../core/records/types';
import { ServiceError, toChannelError } from '../errors';
import type { EditQueue } from '../edits/queue';
import type { RecordWriter } from '../edits/records';
import { outcomeOf } from '../edits/records';
import type { EditTarget } from '../edits/types';

type Channels = typeof attachmentChannels;
type UploadChannel = Exclude<keyof Channels, 'attachments.save' | 'attachments.open'>;
export type AttachmentHandlers = {
  [C in UploadChannel]: (request: RequestOut<Channels, C>) => Promise<ResponseOf<Channels, C>>;
};

/** The door's open dialog (Electron): a file the user chose, or undefined when cancelled. */
export type ChooseFile = () => Promise<string | undefined>;

type Progress = EventPayload<'attachments.progress'>;

interface Staged {
  target: EditTarget;
  recordId: string;
  field: string;
  filename: string;
  contentType: string;
  size: number;
  parts: Buffer[];
  received: number;
  at: number;
}

/** Staged files held at once, and for how long: a page that stops midway leaves nothing for long. */
const MAX_STAGED = 8;
const STAGED_TTL_MS = 10 * 60_000;

/** Content types of the files people attach most, by extension, for files picked by path. */
const TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.html': 'text/html',
  '.zip': 'application/zip',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

const refuse = (message: string) => new ServiceError('invalid-request', message);

export interface UploadsOptions {
  clientFor: (connectionId: string) => Promise<Pick<RecordTableClient, 'uploadAttachment'>>;
  edits: Promise<{ records: RecordWriter; queue: EditQueue }>;
  emit: <E extends 'attachments.progress' | 'edits.saved'>(event: E, payload: EventPayload<E>) => void;
  chooseFile?: ChooseFile;
}

export class Uploads {
  private readonly staged = new Map<string, Staged>();

  constructor(private readonly options: UploadsOptions) {}

  readonly handlers: AttachmentHandlers = {
    'attachments.stage': async (r) => ({ uploadId: this.stage(r) }),
    'attachments.part': async ({ uploadId, offset, data }) => ({
      received: this.part(uploadId, offset, data),
    }),
    'attachments.send': async ({ uploadId }) => ({ record: await this.send(uploadId) }),
    'attachments.cancel': async ({ uploadId }) => ({ cancelled: this.staged.delete(uploadId) }),
    'attachments.pick': (r) => this.pick(r),
  };

  private stage(r: Omit<Staged, 'parts' | 'received' | 'at'>, bytes?: Buffer): string {
    const problem = uploadProblem({ name: r.filename, size: r.size, type: r.contentType });
    if (problem) throw refuse(problem);
    const now = Date.now();
    for (const [id, s] of this.staged) if (now - s.at > STAGED_TTL_MS) this.staged.delete(id);
    if (this.staged.size >= MAX_STAGED)
      throw refuse(`At most ${MAX_STAGED} files can wait to be uploaded at once.`);
    const uploadId = randomUUID();
    this.staged.set(uploadId, { ...r, parts: bytes ? [bytes] : [], received: bytes?.length ?? 0, at: now });
    this.progress(uploadId, this.staged.get(uploadId)!, { sent: 0, total: 0, state: 'staged' });
    return uploadId;
  }

  private part(uploadId: string, offset: number, data: string): number {
    const s = this.staged.get(uploadId);
    if (!s)
      throw new ServiceError('not-found', 'This upload is no longer waiting (sent, cancelled or expired).');
    if (offset !== s.received)
      throw refuse(`Part at ${offset} out of order: ${s.received} bytes received so far.`);
    const bytes = Buffer.from(data, 'base64');
    if (bytes.length > UPLOAD_PART_BYTES || s.received + bytes.length > s.size)
      throw refuse(`${s.filename}: more bytes than the ${s.size} announced.`);
    s.parts.push(bytes);
    s.received += bytes.length;
    return s.received;
  }

  private async send(uploadId: string): Promise<RecordData> {
    const s = this.staged.get(uploadId);
    if (!s)
      throw new ServiceError('not-found', 'This upload is no longer waiting (sent, cancelled or expired).');
    if (s.received !== s.size) throw refuse(`${s.filename}: ${s.received} of ${s.size} bytes received.`);
    this.staged.delete(uploadId);
    const { records, queue } = await this.options.edits;
    const client = await this.options.clientFor(s.target.connectionId);
    const bytes = Buffer.concat(s.parts);
    this.progress(uploadId, s, { sent: 0, total: 0, state: 'queued' });
    // The service adds the file to the cell as it holds it: an edit of the cell typed just before (a file
    // taken out) goes first, else it would arrive after the file and write the cell without it.
    await queue.settle(s.target);
    try {
      const record = await records.once(
        {
          target: s.target,
          records: [],
          upload: { recordId: s.recordId, field: s.field, filename: s.filename, size: s.size },
        },
        () =>
          client.uploadAttachment(
            s.target.baseId,
            s.recordId,
            s.field,
            { filename: s.filename, contentType: s.contentType, bytes },
            {
              priority: 'interactive',
              onProgress: (sent, total) => this.progress(uploadId, s, { sent, total, state: 'sending' }),
            },
          ),
      );
      this.progress(uploadId, s, { sent: 1, total: 1, state: 'done' });
      // Fields edited here and not yet saved keep their local values, as after any save (edits.saved).
      const pending = queue
        .status()
        .records.find((p) => sameTarget(p.target, s.target) && p.recordId === s.recordId);
      const local = pending ? Object.fromEntries(pending.pending.map((f) => [f, pending.values[f]])) : {};
      const shown = { ...record, fields: { ...record.fields, ...local } };
      this.options.emit('edits.saved', {
        target: s.target,
        recordId: s.recordId,
        record: shown,
        editedSince: pending?.pending ?? [],
      });
      return shown;
    } catch (e) {
      const state = outcomeOf(e) === 'unknown' ? 'uncertain' : 'failed';
      this.progress(uploadId, s, { sent: 0, total: 0, state, error: toChannelError(e) });
      throw e;
    }
  }

  /** The door's dialog picks a file; its size is checked before it is read, then it is staged whole. */
  private async pick(r: {
    target: EditTarget;
    recordId: string;
    field: string;
  }): Promise<ResponseOf<Channels, 'attachments.pick'>> {
    if (!this.options.chooseFile) return { supported: false };
    const path = await this.options.chooseFile();
    if (path === undefined) return { supported: true };
    const filename = basename(path);
    const contentType = TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
    const { size } = await stat(path);
    const problem = uploadProblem({ name: filename, size, type: contentType });
    if (problem || size > MAX_UPLOAD_BYTES) throw refuse(problem ?? filename);
    const bytes = await readFile(path);
    const uploadId = this.stage({ ...r, filename, contentType, size: bytes.length }, bytes);
    return { supported: true, staged: { uploadId, filename, size: bytes.length } };
  }

  private progress(
    uploadId: string,
    s: Staged,
    p: Pick<Progress, 'sent' | 'total' | 'state' | 'error'>,
  ): void {
    this.options.emit('attachments.progress', {
      uploadId,
      target: s.target,
      recordId: s.recordId,
      field: s.field,
      filename: s.filename,
      ...p,
    });
  }
}

const sameTarget = (a: EditTarget, b: EditTarget) =>
  a.connectionId === b.connectionId && a.baseId === b.baseId && a.table === b.table;
