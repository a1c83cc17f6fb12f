/** The page's one list of pending changes, over the page's bridge, and a hook that re-renders on its changes. */
import { useSyncExternalStore } from 'react';
import { tabledesk } from '../bridge';
import { createPendingChanges } from './pending-changes';
import type { PendingChanges } from './pending-changes';

let shared: PendingChanges | undefined;

/** The page's list, created on first use. */
export function pendingChanges(): PendingChanges {
  shared ??= createPendingChanges(tabledesk());
  return shared;
}

/** The items, re-rendering on every change. */
export function usePendingItems() {
  const { model } = pendingChanges();
  return useSyncExternalStore(
    (l) => model.subscribe(l),
    () => model.items(),
  );
}
