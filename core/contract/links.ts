/**
 * The contract's linked records: names of linked records (resolved in batches, cached per table),
 * a search of a linked table by its primary field for the link picker, names typed or pasted resolved to
 * ids, and one record of any table for the click-through form. Tables are named by id, as links name them.
 */
import { z } from 'zod';
import { channel } from './define';
import { idSchema, recordSchema } from './schemas';

const tableRef = { connectionId: idSchema, baseId: idSchema, tableId: idSchema };
/** A record id as the services accept it: nothing else may reach a formula they build. */
export const linkIdSchema = z.string().regex(/^rec[A-Za-z0-9]{3,40}$/, 'Not a record id');
const namesSchema = z.record(z.string(), z.string());

export const linkChannels = {
  /**
   * Names (primary values as text) of linked records, by id. Ids unknown to the service (deleted records)
   * are left out. Answers from the cache at once where it can; the rest waits for its batch.
   */
  'links.names': channel(
    z.object({
      connectionId: idSchema,
      baseId: idSchema,
      tables: z.array(z.object({ tableId: idSchema, ids: z.array(linkIdSchema).max(2000) })).max(50),
    }),
    z.object({ tables: z.array(z.object({ tableId: z.string(), names: namesSchema })) }),
  ),
  /** Records of a table whose primary value contains `text` (all when empty), a page at a time. */
  'links.search': channel(
    z.object({ ...tableRef, text: z.string().max(500).default(''), offset: z.string().max(500).optional() }),
    z.object({
      records: z.array(z.object({ id: z.string(), name: z.string() })),
      offset: z.string().optional(),
    }),
  ),
  /** Names (as pasted or typed) to record ids: the first record with that primary value; unknown ones left out. */
  'links.resolve': channel(
    z.object({ ...tableRef, names: z.array(z.string().max(1000)).max(1000) }),
    z.object({ ids: namesSchema }),
  ),
  /** One record of a table, for the linked record's form. */
  'links.record': channel(
    z.object({ ...tableRef, recordId: linkIdSchema }),
    z.object({ record: recordSchema }),
  ),
} as const;

export const linkEvents = {
  /** Names that changed through edits made here (the renamed records' ids to their new names). */
  'links.renamed': z.object({ baseId: idSchema, tableId: idSchema, names: namesSchema }),
} as const;
