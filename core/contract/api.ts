/** The one shape of `window.tabledesk`, whichever door the renderer came through. */
import type { ChannelName, EventName, EventPayload, Request, Response } from './registry';

export interface TableDeskApi {
  /** Rejects with a ChannelError (`{ kind, status?, type?, message }`). */
  call<C extends ChannelName>(channel: C, request: Request<C>): Promise<Response<C>>;
  /** Returns the unsubscribe function. */
  on<E extends EventName>(event: E, handler: (payload: EventPayload<E>) => void): () => void;
}
