/**
 * A mirror's conflicts report as a file: what the app lists, with the mirror it belongs to and when it was
 * saved, so that it can be read (or diffed) without TableDesk. A value that is absent (no value, or the record
 * deleted on that side) is written as `null` with the kind saying which.
 */
import type { MirrorConflictInfo, MirrorInfo } from '../../core/contract';
import { copyName } from '../../core/records/copy-names';

export interface ConflictsReport {
  kind: 'tabledesk.mirror-conflicts';
  version: 1;
  savedAt: string;
  mirror: { id: string; base: string; baseId: string; lastSyncedAt: string | null };
  conflicts: {
    table: string;
    tableId: string;
    recordId: string;
    /** The record's primary field as of the last sync. */
    record: string | null;
    field: string | null;
    kind: MirrorConflictInfo['kind'];
    lastSynced: unknown;
    mine: unknown;
    theirs: unknown;
  }[];
}

const orNull = (v: unknown): unknown => (v === undefined ? null : v);

export function conflictsReport(
  mirror: MirrorInfo,
  conflicts: MirrorConflictInfo[],
  now: Date,
): ConflictsReport {
  return {
    kind: 'tabledesk.mirror-conflicts',
    version: 1,
    savedAt: now.toISOString(),
    mirror: {
      id: mirror.id,
      base: mirror.source.baseName,
      baseId: mirror.source.baseId,
      lastSyncedAt: mirror.lastSyncedAt === undefined ? null : new Date(mirror.lastSyncedAt).toISOString(),
    },
    conflicts: conflicts.map((c) => ({
      table: c.tableName,
      tableId: c.tableId,
      recordId: c.recordId,
      record: c.recordName ?? null,
      field: c.fieldName ?? null,
      kind: c.kind,
      lastSynced: orNull(c.base),
      mine: orNull(c.mine),
      theirs: orNull(c.theirs),
    })),
  };
}

/** `<base> (offline copy) conflicts <date>.json`; the door makes it safe for its file system. */
export const reportFileName = (mirror: MirrorInfo, now: Date): string =>
  `${copyName(mirror.source.baseName)} conflicts ${now.toISOString().slice(0, 10)}.json`;
