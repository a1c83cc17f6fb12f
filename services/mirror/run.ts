/**
 * What the parts of the mirror engine share: the context they work in (the store, the copy, the options) and
 * one run of a pull or sync (its mirror, client, signal, progress and result).
 */
import type { RecordTableClient } from '../../core/api/index';
import type { TableSchema } from '../../core/records/types';
import type { MirrorDeps, MirrorProgress, SyncResult } from './types';
import type { LocalCopy } from './local';
import type { WholeConflict } from './merge';
import type { MirrorRow, MirrorStore } from './store';

export interface EngineContext {
  deps: MirrorDeps;
  store: MirrorStore;
  local: LocalCopy;
  /** How far back a refresh asks before the last pull started (see MirrorDeps.refreshOverlapMs). */
  overlapMs: number;
  /** This computer's clock (see MirrorDeps.now). */
  now: () => number;
}

/** An attachment as the copy stores it: its file by hash, or a link only (the service's URL). */
export interface CopyFile {
  id: string;
  filename: string;
  type: string;
  blob?: string;
  url?: string;
  size?: number;
}

export interface Run {
  mirror: MirrorRow;
  client: RecordTableClient;
  signal: AbortSignal;
  progress: MirrorProgress;
  report: () => void;
  result: SyncResult;
  /** Each attachment's form in the copy as this run found it (a file, or a link with its latest URL). */
  files: Map<string, CopyFile>;
  /** Attachments whose download failed in this run. */
  failedFiles: Set<string>;
  /**
   * Downloads that stalled in this run, by file host (origin): past two, the host's other files wait for the
   * next run as links (see MirrorFiles.download).
   */
  slowHosts: Map<string, number>;
  /** Files attached here that the service cannot take (left out of what is sent). */
  unsentFiles: Set<string>;
  /** A push left out links to records made here and not yet sent (see knownLinks in creates.ts). */
  linksLeftOut?: boolean;
  /** Records whose base links this run's pull moved as the other end of a link (see MergeBase). */
  relinked: Set<string>;
  /** Records deleted on one side and not yet on the other, as the pull found them (see MirrorPull). */
  deleted: Set<string>;
  /**
   * The conflicts over whole records open as the run starts, those the user may have seen (see wholeRecord):
   * not one this run's pull makes and its push settles.
   */
  standing: ReadonlyMap<string, WholeConflict>;
}

export const tick = (run: Run, requests = 1) => {
  run.progress.requests += requests;
  run.report();
};

export function mirroredTables(m: MirrorRow): TableSchema[] {
  return m.schema.filter((t) => m.tableIds === undefined || m.tableIds.includes(t.id));
}

export function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}
