/**
 * Other people's changes in the open tables (services/live): how often the app looks for them, what it found
 * (records changed in place, records created elsewhere waiting for Refresh), and Refresh.
 */
import { z } from 'zod';
import { channel } from './define';
import { editTargetSchema } from './edits';
import { recordSchema } from './schemas';

/** The look intervals the user may choose, in seconds; 0 is off. */
export const LIVE_INTERVALS = [0, 10, 30, 60, 300, 900] as const;

export const liveChannels = {
  /** How often open tables are looked at for other people's changes (seconds; 0: never). */
  'live.interval': channel(
    z.object({ seconds: z.number().int().min(0).max(3600).optional() }),
    z.object({ seconds: z.number().int() }),
  ),
  /** Refresh: records created elsewhere join the table's open views (after many changes, they read again). */
  'live.refresh': channel(editTargetSchema, z.object({ applied: z.number().int() })),
} as const;

export const liveEvents = {
  'live.changes': z.object({
    target: editTargetSchema,
    /** When the look was answered (ms since the epoch). */
    at: z.number(),
    /** Records the views hold that someone else changed, with the fields that changed. */
    updated: z.array(z.object({ record: recordSchema, fields: z.array(z.string()) })),
    /** Records created elsewhere since the table was opened, or (by webhook) deleted, not yet shown. */
    created: z.number().int(),
    /** More changes than one look reads: Refresh reads the view again. */
    many: z.boolean(),
  }),
} as const;
