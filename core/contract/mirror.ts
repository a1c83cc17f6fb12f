/**
 * The contract's offline mirrors: a base (or some of its tables) of a hosted connection is copied
 * into the embedded local server with the same ids, opened there like any other base, and synchronised back
 * with a per-cell three-way merge whose conflicts the user decides. The engine is `services/mirror/`.
 */
import { z } from 'zod';
import { channel } from './define';
import { idSchema } from './schemas';

/** The longest wait between automatic syncs the app offers: one day. */
export const MAX_AUTO_SYNC_MINUTES = 1440;
/** Resolutions in one call; a larger report is resolved in parts. */
export const MAX_RESOLUTIONS = 5000;

export const mirrorSummarySchema = z.object({
  id: idSchema,
  source: z.object({ connectionId: idSchema, baseId: idSchema, baseName: z.string() }),
  /** Where the copy is served: a base of the embedded connection with the source's ids. */
  local: z.object({ connectionId: idSchema, baseId: idSchema }),
  tables: z.array(z.object({ id: idSchema, name: z.string() })),
  /** `partial`: a pull that stopped (cancelled, failed, the app closed); Resume continues it. */
  state: z.enum(['pulling', 'partial', 'ready', 'syncing']),
  lastSyncedAt: z.number().optional(),
  /** Records changed locally since the last sync. */
  localChanges: z.number().int(),
  conflicts: z.number().int(),
  /** Attachments copied as links only: their files could not be downloaded yet; each sync tries again. */
  filesMissing: z.number().int(),
  /** Minutes between automatic syncs while the service answers; 0: only when asked. */
  autoSyncMinutes: z.number().int(),
  /** The last automatic sync's failure, until one succeeds. */
  autoSyncError: z.string().optional(),
  /**
   * When the last automatic sync ended, failed or not (ms since the epoch): the toolbar shows a manual sync's
   * result only until a newer automatic outcome.
   */
  autoSyncAt: z.number().optional(),
});
export type MirrorInfo = z.infer<typeof mirrorSummarySchema>;

export const mirrorProgressSchema = z.object({
  mirrorId: idSchema,
  phase: z.enum(['schema', 'records', 'files', 'refresh', 'push']),
  tables: z.number().int(),
  tablesDone: z.number().int(),
  records: z.number().int(),
  files: z.number().int(),
  /** Attachments whose files could not be downloaded (their records are copied, the files linked only). */
  filesMissing: z.number().int(),
  /** Requests spent so far; the time left follows from the throttle's 5 requests/s. */
  requests: z.number().int(),
  etaMs: z.number().optional(),
  /** The base being made available offline (a pull's progress; a sync names only its mirror). */
  source: z.object({ connectionId: idSchema, baseId: idSchema }).optional(),
});

export const syncResultSchema = z.object({
  sent: z.number().int(),
  received: z.number().int(),
  deleted: z.number().int(),
  conflicts: z.number().int(),
  schemaChanges: z.array(z.string()),
  filesMissing: z.number().int(),
});

export const mirrorConflictSchema = z.object({
  id: idSchema,
  tableId: z.string(),
  tableName: z.string(),
  recordId: z.string(),
  /** The record's primary field as of the last sync, to name it by; absent where it has none. */
  recordName: z.string().optional(),
  /**
   * Absent for a record deleted on one side and edited on the other. A change the copy lost to a schema change
   * names its field with why, as in `Age (deleted on the service)`.
   */
  fieldName: z.string().optional(),
  kind: z.enum(['cell', 'deleted-remote', 'deleted-local']),
  /** The value as of the last sync, the local one and the service's (undefined: no value, or deleted). */
  base: z.unknown(),
  mine: z.unknown(),
  theirs: z.unknown(),
});
export type MirrorConflictInfo = z.infer<typeof mirrorConflictSchema>;

export const mirrorResolutionSchema = z
  .object({
    conflictId: idSchema,
    choice: z.enum(['mine', 'theirs', 'edit']),
    /** The value typed for `edit` (`null` clears the cell). */
    value: z.unknown().optional(),
  })
  .strict()
  .refine((r) => r.choice !== 'edit' || r.value !== undefined, {
    error: 'An edited resolution needs its value',
    path: ['value'],
  })
  .refine((r) => r.choice === 'edit' || r.value === undefined, {
    error: 'Only an edited resolution carries a value',
    path: ['value'],
  });
export type MirrorResolutionInfo = z.infer<typeof mirrorResolutionSchema>;

const onMirror = { mirrorId: idSchema };

export const mirrorChannels = {
  'mirror.list': channel(z.object({}).default({}), z.object({ mirrors: z.array(mirrorSummarySchema) })),
  /**
   * Makes a base (or the tables named) of a hosted connection available offline, or resumes a partial
   * mirror of it. Answers when the pull ends; progress comes as `mirror.progress`, and `mirror.cancel`
   * stops it with `cancelled: true`, leaving a partial mirror that the same call resumes.
   */
  'mirror.start': channel(
    z
      .object({
        connectionId: idSchema,
        baseId: idSchema,
        tableIds: z.array(idSchema).min(1, 'Choose at least one table').max(1000).optional(),
      })
      .strict(),
    z.object({
      mirror: mirrorSummarySchema.optional(),
      cancelled: z.boolean(),
      /** The copy's calls were not agreed to (the request budget): nothing was copied. */
      declined: z.boolean().optional(),
    }),
  ),
  'mirror.cancel': channel(z.object(onMirror).strict(), z.object({ cancelled: z.boolean() })),
  /** Pulls what changed remotely and pushes what changed locally; fails as a ChannelError when offline. */
  'mirror.sync': channel(z.object(onMirror).strict(), syncResultSchema),
  'mirror.conflicts': channel(
    z.object(onMirror).strict(),
    z.object({ conflicts: z.array(mirrorConflictSchema) }),
  ),
  'mirror.resolve': channel(
    z
      .object({
        ...onMirror,
        resolutions: z
          .array(mirrorResolutionSchema)
          .min(1, 'Choose at least one conflict')
          .max(MAX_RESOLUTIONS, `Resolve at most ${MAX_RESOLUTIONS} conflicts at once`),
      })
      .strict(),
    z.object({
      resolved: z.number().int(),
      /** Left open: the cell was edited in the copy since the conflict was listed, which now shows the new value. */
      changed: z.number().int(),
    }),
  ),
  /**
   * Removes an offline copy: its base on the local server and all the mirror keeps of it. Refused while it
   * is being copied or synced, and while it holds local changes or conflicts not synced unless `force`
   * (asked of the user first: they are lost).
   */
  'mirror.remove': channel(
    z.object({ ...onMirror, force: z.boolean().optional() }).strict(),
    z.object({ removed: z.boolean() }),
  ),
  /** Remembers how often the mirror syncs by itself (0: off). */
  'mirror.autoSync': channel(
    z
      .object({
        ...onMirror,
        minutes: z
          .number()
          .int('Give whole minutes')
          .min(0)
          .max(MAX_AUTO_SYNC_MINUTES, `At most every ${MAX_AUTO_SYNC_MINUTES} minutes`),
      })
      .strict(),
    z.object({ autoSyncMinutes: z.number().int() }),
  ),
  /**
   * The conflicts report as JSON. As with the CSV export, the renderer never names a file: in Electron the
   * main process asks with its save dialog and writes there (`filePath`); in the browser the text comes back
   * (`json`) and the page downloads it. A declined dialog answers `cancelled: true`.
   */
  'mirror.saveReport': channel(
    z.object(onMirror).strict(),
    z.object({
      fileName: z.string(),
      conflicts: z.number().int(),
      filePath: z.string().optional(),
      json: z.string().optional(),
      cancelled: z.boolean(),
    }),
  ),
} as const;

export const mirrorEvents = {
  'mirror.progress': mirrorProgressSchema,
  /** The mirrors changed (a pull or sync ended, a conflict was resolved, a local edit counted). */
  'mirror.changed': z.object({ mirrors: z.array(mirrorSummarySchema) }),
} as const;
