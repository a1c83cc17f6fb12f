import { ServiceError } from '../errors';
import { newId } from '../ids';
import type { Keyset } from './list';

interface Cursor {
  tableId: string;
  optionsHash: string;
  createdAt: number;
  keyset: Keyset;
  /** Records returned so far in this walk (for maxRecords). */
  returned: number;
}

const iteratorNotAvailable = () => new ServiceError(422, 'LIST_RECORDS_ITERATOR_NOT_AVAILABLE');

/**
 * List offsets: `itr…/rec…` tokens naming a keyset kept in memory with the hash of the options it was made
 * for and its creation time. Like Airtable's, they do not survive a restart (clients restart the walk on
 * LIST_RECORDS_ITERATOR_NOT_AVAILABLE), which keeps the token opaque and short.
 */
export class CursorStore {
  private readonly cursors = new Map<string, Cursor>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  issue(
    tableId: string,
    optionsHash: string,
    keyset: Keyset,
    returned: number,
    lastRecordId: string,
  ): string {
    this.sweep();
    const id = newId('itr');
    this.cursors.set(id, { tableId, optionsHash, createdAt: this.now(), keyset, returned });
    return `${id}/${lastRecordId}`;
  }

  /** The cursor an offset names, if it is alive and was made for these options. */
  resume(offset: string, tableId: string, optionsHash: string): { keyset: Keyset; returned: number } {
    const cursor = this.cursors.get(offset.split('/')[0] ?? '');
    if (!cursor || cursor.tableId !== tableId || cursor.optionsHash !== optionsHash)
      throw iteratorNotAvailable();
    if (this.now() - cursor.createdAt > this.ttlMs) throw iteratorNotAvailable();
    return { keyset: cursor.keyset, returned: cursor.returned };
  }

  private sweep(): void {
    // Cheap amortised cleanup: Map iteration is in insertion order, so expired cursors are at the front.
    const limit = this.now() - this.ttlMs;
    for (const [id, c] of this.cursors) {
      if (c.createdAt >= limit) break;
      this.cursors.delete(id);
    }
  }
}
