/** What a failed call rejects with, in words (kept apart from the page's bridge, which needs a page to run). */
import type { ChannelError } from '../../../core/contract';

export function isChannelError(e: unknown): e is ChannelError {
  return typeof e === 'object' && e !== null && typeof (e as { message?: unknown }).message === 'string';
}

/** A readable line for any failure a call rejects with. */
export function errorMessage(e: unknown): string {
  if (isChannelError(e)) return e.message;
  return e instanceof Error ? e.message : String(e);
}
