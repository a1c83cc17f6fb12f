/**
 * The contract's CSV import into an existing table. The renderer reads and parses the file, maps its
 * columns to fields and types every cell by the field's rules (the preview shows exactly what is sent); the
 * typed rows reach the services in parts that each fit a WebSocket frame (stage, rows, run). The services
 * journal the job before anything is sent and send it 10 rows a request through the base's throttle.
 */
import { z } from 'zod';
import { channel } from './define';
import { editTargetSchema } from './edits';
import { channelErrorSchema, idSchema } from './schemas';

/** Bounds of one import, checked in the page before parsing and again here. */
export const IMPORT_MAX_FILE_BYTES = 5 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 10_000;
/**
 * The most one import may stage, in bytes of its rows as JSON: a 5 MiB file's rows with their line numbers and
 * quoting fit in twice its size. Checked as rows arrive, whatever channel sends them.
 */
export const IMPORT_MAX_STAGED_BYTES = 2 * IMPORT_MAX_FILE_BYTES;
export const IMPORT_MAX_COLUMNS = 100;
/** Rows listed with their reason in progress events (the count is always complete). */
export const IMPORT_MAX_LISTED = 200;

/** The field types `performUpsert.fieldsToMergeOn` may name (Airtable's list; the local server keeps it too). */
export const MERGE_FIELD_TYPES: ReadonlySet<string> = new Set([
  'singleLineText',
  'multilineText',
  'number',
  'singleSelect',
  'multipleSelects',
  'date',
]);

/**
 * The time an import of `rows` takes at the throttle's pace: a request per 10 rows, started at least
 * 1000/rate + 10 ms apart (core/api's spacing), the answers to the last few overlapping the next starts.
 */
export function importEstimateMs(rows: number, requestsPerSecond = 5): number {
  return Math.ceil(rows / 10) * (Math.ceil(1000 / requestsPerSecond) + 10);
}

const fieldName = z.string().min(1).max(500);

export const importRowSchema = z.object({
  /** The row's line in the file (1 is the header), for the report. */
  line: z.number().int().positive(),
  /** One typed value per staged field, in order; `null` leaves the cell empty. */
  values: z.array(z.unknown()).max(IMPORT_MAX_COLUMNS),
  /** A select name the field does not have yet: the service adds it (typecast). */
  typecast: z.boolean().default(false),
});
export type ImportRow = z.output<typeof importRowSchema>;

export const importModeSchema = z.enum(['create', 'upsert']);

const refusedRow = z.object({ line: z.number().int(), error: channelErrorSchema });

export const importStateSchema = z.object({
  importId: idSchema,
  target: editTargetSchema,
  mode: importModeSchema,
  mergeOn: z.array(z.string()),
  total: z.number().int(),
  /** Rows the service answered (created, updated or refused). */
  done: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  refusedCount: z.number().int(),
  /** The first IMPORT_MAX_LISTED refused rows, with the service's reason. */
  refused: z.array(refusedRow),
  /** Batches of a create whose answer was lost: never sent again on their own; the user checks the table. */
  uncertain: z.array(z.object({ lines: z.array(z.number().int()), error: channelErrorSchema })),
  /**
   * staged: rows arriving; running; done; cancelled (rows left unsent); failed (the service refused the
   * requests themselves, e.g. a key without access: rows left unsent); interrupted (TableDesk stopped
   * midway: Resume sends the rest).
   */
  state: z.enum(['staged', 'running', 'done', 'cancelled', 'failed', 'interrupted']),
  /** Running, but waiting for the user's answer to its API calls question: nothing is sent until then. */
  waiting: z.boolean().optional(),
  /** Cancelled because its API calls were not agreed to (the question's no): nothing more was sent. */
  declined: z.boolean().optional(),
  error: channelErrorSchema.optional(),
});
export type ImportState = z.output<typeof importStateSchema>;

export const importChannels = {
  /** Opens an import: its fields (the staged columns, in the order of each row's values) and its mode. */
  'import.stage': channel(
    z
      .object({
        target: editTargetSchema,
        mode: importModeSchema,
        fields: z.array(fieldName).min(1).max(IMPORT_MAX_COLUMNS),
        /** Upsert: 1 to 3 of `fields` that identify a record (`performUpsert.fieldsToMergeOn`). */
        mergeOn: z.array(fieldName).max(3).default([]),
        total: z.number().int().min(1).max(IMPORT_MAX_ROWS),
      })
      .refine((r) => new Set(r.fields).size === r.fields.length, 'A field is mapped twice')
      .refine(
        (r) => r.mode === 'create' || (r.mergeOn.length > 0 && r.mergeOn.every((f) => r.fields.includes(f))),
        'An upsert merges on 1 to 3 of the imported fields',
      ),
    z.object({ importId: idSchema }),
  ),
  /** A part of the rows, in order, each part under a frame. */
  'import.rows': channel(
    z.object({ importId: idSchema, rows: z.array(importRowSchema).min(1).max(IMPORT_MAX_ROWS) }),
    z.object({ received: z.number().int() }),
  ),
  /** Journals the job with all its rows, then sends it in the background; `import.progress` follows it. */
  'import.run': channel(z.object({ importId: idSchema }), importStateSchema),
  /** Stops sending: batches already handed to the throttle finish, the rest stay unsent. */
  'import.cancel': channel(z.object({ importId: idSchema }), z.object({ cancelled: z.boolean() })),
  /** Imports running or needing the user: stopped with rows unsent, or with batches of unknown outcome. */
  'import.list': channel(z.object({}).default({}), z.object({ imports: z.array(importStateSchema) })),
  /** Sends what an interrupted, cancelled or failed import has left, from its first unanswered batch. */
  'import.resume': channel(z.object({ importId: idSchema }), importStateSchema),
  /** Forgets a finished or stopped import (and its uncertain batches, once the user has checked them). */
  'import.dismiss': channel(z.object({ importId: idSchema }), z.object({ dismissed: z.boolean() })),
} as const;

export const importEvents = {
  'import.progress': importStateSchema,
} as const;
