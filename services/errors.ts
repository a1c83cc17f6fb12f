/** Errors the services raise themselves, and the mapping of any error to the contract's ChannelError. */
import type { ChannelError } from '../core/contract';

export class ServiceError extends Error {
  constructor(
    /** storage: this computer's disk refused a write (full, read-only), so nothing was saved. */
    readonly kind: 'invalid-request' | 'not-found' | 'network' | 'storage',
    message: string,
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}

interface ClientErrorLike {
  kind: ChannelError['kind'];
  message: string;
  status?: number;
  type?: string;
  serviceMessage?: string;
}

const isClientError = (e: unknown): e is ClientErrorLike =>
  e instanceof Error && e.name === 'RecordTableError' && 'kind' in e;

/** Plain data for the renderer. RecordTableError never carries the key (core/api's guarantee). */
export function toChannelError(error: unknown): ChannelError {
  if (error instanceof ServiceError) return { kind: error.kind, message: error.message };
  if (isClientError(error)) {
    const out: ChannelError = { kind: error.kind, message: error.serviceMessage ?? error.message };
    if (error.status !== undefined) out.status = error.status;
    if (error.type !== undefined) out.type = error.type;
    return out;
  }
  if (error instanceof Error && error.name === 'AbortError')
    return { kind: 'aborted', message: 'Cancelled.' };
  console.error('TableDesk: unexpected error in a service', error);
  return { kind: 'internal', message: error instanceof Error ? error.message : String(error) };
}
