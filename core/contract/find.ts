/**
 * Find in a view: the count of records matching a search, and the next or previous matching row, as calls of
 * their own so that a newer search or `find.cancel` ends them (see services/table-view/find.ts).
 */
import { z } from 'zod';
import { MAX_FIND_TEXT } from '../records/find-formula';
import { channel } from './define';
import { idSchema } from './schemas';

const search = {
  viewId: idSchema,
  text: z.string().min(1).max(MAX_FIND_TEXT),
  /** The shown fields, by name, in the grid's order; each must be one of the view's columns. */
  fields: z.array(z.string().min(1).max(500)).min(1).max(500),
};

export const findChannels = {
  /** Records of the view matching the search (its named view and formula, AND the find formula). */
  'find.count': channel(
    z.object(search),
    z.object({
      count: z.number().int(),
      cancelled: z.boolean(),
      /** Counting needs a walk of the matching records that the user did not agree to pay for. */
      declined: z.boolean().optional(),
    }),
  ),
  /**
   * The first matching row after `from` (or before it, `previous`), in the view's order, wrapping round at
   * the ends; rows not loaded yet are reached by walking the view's page chain (its `view.state` events tell
   * the progress). `ordinal` is the match's place among the view's matching records, from 1.
   */
  'find.next': channel(
    z.object({
      ...search,
      from: z.number().int().min(-1).max(100_000_000),
      direction: z.enum(['next', 'previous']),
    }),
    z.object({
      cancelled: z.boolean(),
      match: z
        .object({
          row: z.number().int(),
          recordId: z.string(),
          ordinal: z.number().int(),
          wrapped: z.boolean(),
        })
        .optional(),
      loaded: z.number().int(),
      rowCount: z.number().int().optional(),
      /** Only the loaded rows were searched: the walk beyond them was not agreed to (its calls). */
      declined: z.boolean().optional(),
    }),
  ),
  'find.cancel': channel(z.object({ viewId: idSchema }), z.object({ cancelled: z.boolean() })),
} as const;
