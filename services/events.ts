/** Events from the services to every open renderer (one hub; each door subscribes and forwards). */
import type { EventName, EventPayload } from '../core/contract';

export type EventSink = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

export class EventHub {
  private readonly sinks = new Set<EventSink>();

  readonly emit: EventSink = (event, payload) => {
    for (const sink of this.sinks) sink(event, payload);
  };

  subscribe(sink: EventSink): () => void {
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }
}
