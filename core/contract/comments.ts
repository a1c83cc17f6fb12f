/**
 * The contract's comments channels: the comments of a record (Airtable's comments API), read a page at a time, newest
 * first, and written by the connection's user, who may edit and delete only their own.
 */
import { z } from 'zod';
import { channel } from './define';
import { editTargetSchema } from './edits';
import { idSchema } from './schemas';

/** Longest comment the app sends (the local server's limit; Airtable's is not documented). */
export const MAX_COMMENT_LENGTH = 10_000;

export const commentSchema = z.object({
  id: z.string(),
  author: z.object({ id: z.string(), email: z.string().optional(), name: z.string().optional() }),
  text: z.string(),
  createdTime: z.string(),
  lastUpdatedTime: z.string().nullable(),
  parentCommentId: z.string().optional(),
});
export type Comment = z.infer<typeof commentSchema>;

const commentText = z
  .string()
  .refine((t) => t.trim() !== '', 'Write something first')
  .refine((t) => t.length <= MAX_COMMENT_LENGTH, `A comment holds at most ${MAX_COMMENT_LENGTH} characters`);

const onRecord = { target: editTargetSchema, recordId: idSchema };

export const commentChannels = {
  /** One page, newest first; `offset` continues to older comments. `userId` is the connection's user. */
  'comments.list': channel(
    z.object({
      ...onRecord,
      offset: z.string().min(1).max(200).optional(),
      pageSize: z.number().int().min(1).max(100).optional(),
    }),
    z.object({
      comments: z.array(commentSchema),
      offset: z.string().optional(),
      userId: z.string().optional(),
    }),
  ),
  'comments.create': channel(
    z.object({ ...onRecord, text: commentText }),
    z.object({ comment: commentSchema }),
  ),
  'comments.update': channel(
    z.object({ ...onRecord, commentId: idSchema, text: commentText }),
    z.object({ comment: commentSchema }),
  ),
  'comments.delete': channel(
    z.object({ ...onRecord, commentId: idSchema }),
    z.object({ deleted: z.boolean() }),
  ),
} as const;
