/** Events from the services to every open renderer (one hub; each door subscribes and forwards). */
import type { EventName, EventPayload } from '../core/contract';

export type EventSink = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

export class EventHub {
  private readonly sinks = new Set<EventSink>();

  /** `redact` (services/secrets) runs on every payload, so no event carries an API key to a renderer. */
  constructor(private readonly redact: <T>(value: T) => T = (v) => v) {}

  readonly emit: EventSink = (event, payload) => {
    const safe = this.redact(payload);
    for (const sink of this.sinks) sink(event, safe);
  };

  subscribe(sink: EventSink): () => void {
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }
}
