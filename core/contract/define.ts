/** How a channel or an event is declared, and the types derived from a set of them. */
import type { z } from 'zod';

export interface ChannelDef<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  request: Req;
  response: Res;
}

export const channel = <Req extends z.ZodType, Res extends z.ZodType>(
  request: Req,
  response: Res,
): ChannelDef<Req, Res> => ({ request, response });

export type ChannelSet = Record<string, ChannelDef>;
export type EventSet = Record<string, z.ZodType>;

/** What the renderer passes (defaults may be left out). */
export type RequestIn<S extends ChannelSet, C extends keyof S> = z.input<S[C]['request']>;
/** What a handler receives after validation (defaults filled in). */
export type RequestOut<S extends ChannelSet, C extends keyof S> = z.output<S[C]['request']>;
export type ResponseOf<S extends ChannelSet, C extends keyof S> = z.output<S[C]['response']>;
export type PayloadOf<E extends EventSet, K extends keyof E> = z.output<E[K]>;
