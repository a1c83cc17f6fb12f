/**
 * The contract between the renderer and the services: every channel's request/response schema and every
 * event's payload schema (zod), and the shape of `window.tabledesk`, the same through both doors.
 *
 * Renderer:
 * - `import type { TableDeskApi } from '../../core/contract'` and `import '../../core/contract/window'` for the
 *   global `window.tabledesk` type.
 * - Browser door: when `window.tabledesk` is absent (Electron's preload defines it), create it with
 *   `connectSocketBridge(new WebSocket(url, protocols))`, both from `socketAddressFor(location.href)` in
 *   `core/contract/socket-bridge`. The page URL carries `?token=…`; the socket gets it as a subprotocol.
 * - A failed call rejects with a `ChannelError` `{ kind, status?, type?, message }`.
 *
 * Each area's file (`edits.ts`, `links.ts`, `mirror.ts`, …) exports its `…Channels` and `…Events`, spread into
 * `channels` and `events` below. Services bind handlers through `services/dispatch` (a map channel →
 * handler; `services/app.ts` merges every area's handlers). docs/DEVELOPING.md walks through adding a channel.
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

export type { TableDeskApi } from './api';
export { channel } from './define';
export type { ChannelDef } from './define';
export * from './schemas';
export { viewQuerySchema } from './channels';
export type { ViewQuery } from './channels';
export * from './wire';
export { MAX_COMMENT_LENGTH, commentSchema } from './comments';
export type { Comment } from './comments';
export { MAX_AUTO_SYNC_MINUTES } from './mirror';
export { PLANS } from './budget';
export type { BudgetAsk, BudgetStatus, Plan } from './budget';
export type { MirrorConflictInfo, MirrorInfo, MirrorResolutionInfo } from './mirror';
