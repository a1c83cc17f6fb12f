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

const PRIORITY: Record<Priority, number> = { background: 0, interactive: 10 };

/** Queue priority: interactive before background; within each, a re-queued request goes before new ones. */
export function queuePriority(priority: Priority, retry: boolean): number {
  return PRIORITY[priority] + (retry ? 1 : 0);
}

/** Starts closer than this to the previous one are part of a burst; idle longer, connections may close. */
const IDLE_MS = 1000;

/**
 * The throttle of one base. p-queue's default fixed windows do not space starts: with `interval: 1000,
 * intervalCap: 5` five requests can start in the same millisecond, and even `intervalCap: 1, interval: 200`
 * lets two starts straddle a window boundary closer than 200 ms. Strict mode (a sliding window of recorded
 * start times) with a cap of 1 guarantees that any two starts are at least `spacingMs` apart by Date.now,
 * while unlimited concurrency lets the requests overlap in flight.
 *
 * The service counts arrivals, which trail starts. A request on a connection already open arrives within a
 * few ms of its start, but one that needs a new connection trails more: up to 100 ms for the first of a burst
 * (a fresh process, connections opened again after an idle second), and up to 58 ms for one that starts
 * while more requests are in flight than before in the burst (the connection pool grows). Either would come
 * closer to the fifth start after it than the service allows, so the start that follows such a cold one
 * waits `coldSpacingMs` instead: only those gaps are longer, not every gap.
 */
export class BaseScheduler {
  readonly #queue: PQueue;
  readonly #starts: number[] = [];
  readonly #coldSpacingMs: number;
  #lastStart: number | undefined;
  /** The most requests in flight at once since the burst began: about as many connections are open. */
  #burstInFlight = 0;
  /** A 429's penalty: until then nothing starts. */
  #pausedUntil: number | undefined;
  /** The queue is held (a penalty or the gap after a cold start) until then. */
  #heldUntil = 0;
  #resumeTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(spacingMs: number, coldSpacingMs = spacingMs) {
    this.#queue = new PQueue({ intervalCap: 1, interval: spacingMs, strict: true });
    this.#coldSpacingMs = coldSpacingMs;
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

  stats(): SchedulerStats {
    const now = Date.now();
    while (this.#starts.length > 0 && now - (this.#starts[0] ?? now) >= 1000) this.#starts.shift();
    return {
      queued: this.#queue.size,
      inFlight: this.#queue.pending,
      ratePerSecond: this.#starts.length,
      ...(this.#pausedUntil === undefined || this.#pausedUntil <= now
        ? {}
        : { pausedUntil: this.#pausedUntil }),
    };
  }

  #noteStart(): void {
    const now = Date.now();
    if (this.#lastStart === undefined || now - this.#lastStart >= IDLE_MS) this.#burstInFlight = 0;
    // p-queue counts this request as in flight already.
    const inFlight = this.#queue.pending;
    const cold = inFlight > this.#burstInFlight;
    this.#burstInFlight = Math.max(this.#burstInFlight, inFlight);
    this.#lastStart = now;
    if (cold) this.#holdUntil(now + this.#coldSpacingMs);
    this.#starts.push(now);
    if (this.#starts.length > 64) this.#starts.splice(0, this.#starts.length - 64);
  }

  /** Starts nothing before `until`; a longer hold already running stands. */
  #holdUntil(until: number): void {
    if (until <= this.#heldUntil) return;
    this.#heldUntil = until;
    this.#queue.pause();
    clearTimeout(this.#resumeTimer);
    this.#resumeTimer = setTimeout(() => {
      this.#heldUntil = 0;
      this.#pausedUntil = undefined;
      this.#resumeTimer = undefined;
      this.#queue.start();
    }, until - Date.now());
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

  get(baseUrl: string, baseId: string, spacingMs: number, coldSpacingMs = spacingMs): BaseScheduler {
    const key = baseId === '' ? `account ${baseUrl}` : baseId;
    let s = this.#schedulers.get(key);
    if (!s) {
      s = new BaseScheduler(spacingMs, coldSpacingMs);
      this.#schedulers.set(key, s);
    }
    return s;
  }
}
