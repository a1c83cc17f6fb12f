/**
 * The app's one list of pending changes, fed by the services' events (whatever tab made the change) and
 * read once from `edits.status` for what was owed before this page opened (a restart's replayed edits).
 */
import { useSyncExternalStore } from 'react';
import type { EventPayload, TableDeskApi } from '../../../core/contract';
import { tabledesk } from '../bridge';
import { PendingModel, editItems, targetKeyOf, uncertainItem, uploadItem } from './pending-model';
import type { ActOn } from './pending-model';

type EditState = EventPayload<'edits.state'>;
type Upload = EventPayload<'attachments.progress'>;

export interface PendingChanges {
  model: PendingModel;
  /** Sends every waiting edit now (no batching hold, no backoff). */
  sendAll(): Promise<number>;
  /** Sends every refused edit again. */
  retryAll(): Promise<number>;
  /** Drops every edit not yet sent or refused; cells go back to what they showed. */
  discardAll(): Promise<number>;
}

export function createPendingChanges(api: TableDeskApi): PendingChanges {
  const model = new PendingModel();
  const edits = new Map<string, EditState>();
  const uploads = new Map<string, Upload>();

  const actOnEdit: ActOn = async (action, item) => {
    if (item.recordId === undefined) return;
    const request = { target: item.target, recordId: item.recordId };
    if (action === 'sendNow') await api.call('edits.sendNow', request);
    else if (action === 'retry') await api.call('edits.retry', request);
    else if (action === 'discard' && item.state === 'refused') await api.call('edits.discard', request);
    else if (action === 'discard') await api.call('edits.discardAll', { ...request, waiting: true });
  };
  const actOnUncertain: ActOn = async (action, item) => {
    if (action === 'dismiss') await api.call('records.dismissUncertain', { id: item.key });
  };
  const showEdits = () => model.setSource('edits', [...edits.values()].flatMap(editItems), actOnEdit);
  const setEdit = (s: EditState) => {
    const key = `${targetKeyOf(s.target)}:${s.recordId}`;
    if (s.pending.length === 0 && s.rejected === undefined) edits.delete(key);
    else edits.set(key, s);
  };

  api.on('edits.state', (s) => {
    setEdit(s);
    showEdits();
  });
  api.on('records.uncertain', ({ creates }) =>
    model.setSource('uncertain', creates.map(uncertainItem), actOnUncertain),
  );
  api.on('attachments.progress', (u) => {
    if (u.state === 'queued' || u.state === 'sending') uploads.set(u.uploadId, u);
    else uploads.delete(u.uploadId);
    model.setSource(
      'uploads',
      [...uploads.values()].flatMap((x) => uploadItem(x) ?? []),
      async () => undefined,
    );
  });
  api.call('edits.status', {}).then(
    (status) => {
      // Events that came first are newer than this answer.
      for (const r of status.records) if (!edits.has(`${targetKeyOf(r.target)}:${r.recordId}`)) setEdit(r);
      showEdits();
      model.setSource('uncertain', status.uncertainCreates.map(uncertainItem), actOnUncertain);
    },
    () => undefined,
  );

  return {
    model,
    sendAll: async () => (await api.call('edits.sendNow', {})).records,
    retryAll: async () => (await api.call('edits.retryAll', {})).records,
    discardAll: async () => (await api.call('edits.discardAll', { waiting: true })).records,
  };
}

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
