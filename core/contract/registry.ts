/**
 * Every channel and event of the contract in one map each, and the types a call is checked against. The area
 * files are spread in here; files of this folder import it directly, everyone else through `index.ts`.
 */
import type { ChannelSet, EventSet, PayloadOf, RequestIn, RequestOut, ResponseOf } from './define';
import { aggregateChannels } from './aggregate';
import { appChannels, appEvents } from './channels';
import { commentChannels } from './comments';
import { editChannels, editEvents } from './edits';
import { replaceChannels, replaceEvents } from './replace';
import { walkChannels } from './view-walk';
import { findChannels } from './find';
import { attachmentChannels, attachmentEvents } from './attachments';
import { importChannels, importEvents } from './imports';
import { linkChannels, linkEvents } from './links';
import { mirrorChannels, mirrorEvents } from './mirror';
import { budgetChannels, budgetEvents } from './budget';
import { liveChannels, liveEvents } from './live';

export const channels = {
  ...appChannels,
  ...editChannels,
  ...commentChannels,
  ...walkChannels,
  ...findChannels,
  ...attachmentChannels,
  ...linkChannels,
  ...aggregateChannels,
  ...importChannels,
  ...replaceChannels,
  ...mirrorChannels,
  ...budgetChannels,
  ...liveChannels,
} satisfies ChannelSet;
export const events = {
  ...appEvents,
  ...editEvents,
  ...attachmentEvents,
  ...linkEvents,
  ...importEvents,
  ...replaceEvents,
  ...mirrorEvents,
  ...budgetEvents,
  ...liveEvents,
} satisfies EventSet;

export type Channels = typeof channels;
export type Events = typeof events;
export type ChannelName = keyof Channels & string;
export type EventName = keyof Events & string;
export type Request<C extends ChannelName> = RequestIn<Channels, C>;
export type ParsedRequest<C extends ChannelName> = RequestOut<Channels, C>;
export type Response<C extends ChannelName> = ResponseOf<Channels, C>;
export type EventPayload<E extends EventName> = PayloadOf<Events, E>;

export const isChannelName = (name: string): name is ChannelName => Object.hasOwn(channels, name);
