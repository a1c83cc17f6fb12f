/** The page's one list of pending changes, over the api it is given, and hooks that reach it through `useApi()`. */
import { useSyncExternalStore } from 'react';
import { useApi } from '../api/ApiProvider';
import { perApi } from '../api/per-api';
import { createPendingChanges } from './pending-changes';
import type { PendingChanges } from './pending-changes';

/** The list over this api, created on first use. */
const pendingChangesOf = perApi(createPendingChanges);

/** The list over the provided api. */
export function usePendingChanges(): PendingChanges {
  return pendingChangesOf(useApi());
}

/** The items, re-rendering on every change. */
export function usePendingItems() {
  const { model } = usePendingChanges();
  return useSyncExternalStore(
    (l) => model.subscribe(l),
    () => model.items(),
  );
}
