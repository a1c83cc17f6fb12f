/**
 * What the mirrors show the app (the Mirrors port, a mirror's summary, progress, sync result and conflicts) and
 * what they are built from (MirrorDeps). Files of this folder import it directly; the app, through index.ts.
 */
import type { RecordTableClient } from '../../core/api/index';

export interface MirrorSummary {
  id: string;
  source: { connectionId: string; baseId: string; baseName: string };
  local: { connectionId: string; baseId: string };
  tables: { id: string; name: string }[];
  state: 'pulling' | 'partial' | 'ready' | 'syncing';
  lastSyncedAt?: number;
  /** Records created, changed or deleted in the copy and not yet sent. */
  localChanges: number;
  conflicts: number;
  /** Attachments kept as links only: their files could not be downloaded yet (each sync tries again). */
  filesMissing: number;
}

export interface MirrorProgress {
  mirrorId: string;
  phase: 'schema' | 'records' | 'files' | 'refresh' | 'push';
  tables: number;
  tablesDone: number;
  records: number;
  files: number;
  /** Attachments whose files could not be downloaded: their records are copied, the files linked only. */
  filesMissing: number;
  requests: number;
  etaMs?: number;
}

export interface SyncResult {
  sent: number;
  received: number;
  deleted: number;
  conflicts: number;
  schemaChanges: string[];
  /** Attachments still without their files after the run (see MirrorSummary.filesMissing). */
  filesMissing: number;
}

export interface MirrorConflict {
  id: string;
  tableId: string;
  tableName: string;
  recordId: string;
  fieldName?: string;
  kind: 'cell' | 'deleted-remote' | 'deleted-local';
  base: unknown;
  mine: unknown;
  theirs: unknown;
}

export interface MirrorResolution {
  conflictId: string;
  choice: 'mine' | 'theirs' | 'edit';
  value?: unknown;
}

export interface Mirrors {
  list(): Promise<MirrorSummary[]>;
  makeAvailableOffline(
    source: { connectionId: string; baseId: string; tableIds?: string[] },
    onProgress?: (p: MirrorProgress) => void,
  ): Promise<MirrorSummary>;
  cancel(mirrorId: string): void;
  sync(mirrorId: string, onProgress?: (p: MirrorProgress) => void): Promise<SyncResult>;
  conflicts(mirrorId: string): Promise<MirrorConflict[]>;
  /**
   * `changed`: conflicts left open, their cell (or, for theirs, the record the service deleted) edited in the
   * copy since they were listed (see the engine).
   */
  resolve(mirrorId: string, resolutions: MirrorResolution[]): Promise<{ resolved: number; changed: number }>;
  /**
   * Removes a mirror: the copy (its base in the local server, with everything in it) and what the mirror
   * store keeps of it. Refused while local changes or conflicts are not synced, unless `force` (they are lost).
   */
  remove(mirrorId: string, opts?: { force?: boolean }): Promise<void>;
  close(): void;
}

export interface MirrorDeps {
  /** The app's data folder: the mirror store is `mirrors/mirrors.sqlite` in it. */
  dataDir: string;
  /** A connection's client: all requests to a hosted base go through its one throttle. */
  clientFor(connectionId: string): Promise<RecordTableClient> | RecordTableClient;
  /** The embedded local server, which holds the copies. */
  local: { connectionId: string; url: string; apiKey: string };
  /**
   * How far back a refresh asks for changes before the last pull started (default 60 s): the service's
   * clock and this one may disagree, and a record written while a pull ran may carry a time before it.
   */
  refreshOverlapMs?: number;
  /**
   * This computer's clock (default Date.now): the times a pull starts and a create is sent, which the
   * service's modification and creation times are compared with (tests set it apart from the service's).
   */
  now?: () => number;
  /** Chains of a full walk, fixed (default: as many as the base's measured round trip needs, see core/api/partitioned-walk.ts). */
  partitions?: number;
  /**
   * The stall window of an attachment's download (default 30 s): one that brings less than 32 KiB ends it, and
   * the file stays a link until later.
   */
  fileStallMs?: number;
  /** The stall window of a call to the local server (default 30 s, see services/mirror/local.ts). */
  localStallMs?: number;
  /** The largest attachment file downloaded (default 100 MB, what the local server's file route takes). */
  maxFileBytes?: number;
  fetch?: typeof fetch;
}
