/** The link features bound to their channels: names, search, names to ids, and one record of a table. */
import type { RecordTableClient } from '../../core/api/index';
import type { Consent } from '../budget/budget';
import type { EventPayload } from '../../core/contract';
import type { linkChannels } from '../../core/contract/links';
import type { Handlers } from '../dispatch';
import type { EventSink } from '../events';
import type { Metadata } from '../metadata/metadata';
import { LinkNames, nameOf } from './names';
import { LinkedTables } from './tables';
import type { TableRef } from './tables';

export interface LinkServicesOptions {
  clientFor: (connectionId: string) => Promise<RecordTableClient>;
  metadata: Metadata;
  emit: EventSink;
  noteError: (connectionId: string, message: string) => void;
  /** Whether a connection's calls are counted against an allowance (the request budget). */
  metered?: (connectionId: string) => Promise<boolean>;
  /** The request budget's word on a read of many names at once (see names.ts). */
  consent?: Consent;
}

type EditTarget = EventPayload<'edits.saved'>['target'];

export function createLinkServices(options: LinkServicesOptions) {
  const tables = new LinkedTables(options.clientFor, options.metadata);
  const names = new LinkNames(
    tables,
    (ref, renamed) =>
      options.emit('links.renamed', { baseId: ref.baseId, tableId: ref.tableId, names: renamed }),
    options.noteError,
    options.metered,
    options.consent,
  );
  /** Edit events name tables as the view did (by name or id); the cache knows them by id. */
  const refOf = async (target: EditTarget): Promise<TableRef | undefined> => {
    const schema = await options.metadata.table(target.connectionId, target.baseId, target.table);
    return schema
      ? { connectionId: target.connectionId, baseId: target.baseId, tableId: schema.id }
      : undefined;
  };

  const handlers: Pick<Handlers, keyof typeof linkChannels> = {
    'links.names': async ({ connectionId, baseId, tables: wanted }) => ({
      tables: await Promise.all(
        wanted.map(async ({ tableId, ids }) => ({
          tableId,
          names: await names.names({ connectionId, baseId, tableId }, ids),
        })),
      ),
    }),
    'links.search': async ({ text, offset, ...ref }) => {
      const page = await (await tables.table(ref)).search(text, offset);
      const records = page.records.map((r) => ({ id: r.id, name: nameOf(r.name) }));
      names.learn(ref, Object.fromEntries(records.map((r) => [r.id, r.name])));
      return { records, ...(page.offset === undefined ? {} : { offset: page.offset }) };
    },
    'links.resolve': async ({ names: wanted, ...ref }) => {
      const ids = await (await tables.table(ref)).idsOf(wanted);
      names.learn(ref, Object.fromEntries([...ids].map(([name, id]) => [id, name])));
      return { ids: Object.fromEntries(ids) };
    },
    'links.record': async ({ recordId, ...ref }) => ({
      record: await (await tables.table(ref)).record(recordId),
    }),
  };

  return {
    handlers,
    /** Keeps cached names in step with records saved, put back or deleted through the edit queue. */
    async applySaved(target: EditTarget, record: EventPayload<'edits.saved'>['record']): Promise<void> {
      const ref = await refOf(target);
      if (ref) await names.applySaved(ref, record);
    },
    async applyReverted(
      target: EditTarget,
      recordId: string,
      fields: Record<string, unknown>,
    ): Promise<void> {
      const ref = await refOf(target);
      if (ref) await names.applyReverted(ref, recordId, fields);
    },
    async applyDeleted(target: EditTarget, ids: readonly string[]): Promise<void> {
      const ref = await refOf(target);
      if (ref) names.applyDeleted(ref, ids);
    },
  };
}
