import type { ErrorKind } from './errors';
import type { Priority, Purpose } from './options';

/**
 * What the client reports about each request, for progress displays and benchmarks.
 * - queued: entered its base's scheduler (also after a retry delay);
 * - started: left the queue and went out (`waitMs` = time spent queued);
 * - finished: one attempt ended (`status` when a response came, `errorKind` when it failed, `quota` when the
 *   service refused it for the month's allowance);
 * - retry: the request will be sent again (`waitMs` = delay before it re-enters the queue);
 * - paused: a 429 paused the whole base (`waitMs` = length of the pause).
 */
export interface ClientEvent {
  type: 'queued' | 'started' | 'finished' | 'retry' | 'paused';
  /** The base whose scheduler carries the request; '' for account-level metadata calls. */
  baseId: string;
  requestId: number;
  method: string;
  /** The path without its query string (formulas can be long). */
  path: string;
  priority: Priority;
  /** What the request is spent on (the request budget counts each `started`: every attempt is a call). */
  purpose: Purpose;
  /** 1 for the first attempt. */
  attempt: number;
  at: number;
  status?: number;
  waitMs?: number;
  durationMs?: number;
  errorKind?: ErrorKind;
  /** A `finished` attempt the service refused for its monthly allowance of calls (never retried). */
  quota?: boolean;
  /** Why a retry or pause happened, e.g. "429 RATE_LIMIT_REACHED" or "network: ECONNRESET". */
  reason?: string;
}

export type ClientEventListener = (event: ClientEvent) => void;
