/**
 * Go to row: the walk of a view's page chain to a far row, as a call of its own so that it can be cancelled
 * (a `view.rows` call cannot be), with progress as the view's `view.state` events.
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
    z.object({ viewId: idSchema, to: z.number().int().min(1).max(100_000_000) }),
    z.object({
      loaded: z.number().int(),
      /** Known once the page without an offset has arrived: fewer rows than `to` means the view ends first. */
      rowCount: z.number().int().optional(),
      cancelled: z.boolean(),
    }),
  ),
  'view.cancelWalk': channel(z.object({ viewId: idSchema }), z.object({ cancelled: z.boolean() })),
} as const;
