/** Offline mirrors of hosted bases (mirrors.ts; pull, push and conflicts in engine.ts). */
export { createMirrors } from './mirrors';
export type {
  MirrorConflict,
  MirrorDeps,
  MirrorProgress,
  MirrorResolution,
  MirrorSummary,
  Mirrors,
  SyncResult,
} from './types';
