/**
 * What the edit queue owes the user: rejected edits with the service's message (Retry, Discard), edits
 * being retried after a failure, creates whose outcome is unknown, and the latest outcome message.
 */
import { plural } from '../../../core/records/format';
import type { EditingView, TableEditing } from './table-editing';

export function EditNotices({ editing, view }: { editing: TableEditing; view: EditingView }) {
  const rejected = editing.store.rejected();
  const retrying = editing.store.retrying();
  return (
    <div className="td-edit-notices">
      {rejected.map((r) => (
        <p key={r.recordId} className="td-error td-rejected" role="alert">
          <span>
            Not saved ({Object.keys(r.rejected?.fields ?? {}).join(', ')} of {r.recordId}):{' '}
            {r.rejected?.error.message}
          </span>
          <button type="button" onClick={() => void editing.retry(r.recordId)}>
            Retry
          </button>
          <button type="button" onClick={() => void editing.discard(r.recordId)}>
            Discard
          </button>
        </p>
      ))}
      {retrying.length > 0 && (
        <p className="td-warning" role="status" data-testid="edits-retrying">
          {retrying.length} record{retrying.length === 1 ? '' : 's'} waiting to be sent again:{' '}
          {retrying[0]?.retrying?.error.message}
        </p>
      )}
      {view.uncertain.map((c) => (
        <p key={c.id} className="td-warning" role="alert">
          {c.upload ? (
            <span>
              {c.upload.filename} may or may not have been attached to {c.upload.recordId} ({c.error.message}
              ). Check the record before adding it again.
            </span>
          ) : (
            <span>
              {plural(c.records.length, 'new record')} may or may not have been created ({c.error.message}).
              Check the table before adding them again.
            </span>
          )}
          <button type="button" onClick={() => void editing.dismissUncertain(c.id)}>
            I have checked
          </button>
        </p>
      ))}
      {view.message && (
        <p
          className={view.message.tone === 'error' ? 'td-error' : 'td-muted'}
          role={view.message.tone === 'error' ? 'alert' : 'status'}
          data-testid="edit-message"
        >
          {view.message.text.split('\n').map((line, i) => (
            <span key={i} className="td-message-line">
              {line}
            </span>
          ))}
        </p>
      )}
    </div>
  );
}
