/**
 * A write the disk refused (full, read-only, not ours to write, failing), in words for the user: what happened
 * and what to do, never Node's "EACCES: permission denied, open …".
 */
import { ServiceError } from '../errors';

interface Refusal {
  why: string;
  /** What the user can do about it, as the start of a sentence. */
  fix: string;
}

function refusalOf(e: unknown): Refusal {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOSPC':
      return { why: 'the disk is full', fix: 'Free some space on it' };
    case 'EDQUOT':
      return { why: 'your disk quota is used up', fix: 'Free some space in your quota' };
    case 'EROFS':
      return { why: 'the disk is read-only', fix: 'Make that disk writable' };
    case 'EACCES':
    case 'EPERM':
      return {
        why: 'your user may not write in it',
        fix: 'Give your user the right to write in that folder (its permissions or a lock on it)',
      };
    case 'EIO':
      return { why: 'the disk reported an error', fix: 'Check the disk' };
    default:
      return {
        why: `the disk refused it (${e instanceof Error ? e.message : String(e)})`,
        fix: 'Check the disk and the folder',
      };
  }
}

/** A journal write the disk refused: nothing of it was saved, and the user makes the change again. */
export function notSaved(dir: string, e: unknown): ServiceError {
  const { why, fix } = refusalOf(e);
  return new ServiceError(
    'storage',
    `Not saved: TableDesk could not write it to its journal in ${dir}, because ${why}. ${fix}, then make ` +
      'the change again.',
  );
}

/**
 * The data folder cannot be written at start-up: the app cannot keep an edit, so it does not start, and says
 * which folder and what to do. A ServiceError (another process holds the folder) is already in words.
 */
export function cannotStart(dir: string, e: unknown): ServiceError {
  if (e instanceof ServiceError) return e;
  const { why, fix } = refusalOf(e);
  // The file or folder refused, where it is not the data folder itself (its edits folder, the lock).
  const path = (e as NodeJS.ErrnoException | undefined)?.path;
  const at = typeof path === 'string' && path !== dir ? ` (at ${path})` : '';
  return new ServiceError(
    'storage',
    `TableDesk cannot write in its data folder, ${dir}, because ${why}${at}; it keeps your unsent edits ` +
      `there. ${fix}, then start TableDesk again.`,
    { cause: e },
  );
}
