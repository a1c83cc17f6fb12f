/**
 * The services as React reaches them: `main.tsx` provides the page's bridge, a test may provide its own, and
 * components and hooks ask with `useApi()`. Modules that are not React (models such as `rows/table-editing.ts`)
 * take the api as an argument instead, from the component that made them.
 */
import { createContext, useContext } from 'react';
import type { ReactNode } from 'react';
import type { TableDeskApi } from '../../../core/contract';

const ApiContext = createContext<TableDeskApi | undefined>(undefined);

export function ApiProvider({ api, children }: { api: TableDeskApi; children: ReactNode }) {
  return <ApiContext.Provider value={api}>{children}</ApiContext.Provider>;
}

export function useApi(): TableDeskApi {
  const api = useContext(ApiContext);
  // A component rendered outside the provider is a bug of the tree, not a state a user can cause.
  if (api === undefined) throw new Error('useApi() outside <ApiProvider>');
  return api;
}
