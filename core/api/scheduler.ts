import PQueue from 'p-queue';
import type { Priority } from './options';

export interface SchedulerStats {
  queued: number;
  inFlight: number;
  /** Requests started during the last second. */
  ratePerSecond: number;
  /** Epoch ms until which a 429 paused the base. */
  pausedUntil?: number;
  /** The base's recent round trip (start to answer), a moving average; absent before the first answer. */
  roundTripMs?: number;
}

/** The pace of one base: its spacing of starts and its measured round trip (absent before the first answer). */
export interface BasePace {
  spacingMs: number;
  roundTripMs?: number;
}

/**
 * Weight of the newest round trip in the moving average: a change of latency is three quarters followed
 * after five answers (a second at 5 requests/s), while one slow answer (the hosted p95, 1.1 s against a 0.6 s
 * mean) moves it by an eighth of a second, about one chain of a walk.
 */
const ROUND_TRIP_WEIGHT = 0.25;

/**
 * A token's starts are this much further apart than 1000 / limit: arrivals trail starts by a varying delay
 * (the base throttle's 5 ms over 200 ms, for the same reason).
 */
const TOKEN_SPACING_MARGIN = 1.025;

/** No start for this long and the next start is cold (see #noteStart). */
const QUIET_MS = 1000;
export const COLD_START_EXTRA_MS = 150;

const PRIORITY: Record<Priority, number> = { background: 0, visible: 5, interactive: 10 };

/** How often the event loop is looked at while a throttle has requests waiting or out. */
const LOOK_MS = 50;
/** A look this much later than due means the loop was held: a busy machine, a long synchronous task. */
export const LOOP_STALL_MS = 40;

/**
 * Watches the event loop while any throttle is busy. A request started before a stall may be written only
 * when the loop runs again (fetch writes on a later turn), or be read late by a server sharing the process,
 * so it reaches the service bunched against the starts that follow, which the throttle spaced from its start:
 * one 429 at load average 10, starts 205 ms apart (issue 26). So a busy throttle is told when a stall ends
 * and spaces its next start from then, as if that request had started there. A free loop costs nothing, and
 * a throttle at the hosted latency (answers slow, loop idle) is not slowed.
 */
class LoopWatch {
  readonly #listeners = new Set<(endedAt: number) => void>();
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** Calls `listener` at the end of each stall from now on; returns the call that stops it. */
  watch(listener: (endedAt: number) => void): () => void {
    this.#listeners.add(listener);
    if (this.#timer === undefined) this.#look();
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size > 0) return;
      clearTimeout(this.#timer);
      this.#timer = undefined;
    };
  }

  #look(): void {
    const due = Date.now() + LOOK_MS;
    this.#timer = setTimeout(() => {
      const now = Date.now();
      if (now - due >= LOOP_STALL_MS) for (const l of [...this.#listeners]) l(now);
      if (this.#listeners.size > 0) this.#look();
      else this.#timer = undefined;
    }, LOOK_MS);
    // Never what keeps a process alive: a throttle's own timers and requests do that while it is busy.
    (this.#timer as { unref?: () => void }).unref?.();
  }
}

const loopWatch = new LoopWatch();

/**
 * Queue priority: interactive, then visible, then background; within each, a re-queued request goes before new
 * ones.
 */
export function queuePriority(priority: Priority, retry: boolean): number {
  return PRIORITY[priority] + (retry ? 1 : 0);
}

/**
 * The service's second limit: 50 requests per second across all traffic of one token, whatever base each goes
 * to (airtable-wire.md §5). Every base throttle that carries the token's requests takes a start from here just
 * before its request goes out, and starts are spaced evenly, as a base's are (a window that let 50 go at once
 * would meet a service counting whole seconds with bursts). When the next start is not due yet the request
 * waits: interactive before background, first come first served within each. Like a base's throttle, the gate
 * spaces its next start from the end of an event-loop stall that followed a start (see LoopWatch): starts of
 * many bases taken just before a stall would otherwise reach the service bunched with those after it.
 */
export class TokenGate {
  readonly #spacingMs: number;
  readonly #waiting: { priority: number; admit: () => void }[] = [];
  #lastStart = -Infinity;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Stops watching the event loop; set from a start until a quiet second with nobody waiting. */
  #unwatch: (() => void) | undefined;
  #quietTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(spacingMs: number) {
    this.#spacingMs = spacingMs;
  }

  /** Takes a start now if one is due (and nobody waits before it); false otherwise. */
  tryTake(): boolean {
    const now = Date.now();
    if (this.#waiting.length > 0 || now < this.#lastStart + this.#spacingMs) return false;
    this.#started(now);
    return true;
  }

  #started(now: number): void {
    this.#lastStart = now;
    this.#unwatch ??= loopWatch.watch((endedAt) => this.#afterStall(endedAt));
    clearTimeout(this.#quietTimer);
    this.#quietTimer = setTimeout(() => this.#quiet(), QUIET_MS);
    (this.#quietTimer as { unref?: () => void }).unref?.();
  }

  /** A second after the last start with nobody waiting, a stall can bunch nothing: the loop is no longer watched. */
  #quiet(): void {
    this.#quietTimer = undefined;
    if (this.#waiting.length > 0) return;
    this.#unwatch?.();
    this.#unwatch = undefined;
  }

  /** The loop was held until `endedAt`: the start before it may reach the service only now (see LoopWatch). */
  #afterStall(endedAt: number): void {
    if (endedAt - this.#lastStart < QUIET_MS) this.#lastStart = Math.max(this.#lastStart, endedAt);
  }

  /** A start, once one is due; a signal aborted meanwhile rejects and gives its turn up. */
  take(priority: number, signal?: AbortSignal): Promise<void> {
    if (this.tryTake()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const entry = {
        priority,
        admit: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        const at = this.#waiting.indexOf(entry);
        if (at !== -1) this.#waiting.splice(at, 1);
        reject(signal?.reason as Error);
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      // After every waiter of the same or a higher priority: first come, first served within a priority.
      let at = this.#waiting.findIndex((w) => w.priority < priority);
      if (at === -1) at = this.#waiting.length;
      this.#waiting.splice(at, 0, entry);
      if (this.#timer === undefined) this.#timer = setTimeout(() => this.#wake(), this.#dueIn());
    });
  }

  #dueIn(): number {
    return Math.max(0, this.#lastStart + this.#spacingMs - Date.now());
  }

  /** Admits the first waiter once its start is due, then sleeps until the next one is. */
  #wake(): void {
    this.#timer = undefined;
    if (this.#dueIn() === 0) {
      this.#started(Date.now());
      this.#waiting.shift()?.admit();
    }
    if (this.#waiting.length > 0) this.#timer = setTimeout(() => this.#wake(), this.#dueIn());
  }
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
  #roundTripMs: number | undefined;
  #pausedUntil: number | undefined;
  #heldUntil = 0;
  #resumeTimer: ReturnType<typeof setTimeout> | undefined;
  /** A start of this base waits for its token's gate: nothing else of the base may start meanwhile. */
  #atGate = false;
  /** Stops watching the event loop; set while the base has requests waiting or out. */
  #unwatch: (() => void) | undefined;

  constructor(spacingMs: number) {
    this.#spacingMs = spacingMs;
    this.#queue = new PQueue({ intervalCap: 1, interval: spacingMs, strict: true });
    this.#queue.on('idle', () => {
      this.#unwatch?.();
      this.#unwatch = undefined;
    });
  }

  /**
   * Runs `task` when its turn comes. A signal aborted while queued removes it and it never goes out; once
   * started, the task itself answers the signal (p-queue would reject at once, before the task can tell
   * whether a request that may have reached the service was cancelled).
   *
   * `gate`, the token's limit across bases, is passed per request: two keys may reach one base.
   */
  run<T>(task: () => Promise<T>, priority: number, signal?: AbortSignal, gate?: TokenGate): Promise<T> {
    this.#unwatch ??= loopWatch.watch((endedAt) => this.#afterStall(endedAt));
    const whileQueued = new AbortController();
    const abort = () => whileQueued.abort(signal?.reason);
    if (signal?.aborted) abort();
    else signal?.addEventListener('abort', abort, { once: true });
    return this.#queue.add(
      async () => {
        signal?.removeEventListener('abort', abort);
        if (gate !== undefined && !gate.tryTake()) await this.#throughGate(gate, priority, signal);
        this.#noteStart();
        return task();
      },
      { priority, signal: whileQueued.signal },
    );
  }

  /**
   * Waits for the token's gate with the base held: the base's next start keeps its spacing from this one's
   * real start, not from the moment p-queue let it leave the queue (otherwise two of one base could go out
   * back to back once the gate opens).
   */
  async #throughGate(gate: TokenGate, priority: number, signal: AbortSignal | undefined): Promise<void> {
    this.#atGate = true;
    this.#queue.pause();
    try {
      await gate.take(priority, signal);
    } finally {
      this.#atGate = false;
      this.#holdUntil(Date.now() + this.#spacingMs, true);
    }
  }

  /** Holds every queued request of the base until `ms` from now (a 429's penalty); extends a shorter pause. */
  pauseFor(ms: number): number {
    const until = Date.now() + ms;
    if (this.#pausedUntil !== undefined && this.#pausedUntil >= until) return this.#pausedUntil;
    this.#pausedUntil = until;
    this.#holdUntil(until);
    return until;
  }

  /**
   * Starts nothing before `until`; a later hold (a 429's pause, a cold start's) extends an earlier one.
   * `restart`: the queue was paused by something else (the gate) and must start again even if an earlier
   * hold already ran out.
   */
  #holdUntil(until: number, restart = false): void {
    if (until <= this.#heldUntil) {
      if (restart && this.#resumeTimer === undefined) this.#queue.start();
      return;
    }
    this.#heldUntil = until;
    this.#queue.pause();
    clearTimeout(this.#resumeTimer);
    this.#resumeTimer = setTimeout(() => this.#resume(), Math.max(0, until - Date.now()));
  }

  /**
   * Ends the hold once Date.now() reaches it. Timers run on the monotonic clock in whole milliseconds, which
   * disagrees with Date.now() by up to a millisecond, so a timer set for the hold can fire just before its end:
   * it then waits the rest rather than start early.
   */
  #resume(): void {
    const left = this.#heldUntil - Date.now();
    if (left > 0) {
      this.#resumeTimer = setTimeout(() => this.#resume(), left);
      return;
    }
    this.#pausedUntil = undefined;
    this.#resumeTimer = undefined;
    // A start waiting at the gate restarts the queue itself when it gets through.
    if (!this.#atGate) this.#queue.start();
  }

  /**
   * The event loop was held until `endedAt`: a request started within the last second may reach the service
   * only now, so the next start keeps the spacing from here (see LoopWatch).
   */
  #afterStall(endedAt: number): void {
    if (endedAt - this.#lastStart < 1000) this.#holdUntil(endedAt + this.#spacingMs);
  }

  /** An answer came `ms` after its request started (the requester tells: only it sees the answer). */
  noteRoundTrip(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) return;
    this.#roundTripMs =
      this.#roundTripMs === undefined ? ms : this.#roundTripMs + ROUND_TRIP_WEIGHT * (ms - this.#roundTripMs);
  }

  pace(): BasePace {
    return {
      spacingMs: this.#spacingMs,
      ...(this.#roundTripMs === undefined ? {} : { roundTripMs: this.#roundTripMs }),
    };
  }

  stats(): SchedulerStats {
    const now = Date.now();
    while (this.#starts.length > 0 && now - (this.#starts[0] ?? now) >= 1000) this.#starts.shift();
    return {
      queued: this.#queue.size,
      inFlight: this.#queue.pending,
      ratePerSecond: this.#starts.length,
      ...(this.#pausedUntil === undefined ? {} : { pausedUntil: this.#pausedUntil }),
      ...(this.#roundTripMs === undefined ? {} : { roundTripMs: Math.round(this.#roundTripMs) }),
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
  readonly #gates = new Map<string, TokenGate>();

  /**
   * The gate of one token at one service address, at `perSecond` (the first client of the token sets it).
   * Keyed by the key itself: the service counts a token's owner, whom the client cannot see, so two keys of
   * one person are paced apart (each within the limit).
   */
  gate(baseUrl: string, apiKey: string, perSecond: number): TokenGate {
    const key = `${baseUrl}\u0000${apiKey}`;
    let g = this.#gates.get(key);
    if (!g) {
      g = new TokenGate((1000 / perSecond) * TOKEN_SPACING_MARGIN);
      this.#gates.set(key, g);
    }
    return g;
  }

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
