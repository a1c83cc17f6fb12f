/** The Record Table client: throttled, batched, paged and safe to retry. Runs in Node and in browsers. */
export { RecordTableClient, DEFAULT_REQUESTS_PER_SECOND } from './client';
export type { ClientOptions } from './client';
export { RecordTableError } from './errors';
export type { ErrorKind } from './errors';
export type { ClientEvent, ClientEventListener } from './events';
export { PURPOSES } from './options';
export { isQuotaRefusal } from './errors';
export type { OutgoingRequest } from './requester';
export type {
  Purpose,
  CellFormatOptions,
  CountOptions,
  GetOptions,
  ListOptions,
  ListPageOptions,
  Priority,
  RequestOptions,
  WriteOptions,
} from './options';
export type { BaseDetails, MetaClient, NewBase, NewField, NewTable, CreatedBase, WhoAmI } from './meta';
export { encodeSegment, listQuery, listBody, MAX_URL_LENGTH, toSortSpec } from './query';
export { SchedulerRegistry } from './scheduler';
export type { SchedulerStats } from './scheduler';
export type { DeletedRecord, SeekResult } from './responses';
export { COUNT_EXTENSION, SEEK_EXTENSION, countPath, seekPath } from './extensions';
export type {
  CommentAuthor,
  CommentPage,
  CommentPageOptions,
  CommentsClient,
  RecordComment,
} from './comments';
export type { PayloadPage, TableChanges, WebhooksClient } from './webhooks';
export { isExpiredOffset } from './table';
export { MAX_IDS_PER_REQUEST, MAX_ID_FORMULA_LENGTH, idFormula } from './by-ids';
export type { RecordsByIdsOptions } from './by-ids';
export type {
  Fields,
  ListPage,
  RecordUpdate,
  TableClient,
  UpsertOptions,
  UpsertRecord,
  UpsertResult,
} from './table';
export { backoffMs } from './requester';
export { uploadOrigin } from './upload';
export type { UploadFile, UploadOptions } from './upload';
