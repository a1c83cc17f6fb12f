/**
 * `client.status` events for one connection: the client's queue figures, sent at most every 250 ms while
 * requests come and go (a page walk makes several client events per request), plus the last error.
 */
import type { EventPayload } from '../../core/contract';

const EVERY_MS = 250;

export interface StatsSource {
  stats(): { queued: number; inFlight: number; ratePerSecond: number; pausedUntil?: number };
}

export class ClientStatus {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastError: string | undefined;
  source: StatsSource | undefined;

  constructor(
    private readonly connectionId: string,
    private readonly emit: (status: EventPayload<'client.status'>) => void,
  ) {}

  noteError(message: string): void {
    this.lastError = message;
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
    if (this.lastError !== undefined) status.lastError = this.lastError;
    this.emit(status);
    // Keep reporting while work remains, so the bar counts down to idle.
    if (s.queued > 0 || s.inFlight > 0) this.changed();
  }
}
