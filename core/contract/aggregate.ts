/** Groups and summaries of an open table view (`view.aggregate`). */
import { z } from 'zod';
import { MAX_GROUP_LEVELS, SUMMARY_KINDS } from '../records/aggregate';
import type { GroupNode } from '../records/aggregate';
import { channel } from './define';
import { idSchema, sortSpecSchema } from './schemas';

const groupNodeSchema: z.ZodType<GroupNode> = z.lazy(() =>
  z.object({
    value: z.unknown(),
    count: z.number().int().min(0),
    start: z.number().int().min(0),
    groups: z.array(groupNodeSchema).optional(),
  }),
) as z.ZodType<GroupNode>;

export const aggregateChannels = {
  /**
   * Groups (by the first fields of the view's sort, which the renderer puts first) and column summaries.
   * `scope: 'loaded'` uses the whole view where the server computes it (the local server's extension), else
   * the rows loaded so far; `'all'` walks the whole view at background priority where the server cannot.
   */
  'view.aggregate': channel(
    z.object({
      viewId: idSchema,
      groupBy: z.array(sortSpecSchema).max(MAX_GROUP_LEVELS).default([]),
      summaries: z
        .array(z.object({ field: z.string().min(1), kind: z.enum(SUMMARY_KINDS) }))
        .max(500)
        .default([]),
      scope: z.enum(['loaded', 'all']).default('loaded'),
    }),
    z.object({
      total: z.number().int(),
      groups: z.array(groupNodeSchema).optional(),
      summaries: z.array(
        z.object({
          field: z.string(),
          kind: z.enum(SUMMARY_KINDS),
          value: z.union([z.number(), z.string(), z.null()]),
        }),
      ),
      /** 'view': computed over the whole view; 'loaded': over the rows loaded so far (`total` of them). */
      basis: z.enum(['view', 'loaded']),
      /** The whole view was asked for and the user did not agree to its cost: these are the loaded rows'. */
      declined: z.boolean().optional(),
    }),
  ),
} as const;
