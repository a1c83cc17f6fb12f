/**
 * `client.status` events for one connection: the client's queue figures, sent at most every 250 ms while
 * requests come and go (a page walk makes several client events per request), plus the last error, which
 * clears once a request of the same kind (method and path) succeeds again.
 */
import type { ClientEvent } from '../../core/api';
import type { EventPayload } from '../../core/contract';

const EVERY_MS = 250;

export interface StatsSource {
  stats(): { queued: number; inFlight: number; ratePerSecond: number; pausedUntil?: number };
}

export class ClientStatus {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastError: { message: string; kind: string | undefined } | undefined;
  /** The kind of the request whose attempt failed last: the error noted next is about it. */
  private failedKind: string | undefined;
  source: StatsSource | undefined;

  constructor(
    private readonly connectionId: string,
    private readonly emit: (status: EventPayload<'client.status'>) => void,
  ) {}

  noteError(message: string): void {
    this.lastError = { message, kind: this.failedKind };
    this.changed();
  }

  /** Follows the client's requests: which kind failed, and whether the failed kind now succeeds. */
  observe(e: ClientEvent): void {
    if (e.type === 'finished') {
      const kind = `${e.method} ${e.path}`;
      const failed = e.errorKind !== undefined || (e.status !== undefined && e.status >= 400);
      if (failed) this.failedKind = kind;
      else if (this.lastError?.kind === kind) this.lastError = undefined;
    }
    this.changed();
  }

  changed(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.send();
    }, EVERY_MS);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private send(): void {
    if (this.source === undefined) return;
    const s = this.source.stats();
    const status: EventPayload<'client.status'> = {
      connectionId: this.connectionId,
      queued: s.queued,
      inFlight: s.inFlight,
      ratePerSecond: s.ratePerSecond,
    };
    if (s.pausedUntil !== undefined) status.pausedUntil = s.pausedUntil;
    if (this.lastError !== undefined) status.lastError = this.lastError.message;
    this.emit(status);
    // Keep reporting while work remains, so the bar counts down to idle.
    if (s.queued > 0 || s.inFlight > 0) this.changed();
  }
}
