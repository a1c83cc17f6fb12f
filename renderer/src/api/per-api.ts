/**
 * A store the page keeps once per api (the mirrors, the pending changes): made on first use and held while the
 * api lives, so a test's own api gets stores of its own instead of sharing the page's.
 */
import type { TableDeskApi } from '../../../core/contract';

export function perApi<T>(make: (api: TableDeskApi) => T): (api: TableDeskApi) => T {
  const made = new WeakMap<TableDeskApi, T>();
  return (api) => {
    let store = made.get(api);
    if (store === undefined) made.set(api, (store = make(api)));
    return store;
  };
}
