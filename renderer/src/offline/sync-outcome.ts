/**
 * Which sync outcome the offline toolbar shows: a manual sync's result holds only until an automatic sync ends
 * after it (issue 22, item 6). A later automatic failure replaces it with its error; a later automatic success
 * clears it, as its counts no longer describe the copy.
 */
import type { MirrorInfo } from '../../../core/contract';

export type SyncOutcome = 'manual' | 'auto-error' | 'none';

/**
 * `manualAt`: when the manual sync's answer came (ms since the epoch), undefined when there is none. The
 * services and the renderer read the same machine's clock.
 */
export function syncOutcome(
  mirror: Pick<MirrorInfo, 'autoSyncAt' | 'autoSyncError'>,
  manualAt: number | undefined,
): SyncOutcome {
  const autoNewer =
    mirror.autoSyncAt !== undefined && (manualAt === undefined || mirror.autoSyncAt > manualAt);
  if (manualAt !== undefined && !autoNewer) return 'manual';
  return mirror.autoSyncError !== undefined && autoNewer ? 'auto-error' : 'none';
}
