/**
 * Offline mirrors of hosted bases. A mirror is a copy of a hosted base in the embedded local server, with the
 * same base, table, field, view and record ids and creation times, so that every feature of the app works
 * on it as on any base of the local server. Beside the copy, a mirror store (store.ts) keeps the merge base
 * of every record; local changes are the differences between the copy and that base, so they survive a
 * crash without a journal of their own. See engine.ts for pull, push and conflicts.
 */
import { MirrorEngine } from './engine';
import type { MirrorDeps, Mirrors } from './types';

export function createMirrors(deps: MirrorDeps): Mirrors {
  return new MirrorEngine(deps);
}
