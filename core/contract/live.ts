/**
 * Other people's changes in the open tables (services/live): how often the app looks for them, what it found
 * (records changed in place, records created elsewhere waiting for Refresh), and Refresh.
 */
import { z } from 'zod';
import { channel } from './define';
import { editTargetSchema } from './edits';
import { recordSchema } from './schemas';

/**
 * The prompt choice: a base's webhook payloads read every second while a view of it is open and the app's
 * window is focused. Airtable cannot push to a desktop app (a webhook's notification needs a public URL), so
 * a change shows only when the app asks; to show another user's edit within 2 s (issue 26) the app must ask
 * about every second, 3,600 calls an hour, which is why it is a choice with its cost shown, not the default.
 */
export const LIVE_PROMPT_S = 1;
/**
 * The shortest interval of a poll (a call per open table a look), and of every look while the window is not
 * focused: the prompt choice's second is for the webhook's one call per base, and only while someone looks.
 */
export const LIVE_MIN_POLL_S = 10;

/** The look intervals the user may choose, in seconds; 0 is off. */
export const LIVE_INTERVALS = [0, LIVE_PROMPT_S, 10, 30, 60, 300, 900] as const;

/**
 * Calls an hour of one interval, for one open table polled or one base by webhook: what the menu shows and the
 * budget asks about. The prompt choice's is its webhook reads while focused (a polled base looks every
 * LIVE_MIN_POLL_S instead).
 */
export function liveCallsPerHour(seconds: number): number {
  return seconds <= 0 ? 0 : Math.ceil(3600 / seconds);
}

export const liveChannels = {
  /** How often open tables are looked at for other people's changes (seconds; 0: never). */
  'live.interval': channel(
    z.object({ seconds: z.number().int().min(0).max(3600).optional() }),
    z.object({ seconds: z.number().int() }),
  ),
  /**
   * Whether the app's window is focused (the renderer tells as it changes): the prompt choice reads payloads
   * every second only while it is.
   */
  'live.focus': channel(z.object({ focused: z.boolean() }), z.object({})),
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
