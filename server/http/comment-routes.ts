/**
 * Airtable's comments on a record: list (newest first, paged by `offset`), create, and edit or delete one's
 * own. The author is the user of the request's key; another user's comment is refused with 403.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ServiceError, invalidRequest, recordNotFound } from '../errors';
import type { Service } from '../service';
import type { Comment } from '../store/comments';
import type { User } from '../users';
import { resolveTable } from './record-routes';
import { count } from './schemas';

type RecordParams = { baseId: string; table: string; recordId: string };
type CommentParams = RecordParams & { rowCommentId: string };

/** Longest comment text, in UTF-16 units (a comment is a message, not a document). */
export const MAX_COMMENT_LENGTH = 10_000;

const listQuery = z.looseObject({ pageSize: count.optional(), offset: z.string().optional() });
const createBody = z.looseObject({ text: z.string(), parentCommentId: z.string().optional() });
const updateBody = z.looseObject({ text: z.string() });

// Tab, line feed and carriage return are text; any other control character (NUL first) is not.
const CONTROL = /[^\P{Cc}\t\n\r]/u;

function checkText(text: string): string {
  if (text.trim() === '') throw invalidRequest('Comment text cannot be empty');
  if (text.length > MAX_COMMENT_LENGTH)
    throw invalidRequest(
      `Comment text cannot be longer than ${MAX_COMMENT_LENGTH.toLocaleString('en-US')} characters`,
    );
  if (CONTROL.test(text)) throw invalidRequest('Comment text cannot contain control characters');
  return text;
}

/** An offset is the creation position a page ended at (see CommentStore.page). */
function parseOffset(offset: string | undefined): number | undefined {
  if (offset === undefined || offset === '') return undefined;
  if (!/^[1-9]\d{0,14}$/.test(offset)) throw invalidRequest('The offset is not valid');
  return Number(offset);
}

const commentNotFound = () => new ServiceError(404, 'MODEL_ID_NOT_FOUND', 'Comment not found');
const notPermitted = () =>
  new ServiceError(403, 'INVALID_PERMISSIONS', 'You are not permitted to perform this operation');

export function registerCommentRoutes(
  app: FastifyInstance,
  service: Service,
  userOf: (req: FastifyRequest) => User,
): void {
  const C = '/v0/:baseId/:table/:recordId/comments';

  /** The record a comment route names, which must exist in that table. */
  const recordOf = (p: RecordParams): string => {
    const table = resolveTable(service, p.baseId, p.table);
    if (!service.records.get(table, p.recordId)) throw recordNotFound();
    return p.recordId;
  };

  /** The named comment of that record, which must be the requesting user's own. */
  const ownComment = (req: FastifyRequest<{ Params: CommentParams }>): Comment => {
    const comment = service.comments.get(recordOf(req.params), req.params.rowCommentId);
    if (!comment) throw commentNotFound();
    if (comment.author.id !== userOf(req).id) throw notPermitted();
    return comment;
  };

  app.get<{ Params: RecordParams; Querystring: z.infer<typeof listQuery> }>(
    C,
    { schema: { querystring: listQuery } },
    async (req) => {
      const recordId = recordOf(req.params);
      const pageSize = req.query.pageSize ?? 100;
      if (pageSize < 1 || pageSize > 100) throw invalidRequest('pageSize must be from 1 to 100');
      const page = service.comments.page(recordId, pageSize, parseOffset(req.query.offset));
      // Airtable's last page carries `offset: null` rather than leaving it out.
      return { comments: page.comments, offset: page.next === undefined ? null : String(page.next) };
    },
  );

  app.post<{ Params: RecordParams; Body: z.infer<typeof createBody> }>(
    C,
    { schema: { body: createBody } },
    async (req) => {
      const recordId = recordOf(req.params);
      const text = checkText(req.body.text);
      const parent = req.body.parentCommentId;
      if (parent !== undefined && !service.comments.get(recordId, parent)) throw commentNotFound();
      return service.comments.create(recordId, userOf(req), text, parent);
    },
  );

  app.patch<{ Params: CommentParams; Body: z.infer<typeof updateBody> }>(
    `${C}/:rowCommentId`,
    { schema: { body: updateBody } },
    async (req) => {
      const comment = ownComment(req);
      return service.comments.update(comment.id, checkText(req.body.text));
    },
  );

  app.delete<{ Params: CommentParams }>(`${C}/:rowCommentId`, async (req) => {
    const comment = ownComment(req);
    service.comments.delete(comment.id);
    return { id: comment.id, deleted: true };
  });
}
