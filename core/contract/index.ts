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
 * `channels` and `events` in `registry.ts`. Services bind handlers through `services/dispatch` (a map channel →
 * handler; `services/app.ts` merges every area's handlers). docs/DEVELOPING.md walks through adding a channel.
 */
export * from './registry';
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
