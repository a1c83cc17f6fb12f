/**
 * The frames both doors carry: a call with its id, its result (a response or a ChannelError), and events.
 * Electron's IPC carries the same result envelope, so errors cross it intact instead of being rewrapped.
 */
import { z } from 'zod';
import { channelErrorSchema } from './schemas';

export const callFrameSchema = z.object({
  t: z.literal('call'),
  id: z.number().int().nonnegative(),
  channel: z.string().max(100),
  request: z.unknown(),
});
export type CallFrame = z.infer<typeof callFrameSchema>;

export const resultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), response: z.unknown() }),
  z.object({ ok: z.literal(false), error: channelErrorSchema }),
]);
export type CallResult = z.infer<typeof resultSchema>;

export const serverFrameSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('result'), id: z.number().int(), result: resultSchema }),
  z.object({ t: z.literal('event'), event: z.string(), payload: z.unknown() }),
]);
export type ServerFrame = z.infer<typeof serverFrameSchema>;

export { IPC_CALL, IPC_EVENT, SOCKET_PATH } from './names';
