/**
 * The contract over one WebSocket: call frames in, result frames out, and every service event. A frame that is
 * not a call (binary, not JSON, another shape) closes this socket with 1008; one over the door's frame limit
 * is refused by ws, which closes this socket with 1009. Neither touches another socket or the door.
 */
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
  // ws has already closed this socket with 1009 (too big) or 1002 (not WebSocket) when it reports an error;
  // without a listener the error would be thrown and end the process.
  socket.on('error', () => undefined);
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
    void dispatch(channel, request).then(
      (result) => send({ t: 'result', id, result }),
      () =>
        send({
          t: 'result',
          id,
          result: { ok: false, error: { kind: 'internal', message: 'The call failed.' } },
        }),
    );
  });
}
