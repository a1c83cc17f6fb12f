/**
 * Go to row: the rows up to a far row made ready to show, as a call of its own so that it can be cancelled (a
 * `view.rows` call cannot be). Where the service reads rows where they are it is a page's read; else a walk
 * of the view's map (progress as its `view.count` events) or of its page chain (as its `view.state` events).
 */
import { z } from 'zod';
import { channel } from './define';
import { idSchema } from './schemas';

export const walkChannels = {
  /**
   * Walks until the first `to` rows are held or the view ends, then answers; a newer walk of the same view, or
   * `view.cancelWalk`, ends it at once with `cancelled: true` and no page after the one in flight is asked for.
   */
  'view.walk': channel(
    z.object({
      viewId: idSchema,
      to: z.number().int().min(1).max(100_000_000),
      /** The row asked for (1-based, at most `to`): where rows are read where they are, its page is read first. */
      row: z.number().int().min(1).max(100_000_000).optional(),
      /** Rows the grid shows at once: a row read where it is comes with the screen around it. */
      screenRows: z.number().int().min(1).max(1000).optional(),
    }),
    z.object({
      loaded: z.number().int(),
      /** Known once the view's count is: fewer rows than `to` means the view ends first. */
      rowCount: z.number().int().optional(),
      cancelled: z.boolean(),
    }),
  ),
  'view.cancelWalk': channel(z.object({ viewId: idSchema }), z.object({ cancelled: z.boolean() })),
} as const;
