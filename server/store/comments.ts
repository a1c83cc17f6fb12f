import type { Statement } from 'better-sqlite3';
import { newId } from '../ids';
import type { User } from '../users';
import type { Db } from './db';

/** A comment as Airtable answers one (airtable-wire.md §11). */
export interface Comment {
  id: string;
  author: User;
  text: string;
  createdTime: string;
  lastUpdatedTime: string | null;
  parentCommentId?: string;
}

interface CommentRow {
  seq: number;
  id: string;
  parent_id: string | null;
  author: string;
  text: string;
  created_time: string;
  last_updated_time: string | null;
}

// A comment belongs to its record: deleting the record deletes its comments (ON DELETE CASCADE; the
// database runs with foreign_keys on). The author is kept as written, so it outlives the key that wrote it.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS comments (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE,
  record_id TEXT NOT NULL REFERENCES records(id) ON DELETE CASCADE,
  parent_id TEXT, author TEXT NOT NULL, text TEXT NOT NULL,
  created_time TEXT NOT NULL, last_updated_time TEXT);
CREATE INDEX IF NOT EXISTS comments_by_record ON comments(record_id, seq);
`;

const COLUMNS = 'seq, id, parent_id, author, text, created_time, last_updated_time';

function fromRow(r: CommentRow): Comment {
  const c: Comment = {
    id: r.id,
    author: JSON.parse(r.author) as User,
    text: r.text,
    createdTime: r.created_time,
    lastUpdatedTime: r.last_updated_time,
  };
  if (r.parent_id !== null) c.parentCommentId = r.parent_id;
  return c;
}

/**
 * The comments of records, newest first. A page continues below the creation sequence of the last comment
 * it returned, so the offset needs no state on the server and a walk never repeats a comment, however
 * many are added or deleted meanwhile.
 */
export class CommentStore {
  private readonly sql: Record<
    'page' | 'pageAfter' | 'get' | 'insert' | 'update' | 'delete' | 'count',
    Statement
  >;

  constructor(db: Db) {
    db.exec(SCHEMA);
    this.sql = {
      page: db.prepare(`SELECT ${COLUMNS} FROM comments WHERE record_id = ? ORDER BY seq DESC LIMIT ?`),
      pageAfter: db.prepare(
        `SELECT ${COLUMNS} FROM comments WHERE record_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`,
      ),
      get: db.prepare(`SELECT ${COLUMNS} FROM comments WHERE id = ? AND record_id = ?`),
      insert: db.prepare(
        `INSERT INTO comments (id, record_id, parent_id, author, text, created_time) VALUES (?, ?, ?, ?, ?, ?) RETURNING ${COLUMNS}`,
      ),
      update: db.prepare(
        `UPDATE comments SET text = ?, last_updated_time = ? WHERE id = ? RETURNING ${COLUMNS}`,
      ),
      delete: db.prepare('DELETE FROM comments WHERE id = ?'),
      count: db.prepare('SELECT COUNT(*) AS n FROM comments WHERE record_id = ?'),
    };
  }

  /** Up to `pageSize` comments older than the position `after` (a previous page's `next`), newest first. */
  page(
    recordId: string,
    pageSize: number,
    after?: number,
  ): { comments: Comment[]; next: number | undefined } {
    const rows = (
      after === undefined
        ? this.sql.page.all(recordId, pageSize + 1)
        : this.sql.pageAfter.all(recordId, after, pageSize + 1)
    ) as CommentRow[];
    const shown = rows.slice(0, pageSize);
    return {
      comments: shown.map(fromRow),
      next: rows.length > pageSize ? shown.at(-1)?.seq : undefined,
    };
  }

  /** The comment with this id on this record, with its author's id. */
  get(recordId: string, id: string): Comment | undefined {
    const row = this.sql.get.get(id, recordId) as CommentRow | undefined;
    return row && fromRow(row);
  }

  create(recordId: string, author: User, text: string, parentCommentId?: string): Comment {
    const row = this.sql.insert.get(
      newId('com'),
      recordId,
      parentCommentId ?? null,
      JSON.stringify({ id: author.id, email: author.email, name: author.name }),
      text,
      new Date().toISOString(),
    ) as CommentRow;
    return fromRow(row);
  }

  update(id: string, text: string): Comment {
    return fromRow(this.sql.update.get(text, new Date().toISOString(), id) as CommentRow);
  }

  delete(id: string): void {
    this.sql.delete.run(id);
  }

  count(recordId: string): number {
    return (this.sql.count.get(recordId) as { n: number }).n;
  }
}
