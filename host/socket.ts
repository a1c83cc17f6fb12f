/** The contract over one WebSocket: call frames in, result frames out, and every service event. */
import type { WebSocket } from 'ws';
import { callFrameSchema } from '../core/contract';
import type { ServerFrame } from '../core/contract';
import type { Dispatch } from '../services/dispatch';
import type { EventHub } from '../services/events';

export function serveSocket(socket: WebSocket, dispatch: Dispatch, events: EventHub): void {
  const send = (frame: ServerFrame): void => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
  };
  const unsubscribe = events.subscribe((event, payload) => send({ t: 'event', event, payload }));
  socket.on('close', unsubscribe);
  socket.on('message', (data, isBinary) => {
    let json: unknown;
    try {
      json = isBinary ? undefined : JSON.parse(data.toString());
    } catch {
      json = undefined;
    }
    const frame = callFrameSchema.safeParse(json);
    if (!frame.success) {
      socket.close(1008, 'Malformed frame');
      return;
    }
    const { id, channel, request } = frame.data;
    void dispatch(channel, request).then((result) => send({ t: 'result', id, result }));
  });
}
