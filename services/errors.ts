/**
 * Errors the services raise themselves, and the mapping of any error to the contract's ChannelError.
 * A ServiceError is a state the user (or this computer, or the network) caused: its message is for the user.
 * Anything else that reaches the mapping is a bug: it is logged as one and the user is told so, not shown
 * its message. Node's system errors (a disk or a socket that refused) are the computer's state, not a bug.
 */
import type { ChannelError } from '../core/contract';

/** What the user is told when a bug, not a state they caused, failed their request. */
export const BUG_MESSAGE = 'Something went wrong in TableDesk (a bug). Its log has the details.';

export class ServiceError extends Error {
  constructor(
    /**
     * invalid-request: what was asked cannot be done now or at all (a bad setting, a mirror being synced);
     * not-found: what it names does not exist; network: a server did not answer, or answered what it should
     * not; storage: this computer's disk refused a write (full, read-only), so nothing was saved, or its
     * keyring will not seal or open a saved key.
     */
    readonly kind: 'invalid-request' | 'not-found' | 'network' | 'storage',
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'ServiceError';
  }
}

/**
 * A state of this computer or its network that a part of the services finds itself (a write that took
 * nothing, a name with no address left to connect to), in the shape of Node's own system errors (the code,
 * and the call the operating system would have refused), so it is read as the state it is, not a bug.
 */
export class SystemError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly syscall: string,
  ) {
    super(message);
    this.name = 'SystemError';
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

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** A Node system error (it names the call the operating system refused), as the kind of state it is. */
function systemErrorKind(e: unknown): 'network' | 'storage' | undefined {
  if (!(e instanceof Error) || !('syscall' in e) || !('code' in e) || typeof e.code !== 'string')
    return undefined;
  return NETWORK_CODES.has(e.code) ? 'network' : 'storage';
}

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
  const system = systemErrorKind(error);
  if (system !== undefined) return { kind: system, message: (error as Error).message };
  console.error('TableDesk: a bug in a service', error);
  return { kind: 'internal', message: BUG_MESSAGE };
}
