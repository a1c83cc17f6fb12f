/**
 * The app's one list of pending changes, fed by the services' events (whatever tab made the change) and
 * read once from `edits.status` for what was owed before this page opened (a restart's replayed edits).
 */
import type { EventPayload, TableDeskApi } from '../../../core/contract';
import { errorMessage } from '../api/call-errors';
import {
  PendingModel,
  damageItem,
  deleteItem,
  editItems,
  importItem,
  importOpen,
  targetKeyOf,
  uncertainItem,
  unsavedItem,
  uploadItem,
} from './pending-model';
import type { ActOn, PendingTarget, UnsavedEdits } from './pending-model';

type EditState = EventPayload<'edits.state'>;
type Upload = EventPayload<'attachments.progress'>;
type Import = EventPayload<'import.progress'>;

export interface PendingChanges {
  model: PendingModel;
  /** Sends every waiting edit now (no batching hold, no backoff). */
  sendAll(): Promise<number>;
  /** Sends every refused edit again. */
  retryAll(): Promise<number>;
  /** Drops every edit not yet sent or refused; cells go back to what they showed. */
  discardAll(): Promise<number>;
  /** Reads the imports again (the import dialog may have dismissed one, which sends no event). */
  refreshImports(): void;
  /** Lists edits the services refused to journal (not saved anywhere) until retried or dismissed. */
  refused(target: PendingTarget, changes: UnsavedEdits['changes'], error: unknown): void;
}

export function createPendingChanges(api: TableDeskApi): PendingChanges {
  const model = new PendingModel();
  const edits = new Map<string, EditState>();
  const uploads = new Map<string, Upload>();
  const imports = new Map<string, Import>();

  const actOnEdit: ActOn = async (action, item) => {
    if (item.recordId === undefined || item.target === undefined) return;
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

  const setImport = (s: Import) => {
    if (importOpen(s)) imports.set(s.importId, s);
    else imports.delete(s.importId);
  };
  const actOnImport: ActOn = async (action, item) => {
    const request = { importId: item.key };
    if (action === 'resume') setImport(await api.call('import.resume', request));
    else if (action === 'cancel') await api.call('import.cancel', request);
    else if (action === 'forget' && (await api.call('import.dismiss', request)).dismissed) {
      imports.delete(item.key);
    }
    showImports();
  };
  const showImports = () =>
    model.setSource(
      'imports',
      [...imports.values()].flatMap((s) => importItem(s) ?? []),
      actOnImport,
    );
  const refreshImports = () =>
    void api.call('import.list', {}).then(
      (list) => {
        imports.clear();
        for (const s of list.imports) setImport(s);
        showImports();
      },
      () => undefined,
    );

  const unsaved = new Map<string, UnsavedEdits>();
  let unsavedCount = 0;
  const showUnsaved = () => model.setSource('unsaved', [...unsaved.values()].map(unsavedItem), actOnUnsaved);
  const actOnUnsaved: ActOn = async (action, item) => {
    const u = unsaved.get(item.key);
    if (u === undefined) return;
    if (action === 'retry') await api.call('edits.edit', { target: u.target, changes: u.changes });
    unsaved.delete(item.key);
    showUnsaved();
  };

  const showDamage = (damage: EventPayload<'edits.journalDamage'>['damage']) =>
    model.setSource('journal', damage === undefined ? [] : [damageItem(damage)], async (action) => {
      if (action === 'dismiss') await api.call('edits.dismissJournalDamage', {});
    });
  let damageSeen = false;
  api.on('edits.journalDamage', ({ damage }) => {
    damageSeen = true;
    showDamage(damage);
  });

  const actOnDelete: ActOn = async (action, item) => {
    if (action === 'retry') await api.call('records.retryDelete', { id: item.key });
    else if (action === 'forget') await api.call('records.dismissDelete', { id: item.key });
  };
  const showDeletes = (deletes: EventPayload<'records.deleting'>['deletes']) =>
    model.setSource('deletes', deletes.map(deleteItem), actOnDelete);
  // An event that came before the first answer is newer than it.
  let deletesSeen = false;
  api.on('records.deleting', ({ deletes }) => {
    deletesSeen = true;
    showDeletes(deletes);
  });
  api.call('records.pendingDeletes', {}).then(
    ({ deletes }) => deletesSeen || showDeletes(deletes),
    () => undefined,
  );

  api.on('import.progress', (s) => {
    setImport(s);
    showImports();
  });
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
      if (!damageSeen) showDamage(status.journalDamage);
    },
    () => undefined,
  );
  refreshImports();

  return {
    model,
    sendAll: async () => (await api.call('edits.sendNow', {})).records,
    retryAll: async () => (await api.call('edits.retryAll', {})).records,
    discardAll: async () => (await api.call('edits.discardAll', { waiting: true })).records,
    refreshImports,
    refused(target, changes, error) {
      const key = `unsaved:${++unsavedCount}`;
      unsaved.set(key, { key, target, changes, error: errorMessage(error), at: Date.now() });
      showUnsaved();
    },
  };
}
