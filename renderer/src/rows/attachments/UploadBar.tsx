/**
 * A table tab's uploads on screen: one tracker per tab (kept while its editing frame shows the bar), the
 * bar of uploads under way with their progress and of those refused or failed with why, and the drop area
 * that takes files dropped on the grid's attachment cells.
 */
import { useEffect, useSyncExternalStore } from 'react';
import type { ReactNode } from 'react';
import { formatBytes } from '../../../../core/records/attachments';
import type { TableEditing } from '../table-editing';
import { dropHandlers } from './drop';
import { UploadTracker } from './uploads';
import type { UploadEntry } from './uploads';

const trackers = new WeakMap<TableEditing, UploadTracker>();

/** The tab's tracker, made on first use, over the api its editing was made with. */
export function uploadsFor(editing: TableEditing): UploadTracker {
  let tracker = trackers.get(editing);
  if (!tracker) {
    tracker = new UploadTracker(editing.api, editing.target);
    trackers.set(editing, tracker);
  }
  return tracker;
}

const WORDS: Record<UploadEntry['state'], string> = {
  reading: 'Reading',
  staged: 'Waiting',
  queued: 'Waiting to send',
  sending: 'Uploading',
  done: 'Uploaded',
  failed: 'Not uploaded',
  refused: 'Not uploaded',
};

/** Every upload of the tab, or of one record (the record form's). */
export function UploadBar({ editing, recordId }: { editing: TableEditing; recordId?: string }) {
  const tracker = uploadsFor(editing);
  useEffect(() => {
    // The tab's own bar (no record) owns the tracker: it goes with the tab.
    if (recordId !== undefined) return;
    return () => {
      trackers.get(editing)?.dispose();
      trackers.delete(editing);
    };
  }, [editing, recordId]);
  const all = useSyncExternalStore(
    (fn) => tracker.subscribe(fn),
    () => tracker.list(),
  );
  const entries = all.filter((e) => recordId === undefined || e.recordId === recordId);
  if (entries.length === 0) return null;
  return (
    <ul className="td-uploads" aria-label="Uploads">
      {entries.map((e) => {
        const over = e.state === 'failed' || e.state === 'refused';
        return (
          <li key={e.key} className={over ? 'td-error' : undefined} role={over ? 'alert' : 'status'}>
            <span>
              {WORDS[e.state]} {e.filename}
              {e.total > 0 && !over ? ` (${formatBytes(e.total)})` : ''}
              {e.error ? `: ${e.error}` : ''}
            </span>
            {over ? (
              <button type="button" onClick={() => tracker.dismiss(e.key)}>
                Dismiss
              </button>
            ) : (
              <progress
                aria-label={`Uploading ${e.filename}`}
                max={e.total || 1}
                value={e.state === 'sending' ? e.sent : undefined}
              />
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** Takes files dropped on the grid's attachment cells (see drop.ts); lays out nothing of its own. */
export function AttachmentDrop({ editing, children }: { editing: TableEditing; children: ReactNode }) {
  return (
    <div className="td-drop-area" {...dropHandlers(uploadsFor(editing), editing.fields)}>
      {children}
    </div>
  );
}
