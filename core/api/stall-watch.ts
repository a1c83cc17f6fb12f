/**
 * A transfer bounded by its progress, not by its total time: it is aborted when a window passes in which less
 * than its floor arrived (no answer yet, nothing at all, or a trickle). A slow honest file goes on for as long
 * as it moves, where a total timeout failed it; a stalled or dripping one ends within a window, where a total
 * timeout held it for the whole of it. With the size limit of its reader, every read is bounded.
 */
export interface StallLimits {
  /** The window progress is measured over. */
  windowMs: number;
  /** The bytes that must arrive in each window once the answer has begun (the headers count as a window's). */
  minBytes: number;
}

export class StallWatch {
  readonly #controller = new AbortController();
  readonly #unlink: () => void;
  #bytes = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stalled: Error | undefined;

  /**
   * Watches from now: the first window must bring the answer's headers (`answered`). `stalled` makes the
   * error a stall ends the transfer with; a `parent` aborting aborts the signal too, with the parent's reason.
   */
  constructor(
    readonly limits: StallLimits,
    private readonly stalled: () => Error,
    parent?: AbortSignal,
  ) {
    const onParent = () => this.#controller.abort(parent?.reason);
    if (parent?.aborted) onParent();
    else parent?.addEventListener('abort', onParent, { once: true });
    this.#unlink = () => parent?.removeEventListener('abort', onParent);
    this.#arm();
  }

  /** Aborted on a stall or by the parent: hand it to the request. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The answer's headers arrived: a window's worth of progress. */
  answered(): void {
    this.#bytes = Math.max(this.#bytes, this.limits.minBytes);
  }

  /** `n` more bytes of the body arrived. */
  moved(n: number): void {
    this.#bytes += n;
  }

  /**
   * The whole request body was handed to the connection: nothing more can be seen to move before the answer,
   * so the window under way is `extraMs` longer (what the connection's buffers still hold drains meanwhile).
   */
  handedOver(extraMs: number): void {
    if (this.#stalled) return;
    clearTimeout(this.#timer);
    this.#bytes = 0;
    this.#arm(this.limits.windowMs + extraMs);
  }

  /** The transfer ended, whole or not: no more windows. */
  stop(): void {
    clearTimeout(this.#timer);
    this.#unlink();
  }

  /** What a failure of the watched transfer is: the stall's error if it stalled (the request only says "aborted"). */
  error(e: unknown): unknown {
    return this.#stalled ?? e;
  }

  /** True once a window passed with too little. */
  get hasStalled(): boolean {
    return this.#stalled !== undefined;
  }

  #arm(ms = this.limits.windowMs): void {
    // Judged after the I/O already waiting is read: a thread that was busy (or a machine under load) has bytes
    // that arrived in time still unread when the timer comes due, and that is no stall of the transfer.
    this.#timer = setTimeout(() => (this.#timer = setTimeout(() => this.#judge(), 0)), ms);
  }

  #judge(): void {
    if (this.#bytes < this.limits.minBytes) {
      this.#unlink();
      this.#stalled = this.stalled();
      this.#controller.abort(this.#stalled);
      return;
    }
    this.#bytes = 0;
    this.#arm();
  }
}
