/**
 * The contract's edit channels: cell edits through the edit queue, creates, deletes, undo/redo and CSV export.
 * Every operation names its table as a target (connection, base, table), so it does not depend on a view
 * staying open; events carry the same target for the views showing that table.
 */
import { z } from 'zod';
import { viewQuerySchema } from './channels';
import { channel } from './define';
import { channelErrorSchema, idSchema, recordSchema } from './schemas';

export const editTargetSchema = z.object({
  connectionId: idSchema,
  baseId: idSchema,
  table: z.string().min(1).max(500),
});

const fieldValues = z
  .record(z.string().min(1).max(500), z.unknown())
  .refine((f) => Object.keys(f).length > 0, 'An edit needs at least one field');

export const cellChangeSchema = z.object({
  recordId: idSchema,
  /** The new values by field name; `null` clears a cell. */
  fields: fieldValues,
  /** The values shown before, for reverting a rejected edit and for undo; a field left out had none. */
  previous: z.record(z.string(), z.unknown()).optional(),
  /** Set where the user typed text into a typed field: the service converts it. */
  typecast: z.boolean().default(false),
});

/** A record's part in the edit queue. */
export const pendingRecordSchema = z.object({
  target: editTargetSchema,
  recordId: idSchema,
  /** Fields not yet acknowledged by the service (queued or in flight). */
  pending: z.array(z.string()),
  /** Their newest local values (`null` = cleared): what the cells show until the service acknowledges them. */
  values: z.record(z.string(), z.unknown()),
  /** Discarded while a request carries it: dropped if that request fails (saved if it lands). */
  discarding: z.boolean().optional(),
  /** The last failure of a send that will be retried (429, 5xx, network), with when. */
  retrying: z.object({ error: channelErrorSchema, at: z.number() }).optional(),
  /** Values the service rejected: the cells show `previous`, with the message, until retry or discard. */
  rejected: z
    .object({
      fields: z.record(z.string(), z.unknown()),
      previous: z.record(z.string(), z.unknown()),
      error: channelErrorSchema,
    })
    .optional(),
});

const createOutcome = z.object({
  /** Position in the request's `records`. */
  index: z.number().int(),
  fields: z.record(z.string(), z.unknown()),
  /**
   * rejected: the service refused it, nothing was created; unknown: the request may or may not have created
   * it (the reply was lost), so it is not sent again: the user checks the table and decides.
   */
  outcome: z.enum(['rejected', 'unknown']),
  error: channelErrorSchema,
});

/** A create batch whose outcome is unknown: kept, with its values, until the user has checked and dismisses it. */
export const uncertainCreateSchema = z.object({
  id: idSchema,
  target: editTargetSchema,
  at: z.number(),
  records: z.array(z.record(z.string(), z.unknown())),
  error: channelErrorSchema,
  /** Set for an upload (core/contract/attachments.ts): the file that may or may not have been attached. */
  upload: z
    .object({ recordId: idSchema, field: z.string(), filename: z.string(), size: z.number().int() })
    .optional(),
});

/**
 * A delete not yet confirmed: being sent, or failed with rows left (not journaled: a delete is the user's
 * own request and answers them; after a restart its rows are simply still there).
 */
export const pendingDeleteSchema = z.object({
  id: idSchema,
  target: editTargetSchema,
  state: z.enum(['sending', 'failed']),
  /** Records asked to delete (sending) or left on the service (failed). */
  records: z.number().int(),
  at: z.number(),
  error: channelErrorSchema.optional(),
});

/**
 * Damaged lines of the edit journal (or an import's), set aside in a file beside it when the app started:
 * what they held is not sent or listed. Reported until the user dismisses the report (the file is kept).
 */
export const journalDamageSchema = z.object({
  file: z.string(),
  lines: z.number().int(),
  message: z.string(),
});

const historyState = z.object({
  target: editTargetSchema,
  canUndo: z.boolean(),
  canRedo: z.boolean(),
  /** e.g. "Undo edit of 3 cells", "Undo delete of 25 records". */
  undoLabel: z.string().optional(),
  redoLabel: z.string().optional(),
});

const historyResult = historyState.extend({
  done: z.boolean(),
  /** Records re-created by undoing a delete (or redoing a create) get new ids. */
  idChanges: z.array(z.object({ from: z.string(), to: z.string() })),
  message: z.string().optional(),
});

/** Records one `edits.edit` call changes at most: the largest set of edits that is one undo step. */
export const MAX_EDITS_PER_CALL = 5000;

/**
 * One part of a call the browser door split to fit its frame limit (core/contract/split-calls): the parts of
 * one call share `of`, and together they are one user action: one undo step, one API calls question.
 */
export const callPartSchema = z.object({
  of: z.string().min(1).max(64),
  index: z.number().int().min(0).max(100_000),
  count: z.number().int().min(2).max(100_000),
  /** Items in the whole call: what its question asks about. */
  total: z.number().int().min(1).max(10_000_000),
});
export type CallPart = z.infer<typeof callPartSchema>;

export const editChannels = {
  /** Resolves once every change is journaled on disk ("saved locally"); sending follows in the background. */
  'edits.edit': channel(
    z.object({
      target: editTargetSchema,
      changes: z.array(cellChangeSchema).min(1).max(MAX_EDITS_PER_CALL),
      /** false for changes that must not become an undo step of their own. */
      undoable: z.boolean().default(true),
      part: callPartSchema.optional(),
    }),
    z.object({ editIds: z.array(z.string()) }),
  ),
  /** Everything still owed or rejected; `pending > 0` means quitting now leaves edits to send on next start. */
  'edits.status': channel(
    z.object({}).default({}),
    z.object({
      pending: z.number().int(),
      rejected: z.number().int(),
      records: z.array(pendingRecordSchema),
      uncertainCreates: z.array(uncertainCreateSchema),
      journalDamage: journalDamageSchema.optional(),
    }),
  ),
  /** The user has read the damage report: it is no longer shown (the set-aside file stays, renamed). */
  'edits.dismissJournalDamage': channel(z.object({}).default({}), z.object({ dismissed: z.boolean() })),
  'edits.retry': channel(
    z.object({ target: editTargetSchema, recordId: idSchema }),
    z.object({ fields: z.array(z.string()) }),
  ),
  /** Drops a rejected edit: the cells go back to their previous values. */
  'edits.discard': channel(
    z.object({ target: editTargetSchema, recordId: idSchema }),
    z.object({ reverted: z.record(z.string(), z.unknown()) }),
  ),

  /**
   * Sends waiting edits at once: those held back for batching and those waiting out a retry's backoff.
   * Without a target, every table's; with a record, that record's only.
   */
  'edits.sendNow': channel(
    z.object({ target: editTargetSchema.optional(), recordId: idSchema.optional() }).default({}),
    z.object({ records: z.number().int() }),
  ),
  /** Sends every rejected edit again (without a target, every table's). */
  'edits.retryAll': channel(
    z.object({ target: editTargetSchema.optional() }).default({}),
    z.object({ records: z.number().int() }),
  ),
  /**
   * Drops edits not yet acknowledged: the rejected ones, and with `waiting` also those not yet sent (a
   * request already out is left to finish). The cells go back to their previous values; undo forgets them.
   */
  'edits.discardAll': channel(
    z
      .object({
        target: editTargetSchema.optional(),
        recordId: idSchema.optional(),
        waiting: z.boolean().default(false),
      })
      .default({ waiting: false }),
    z.object({ records: z.number().int() }),
  ),

  /** POST in batches of 10; a batch whose outcome is unknown is never sent again silently. */
  'records.create': channel(
    z.object({
      target: editTargetSchema,
      records: z
        .array(z.object({ fields: z.record(z.string(), z.unknown()) }))
        .min(1)
        .max(5000),
      typecast: z.boolean().default(false),
      undoable: z.boolean().default(true),
      part: callPartSchema.optional(),
    }),
    z.object({ created: z.array(recordSchema), failed: z.array(createOutcome) }),
  ),
  /** Forgets a create of unknown outcome once the user has checked the table. */
  'records.dismissUncertain': channel(z.object({ id: idSchema }), z.object({ dismissed: z.boolean() })),
  /** DELETE in batches of 10 (a lone id in the single-record form); `records` carry the values for undo. */
  'records.delete': channel(
    z.object({
      target: editTargetSchema,
      records: z
        .array(z.object({ id: idSchema, fields: z.record(z.string(), z.unknown()).default({}) }))
        .min(1),
      /** Computed fields, left out when undo re-creates the records. */
      readOnlyFields: z.array(z.string()).default([]),
      /**
       * The records carry only the fields a view shows (others hidden): the rest are read from the service
       * before the delete, so that undo brings the records back whole.
       */
      partial: z.boolean().optional(),
      undoable: z.boolean().default(true),
      part: callPartSchema.optional(),
    }),
    z.object({
      deleted: z.array(z.string()),
      remaining: z.array(z.object({ id: z.string(), error: channelErrorSchema })),
    }),
  ),

  /** Deletes sent and not yet confirmed, and those that left rows behind (kept until retried or dismissed). */
  'records.pendingDeletes': channel(
    z.object({}).default({}),
    z.object({ deletes: z.array(pendingDeleteSchema) }),
  ),
  /** Deletes the rows a failed delete left, as one more undo step. */
  'records.retryDelete': channel(
    z.object({ id: idSchema }),
    z.object({
      deleted: z.array(z.string()),
      remaining: z.array(z.object({ id: z.string(), error: channelErrorSchema })),
    }),
  ),
  /** Forgets a failed delete: its rows stay on the service. */
  'records.dismissDelete': channel(z.object({ id: idSchema }), z.object({ dismissed: z.boolean() })),

  'history.state': channel(z.object({ target: editTargetSchema }), historyState),
  'history.undo': channel(z.object({ target: editTargetSchema }), historyResult),
  'history.redo': channel(z.object({ target: editTargetSchema }), historyResult),

  /**
   * Walks every page of the query through the throttle (background priority) into CSV. The renderer never
   * names a file (strict: a `filePath` is refused): in Electron the main process asks the user with the save
   * dialog and writes there; in the browser the finished CSV is taken with `export.take` and downloaded.
   */
  'export.start': channel(
    z
      .object({
        target: editTargetSchema,
        query: viewQuerySchema.default({}),
        /** Column order; default: the query's fields, else the order fields first appear in. */
        columns: z.array(z.string()).optional(),
        includeRecordId: z.boolean().default(false),
        /** With both: cells as the service writes them for people (cellFormat=string), as Airtable's CSV export. */
        timeZone: z.string().min(1).max(100).optional(),
        userLocale: z.string().min(1).max(50).optional(),
      })
      .strict(),
    z.object({ exportId: idSchema }),
  ),
  'export.cancel': channel(z.object({ exportId: idSchema }), z.object({ cancelled: z.boolean() })),
  /** The CSV text of a finished export that was not saved to a file by the main process (handed over once). */
  'export.take': channel(
    z.object({ exportId: idSchema }),
    z.object({ csv: z.string(), rows: z.number().int() }),
  ),
} as const;

export const editEvents = {
  /**
   * The service acknowledged a record's edits. `record` is the service's record, except that the fields in
   * `editedSince` (edited again while the request was out) hold their newer local values.
   */
  'edits.saved': z.object({
    target: editTargetSchema,
    recordId: idSchema,
    record: recordSchema,
    editedSince: z.array(z.string()),
  }),
  /** A record's place in the queue changed (queued, sent, retrying, rejected, settled). */
  'edits.state': pendingRecordSchema,
  /** Cells to show again as they were (a discarded rejection). */
  'edits.reverted': z.object({
    target: editTargetSchema,
    recordId: idSchema,
    fields: z.record(z.string(), z.unknown()),
  }),
  'edits.summary': z.object({ pending: z.number().int(), rejected: z.number().int() }),
  /** One batch created: the rows to add. */
  'records.created': z.object({ target: editTargetSchema, records: z.array(recordSchema) }),
  /** Damaged journal lines were set aside (at start, or when an import's journal was read), or dismissed. */
  'edits.journalDamage': z.object({ damage: journalDamageSchema.optional() }),
  /** The list of creates whose outcome is unknown changed. */
  'records.uncertain': z.object({ creates: z.array(uncertainCreateSchema) }),
  /** The deletes not yet confirmed changed. */
  'records.deleting': z.object({ deletes: z.array(pendingDeleteSchema) }),
  /** One batch deleted: the rows to remove. */
  'records.deleted': z.object({ target: editTargetSchema, ids: z.array(z.string()) }),
  'history.changed': historyState,
  'export.progress': z.object({
    exportId: idSchema,
    rows: z.number().int(),
    pages: z.number().int(),
    state: z.enum(['running', 'done', 'cancelled', 'failed']),
    /** The file the user chose in the save dialog (Electron); absent when the CSV waits for `export.take`. */
    filePath: z.string().optional(),
    error: channelErrorSchema.optional(),
  }),
} as const;

export type EditEventName = keyof typeof editEvents;
export type EditEventPayload<E extends EditEventName> = z.output<(typeof editEvents)[E]>;
export type EditTargetShape = z.output<typeof editTargetSchema>;
