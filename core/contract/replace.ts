/**
 * Find and replace: a preview read from the service (every change counted, the first ones listed, the refused
 * ones with why), then apply through the edit queue, which can be stopped and resumed. A plan lives in the
 * services between preview and apply, named by `replaceId`.
 */
import { z } from 'zod';
import { viewQuerySchema } from './channels';
import { channel } from './define';
import { editTargetSchema } from './edits';
import { channelErrorSchema, idSchema } from './schemas';

/** The first changes and refusals a preview lists; all of them are counted, and apply sends all. */
export const PREVIEW_LIST_LIMIT = 500;

const replaceFieldSchema = z.object({
  name: z.string().min(1).max(500),
  type: z.string().min(1).max(100),
  options: z.record(z.string(), z.unknown()).nullable().optional(),
});

export const replaceSpecSchema = z.object({
  find: z.string().min(1, 'Type what to find').max(1000),
  replacement: z.string().max(10_000),
  regex: z.boolean().default(false),
  matchCase: z.boolean().default(false),
  wholeCell: z.boolean().default(false),
});

const changeRow = z.object({
  recordId: idSchema,
  /** The record's primary value, when the request named the primary field. */
  label: z.string().optional(),
  field: z.string(),
  before: z.string(),
  after: z.string(),
});

const progressState = z.enum(['running', 'done', 'stopped', 'failed']);

export const replaceChannels = {
  /**
   * Reads the records that may match (the view's filter and a formula over the searched fields, or the
   * selected ids) at background priority and plans every change; answers when the reading ends.
   */
  'replace.preview': channel(
    z.object({
      /** Chosen by the caller, so that it can stop the reading before the answer arrives. */
      replaceId: idSchema,
      target: editTargetSchema,
      /** The view (its name and filter formula) to replace in; ignored for a selection. */
      query: viewQuerySchema.pick({ view: true, formula: true }).default({}),
      /** The selected rows; absent: every record of the view. */
      recordIds: z.array(idSchema).min(1).max(50_000).optional(),
      /** The fields searched: the shown ones, or one column. */
      fields: z.array(replaceFieldSchema).min(1).max(500),
      /** Named to list records by their primary value. */
      primaryField: z.string().min(1).max(500).optional(),
      spec: replaceSpecSchema,
    }),
    z.object({
      replaceId: idSchema,
      /** Records the search read from the service: those its formula picked out, or the whole view or selection. */
      read: z.number().int(),
      changeCount: z.number().int(),
      /** Records with at least one change: one PATCH carries 10 of them. */
      recordCount: z.number().int(),
      changes: z.array(changeRow),
      refusedCount: z.number().int(),
      refused: z.array(changeRow.extend({ reason: z.string() })),
      /** Fields not searched, as replace cannot write them (computed ones): said once, never refused changes. */
      leftOut: z.array(z.object({ field: z.string(), reason: z.string() })),
      /** PATCH requests apply will make, and the seconds they take at the service's 5 requests/s. */
      requests: z.number().int(),
      seconds: z.number(),
    }),
  ),
  /**
   * Sends what the plan has not yet sent through the edit queue (journaled, one undo step per plan); answers
   * when the service has acknowledged it all, or at once when stopped.
   */
  'replace.apply': channel(
    z.object({ replaceId: idSchema }),
    z.object({
      state: z.enum(['done', 'stopped']),
      /** Records handed to the edit queue so far (journaled; the queue sends them even after a stop). */
      sentCount: z.number().int(),
      /** The first of them, for the list of what was sent. */
      sent: z.array(z.object({ recordId: idSchema, label: z.string().optional() })),
      left: z.number().int(),
      /** Cells edited after the preview read them: left as edited, never sent. */
      skippedCount: z.number().int(),
      /** The first of them. */
      skipped: z.array(z.object({ recordId: idSchema, label: z.string().optional(), field: z.string() })),
    }),
  ),
  /** Stops a preview's reading or an apply's sending (what was handed to the queue still goes). */
  'replace.stop': channel(z.object({ replaceId: idSchema }), z.object({ stopped: z.boolean() })),
} as const;

export const replaceEvents = {
  'replace.progress': z.object({
    replaceId: idSchema,
    phase: z.enum(['reading', 'sending']),
    /** Reading: records read; sending: records handed to the queue and acknowledged. */
    done: z.number().int(),
    /** Sending: the records the plan changes. */
    total: z.number().int().optional(),
    state: progressState,
    /** The API calls question is open: nothing is read (or sent) until the user answers it. */
    waiting: z.boolean().optional(),
    error: channelErrorSchema.optional(),
  }),
} as const;

export type ReplaceEventName = keyof typeof replaceEvents;
export type ReplaceEventPayload<E extends ReplaceEventName> = z.output<(typeof replaceEvents)[E]>;
