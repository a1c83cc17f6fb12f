/** The shapes the edit services share with each other and with the contract. */
import type { ChannelError } from '../../core/contract';

/** The table an operation writes to: a saved connection, a base and a table name (or id). */
export interface EditTarget {
  connectionId: string;
  baseId: string;
  table: string;
}

/** Why the service refused or failed an operation, as the renderer sees it (never an API key). */
export type FailureInfo = ChannelError;

export const targetKey = (t: EditTarget): string => JSON.stringify([t.connectionId, t.baseId, t.table]);

/** A record's fields to write; `null` clears a cell (JSON has no `undefined`). */
export type FieldValues = Record<string, unknown>;
