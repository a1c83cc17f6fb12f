/**
 * Binds the contract's channels to the services, for both doors: every request is validated against its
 * channel's schema before a handler sees it, every failure becomes a ChannelError result, and every result
 * passes `redact` (services/secrets) on its way out, so no answer or error carries an API key.
 */
import { channels, isChannelName } from '../core/contract';
import type { CallResult, ChannelName, ParsedRequest, Response } from '../core/contract';
import { toChannelError } from './errors';

export type Handlers = {
  [C in ChannelName]: (request: ParsedRequest<C>) => Promise<Response<C>>;
};

export type Dispatch = (channel: unknown, request: unknown) => Promise<CallResult>;

export function createDispatcher(handlers: Handlers, redact: <T>(value: T) => T = (v) => v): Dispatch {
  const answer = createAnswer(handlers);
  return async (channel, request) => redact(await answer(channel, request));
}

function createAnswer(handlers: Handlers): Dispatch {
  return async (channel, request) => {
    if (typeof channel !== 'string' || !isChannelName(channel)) {
      return {
        ok: false,
        error: { kind: 'invalid-request', message: `Unknown channel ${String(channel)}.` },
      };
    }
    const parsed = channels[channel].request.safeParse(request ?? {});
    if (!parsed.success) {
      const message = parsed.error.issues
        .map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message))
        .join('; ');
      return { ok: false, error: { kind: 'invalid-request', message } };
    }
    try {
      const handler = handlers[channel] as (r: unknown) => Promise<unknown>;
      return { ok: true, response: await handler(parsed.data) };
    } catch (error) {
      return { ok: false, error: toChannelError(error) };
    }
  };
}
