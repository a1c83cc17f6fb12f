/**
 * The contract's attachment uploads: a file reaches the services in parts that each fit a WebSocket
 * frame (stage, then parts, then send); Electron's door can instead pick a file with the OS dialog, read by the
 * services, so the renderer never names a path. An upload is journaled like a create: one whose answer was
 * lost is listed among `uncertainCreates` (with `upload` set) and never sent again on its own.
 */
import { z } from 'zod';
import { channel } from './define';
import { editTargetSchema } from './edits';
import { channelErrorSchema, idSchema, recordSchema } from './schemas';

/** Bytes of file per `attachments.part`: their base64 stays well under a frame (MAX_FRAME_BYTES). */
export const UPLOAD_PART_BYTES = 512 * 1024;

const uploadTarget = {
  target: editTargetSchema,
  recordId: idSchema,
  /** The attachment field, by name or id. */
  field: z.string().min(1).max(500),
};

/** One attachment of a record's field, by its id. */
const attachmentRef = { ...uploadTarget, attachmentId: idSchema };

export const uploadStateSchema = z.object({
  uploadId: idSchema,
  ...uploadTarget,
  filename: z.string(),
  /** Bytes of the request handed to the connection, of `total`; 0 of 0 while it waits in the throttle. */
  sent: z.number().int(),
  total: z.number().int(),
  state: z.enum(['staged', 'queued', 'sending', 'done', 'failed', 'uncertain']),
  error: channelErrorSchema.optional(),
});

export const attachmentChannels = {
  /** Checks the file's size and type before any byte is taken, and opens an upload for its parts. */
  'attachments.stage': channel(
    z.object({
      ...uploadTarget,
      filename: z.string().max(1000),
      contentType: z.string().max(300),
      size: z.number().int().nonnegative(),
    }),
    z.object({ uploadId: idSchema }),
  ),
  /** One part of the file, in order, as base64. */
  'attachments.part': channel(
    z.object({
      uploadId: idSchema,
      offset: z.number().int().nonnegative(),
      data: z.string().max(Math.ceil((UPLOAD_PART_BYTES * 4) / 3) + 4),
    }),
    z.object({ received: z.number().int() }),
  ),
  /** Journals the upload, then sends it through the connection's throttle; answers the record. */
  'attachments.send': channel(z.object({ uploadId: idSchema }), z.object({ record: recordSchema })),
  /** Drops a staged upload that was not sent. */
  'attachments.cancel': channel(z.object({ uploadId: idSchema }), z.object({ cancelled: z.boolean() })),
  /**
   * Electron: the OS open dialog, in the main process; the chosen file is read and staged by the services.
   * `supported: false` where the door has no dialog (the browser door: the page uses a file input).
   */
  'attachments.pick': channel(
    z.object(uploadTarget),
    z.object({
      supported: z.boolean(),
      staged: z.object({ uploadId: idSchema, filename: z.string(), size: z.number().int() }).optional(),
    }),
  ),
  /**
   * Electron: the save dialog in the main process, then the file fetched from the attachment's current link
   * (read again from its record: a link expires after two hours) and written where the user chose; no
   * `filePath` when the user cancelled. `supported: false` where the door has no dialog (the browser door: the
   * page's link downloads it).
   */
  'attachments.save': channel(
    z.object(attachmentRef),
    z.object({ supported: z.boolean(), filePath: z.string().optional() }),
  ),
  /**
   * Electron: the attachment's current link handed to the system (its browser shows or downloads the file).
   * `supported: false` where the door has none (the browser door: the page's link opens it).
   */
  'attachments.open': channel(z.object(attachmentRef), z.object({ supported: z.boolean() })),
} as const;

export const attachmentEvents = {
  'attachments.progress': uploadStateSchema,
} as const;
