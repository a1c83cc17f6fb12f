/**
 * What link chips, the picker and the linked record's form need from their tab: the base they are in, its
 * tables (when the schema is readable), and how to open a linked record.
 */
import { createContext, useEffect, useState } from 'react';
import type { TableSchema } from '../../../core/records/types';
import { useApi } from '../api/ApiProvider';

export interface LinksScope {
  target: { connectionId: string; baseId: string };
  open: (tableId: string, recordId: string) => void;
}

export const LinksContext = createContext<LinksScope | undefined>(undefined);

const schemas = new Map<string, Promise<TableSchema[] | undefined>>();

/** The base's tables (asked once per base in a session); undefined while loading or when refused. */
export function useBaseTables(connectionId: string, baseId: string): TableSchema[] | undefined {
  const api = useApi();
  const [tables, setTables] = useState<TableSchema[]>();
  useEffect(() => {
    const key = `${connectionId}/${baseId}`;
    let asked = schemas.get(key);
    if (!asked) {
      asked = api.call('meta.tables', { connectionId, baseId }).then(
        (r) => (r.refused ? undefined : (r.tables as TableSchema[])),
        () => {
          schemas.delete(key);
          return undefined;
        },
      );
      schemas.set(key, asked);
    }
    let live = true;
    void asked.then((t) => live && setTables(t));
    return () => {
      live = false;
    };
  }, [api, connectionId, baseId]);
  return tables;
}
