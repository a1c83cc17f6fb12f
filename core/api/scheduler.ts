import PQueue from 'p-queue';
import type { Priority } from './options';

export interface SchedulerStats {
  queued: number;
  inFlight: number;
  /** Requests started during the last second. */
  ratePerSecond: number;
  /** Epoch ms until which a 429 paused the base. */
  pausedUntil?: number;
}

/** No start for this long and the next start is cold (see #noteStart). */
const QUIET_MS = 1000;
export const COLD_START_EXTRA_MS = 150;

const PRIORITY: Record<Priority, number> = { background: 0, interactive: 10 };

/** Queue priority: interactive before background; within each, a re-queued request goes before new ones. */
export function queuePriority(priority: Priority, retry: boolean): number {
  return PRIORITY[priority] + (retry ? 1 : 0);
}

/**
 * The throttle of one base. p-queue's default fixed windows do not space starts: with `interval: 1000,
 * intervalCap: 5` five requests can start in the same millisecond, and even `intervalCap: 1, interval: 200`
 * lets two starts straddle a window boundary closer than 200 ms. Strict mode (a sliding window of recorded
 * start times) with a cap of 1 guarantees that any two starts are at least `spacingMs` apart by Date.now,
 * while unlimited concurrency lets the requests overlap in flight.
 */
export class BaseScheduler {
  readonly #queue: PQueue;
  readonly #spacingMs: number;
  readonly #starts: number[] = [];
  #lastStart = -Infinity;
  #pausedUntil: number | undefined;
  #heldUntil = 0;
  #resumeTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(spacingMs: number) {
    this.#spacingMs = spacingMs;
    this.#queue = new PQueue({ intervalCap: 1, interval: spacingMs, strict: true });
  }

  /**
   * Runs `task` when its turn comes. A signal aborted while queued removes it and it never goes out; once
   * started, the task itself answers the signal (p-queue would reject at once, before the task can tell
   * whether a request that may have reached the service was cancelled).
   */
  run<T>(task: () => Promise<T>, priority: number, signal?: AbortSignal): Promise<T> {
    const whileQueued = new AbortController();
    const abort = () => whileQueued.abort(signal?.reason);
    if (signal?.aborted) abort();
    else signal?.addEventListener('abort', abort, { once: true });
    return this.#queue.add(
      () => {
        signal?.removeEventListener('abort', abort);
        this.#noteStart();
        return task();
      },
      { priority, signal: whileQueued.signal },
    );
  }

  /** Holds every queued request of the base until `ms` from now (a 429's penalty); extends a shorter pause. */
  pauseFor(ms: number): number {
    const until = Date.now() + ms;
    if (this.#pausedUntil !== undefined && this.#pausedUntil >= until) return this.#pausedUntil;
    this.#pausedUntil = until;
    this.#holdUntil(until);
    return until;
  }

  /** Starts nothing before `until`; a later hold (a 429's pause, a cold start's) extends an earlier one. */
  #holdUntil(until: number): void {
    if (until <= this.#heldUntil) return;
    this.#heldUntil = until;
    this.#queue.pause();
    clearTimeout(this.#resumeTimer);
    this.#resumeTimer = setTimeout(
      () => {
        this.#pausedUntil = undefined;
        this.#resumeTimer = undefined;
        this.#queue.start();
      },
      Math.max(0, until - Date.now()),
    );
  }

  stats(): SchedulerStats {
    const now = Date.now();
    while (this.#starts.length > 0 && now - (this.#starts[0] ?? now) >= 1000) this.#starts.shift();
    return {
      queued: this.#queue.size,
      inFlight: this.#queue.pending,
      ratePerSecond: this.#starts.length,
      ...(this.#pausedUntil === undefined ? {} : { pausedUntil: this.#pausedUntil }),
    };
  }

  #noteStart(): void {
    const now = Date.now();
    // A start after a quiet second is cold: its request reaches the service late (a new connection, a process's
    // first fetch, a cold server), so the next one, sent on time, would arrive closer to it than the spacing
    // and five more could land inside one second of the service's clock. Measured on this machine's local
    // server with spacing 205 ms: a process's first request answered up to 150 ms late, and 429s in 5 of 6
    // cold runs; holding the second start back by COLD_START_EXTRA_MS removed them.
    if (now - this.#lastStart >= QUIET_MS) this.#holdUntil(now + this.#spacingMs + COLD_START_EXTRA_MS);
    this.#lastStart = now;
    this.#starts.push(now);
    if (this.#starts.length > 64) this.#starts.splice(0, this.#starts.length - 64);
  }
}

/**
 * The throttles of one app, one per base id. The service limits a base whichever key or address calls it, so
 * clients of two connections to the same base (two keys, or one through a proxy and one straight) must share
 * it: give them the same registry. Base ids are random and unique to their service; two services that did
 * share one would only pace each other more than needed. Account-level calls (no base id) are throttled per
 * service address. The first client to use a base sets its spacing.
 */
export class SchedulerRegistry {
  readonly #schedulers = new Map<string, BaseScheduler>();

  get(baseUrl: string, baseId: string, spacingMs: number): BaseScheduler {
    const key = baseId === '' ? `account ${baseUrl}` : baseId;
    let s = this.#schedulers.get(key);
    if (!s) {
      s = new BaseScheduler(spacingMs);
      this.#schedulers.set(key, s);
    }
    return s;
  }
}
