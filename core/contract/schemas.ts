/** The zod shapes the channels share: records, tables, columns, connections and the error a failed call rejects with. */
import { z } from 'zod';

export const idSchema = z.string().min(1).max(200);

/** A failed call rejects with this; it never carries an API key. */
export const channelErrorSchema = z.object({
  kind: z.enum([
    'http',
    'network',
    'timeout',
    'aborted',
    'outcome-unknown',
    'invalid-request',
    'not-found',
    /** This computer's disk refused a write (full, read-only): nothing was saved. */
    'storage',
    'internal',
  ]),
  status: z.number().int().optional(),
  type: z.string().optional(),
  message: z.string(),
});
export type ChannelError = z.infer<typeof channelErrorSchema>;

export const recordSchema = z.object({
  id: z.string(),
  createdTime: z.string(),
  fields: z.record(z.string(), z.unknown()),
  commentCount: z.number().optional(),
});

export const fieldSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  description: z.string().optional(),
  options: z.record(z.string(), z.unknown()).nullable().optional(),
});

/** A view's filter and sort as TableDesk's local server gives them (Airtable's metadata API does not). */
export const viewDetailsSchema = z.object({
  filterByFormula: z.string().max(100_000).optional(),
  sort: z.array(z.object({ field: z.string().min(1).max(1000), direction: z.enum(['asc', 'desc']) })).max(20),
});

export const viewSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  visibleFieldIds: z.array(z.string()).optional(),
  tabledesk: viewDetailsSchema.optional(),
});

export const tableSchema = z.object({
  id: z.string(),
  name: z.string(),
  primaryFieldId: z.string(),
  description: z.string().optional(),
  fields: z.array(fieldSchema),
  views: z.array(viewSchema),
});

export const baseSchema = z.object({
  id: z.string(),
  name: z.string(),
  permissionLevel: z.enum(['none', 'read', 'comment', 'edit', 'create']),
});

/**
 * A grid column. From the table schema when the metadata API answers; otherwise inferred from the records
 * as they load (`inferred: true`, no `id`), and then `view.state` events carry the grown column list.
 */
export const columnSchema = z.object({
  id: z.string().optional(),
  name: z.string(),
  type: z.string(),
  primary: z.boolean(),
  options: z.record(z.string(), z.unknown()).nullable().optional(),
  inferred: z.boolean(),
});
export type Column = z.infer<typeof columnSchema>;

export const sortSpecSchema = z.object({
  field: z.string().min(1),
  direction: z.enum(['asc', 'desc']).default('asc'),
});

/** What a connection looks like to the renderer: never the key, only whether one is stored. */
export const connectionSummarySchema = z.object({
  id: idSchema,
  name: z.string(),
  baseUrl: z.string(),
  hasKey: z.boolean(),
  /** false: the key lives in memory for this session only ("don't remember"). */
  remember: z.boolean(),
  /** The embedded local server's demo connection: it cannot be edited or removed. */
  builtin: z.boolean(),
});
export type ConnectionSummary = z.infer<typeof connectionSummarySchema>;
