/**
 * Bases and table schemas from the metadata API. A 403 (a token without schema scopes, or a service without
 * the metadata API) is an answer, not an error: `{ refused: true }`, and the user types a base id and table.
 */
import type { RecordTableClient } from '../../core/api/index';
import type { Response } from '../../core/contract';
import type { TableSchema } from '../../core/records/types';

/** Schemas change rarely; a view opened within this time reuses the last answer. */
const SCHEMA_TTL_MS = 30_000;

const refusedMessage =
  'The service refused to list them (403): the key lacks the schema scopes. Type a base id and a table name.';

const isForbidden = (e: unknown): boolean => e instanceof Error && (e as { status?: unknown }).status === 403;

export class Metadata {
  private readonly schemas = new Map<string, { at: number; tables: Promise<TableSchema[]> }>();

  constructor(private readonly clientFor: (connectionId: string) => Promise<RecordTableClient>) {}

  async bases(connectionId: string): Promise<Response<'meta.bases'>> {
    const client = await this.clientFor(connectionId);
    try {
      return { refused: false, bases: await client.meta.bases({ priority: 'interactive' }) };
    } catch (error) {
      if (isForbidden(error)) return { refused: true, message: refusedMessage };
      throw error;
    }
  }

  async tables(connectionId: string, baseId: string): Promise<Response<'meta.tables'>> {
    try {
      return { refused: false, tables: await this.schema(connectionId, baseId) };
    } catch (error) {
      if (isForbidden(error)) return { refused: true, message: refusedMessage };
      throw error;
    }
  }

  /** The table's schema by name or id; undefined when the schema is refused. */
  async table(connectionId: string, baseId: string, table: string): Promise<TableSchema | undefined | null> {
    let tables: TableSchema[];
    try {
      tables = await this.schema(connectionId, baseId);
    } catch (error) {
      if (isForbidden(error)) return undefined;
      throw error;
    }
    return tables.find((t) => t.name === table || t.id === table) ?? null;
  }

  private schema(connectionId: string, baseId: string): Promise<TableSchema[]> {
    const key = `${connectionId}\u0000${baseId}`;
    const cached = this.schemas.get(key);
    if (cached !== undefined && Date.now() - cached.at < SCHEMA_TTL_MS) return cached.tables;
    const tables = this.clientFor(connectionId).then((c) =>
      c.meta.baseSchema(baseId, { priority: 'interactive' }),
    );
    tables.catch(() => this.schemas.delete(key));
    this.schemas.set(key, { at: Date.now(), tables });
    return tables;
  }
}
