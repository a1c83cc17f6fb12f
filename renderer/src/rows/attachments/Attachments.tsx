/**
 * The attachments of one field in the record form: images previewed, other files listed with size and
 * type, each with Open, Save and Remove; files added with Add file… (Electron's open dialog, or the page's
 * file input) or dropped on the section. Removing is an edit like any other (the edit queue, undo). In
 * Electron, Open and Save go through the main process (a link to another origin cannot download in the
 * window); in a browser the links do it, each in a new tab so the app stays.
 */
import { useRef, useState } from 'react';
import type { MouseEvent } from 'react';
import { errorMessage } from '../../api/call-errors';
import type { Column } from '../../../../core/contract';
import { formatBytes, isAttachment } from '../../../../core/records/attachments';
import type { AttachmentData } from '../../../../core/records/attachments';
import type { RecordData } from '../../../../core/records/types';
import type { TableEditing } from '../table-editing';
import { UploadBar, uploadsFor } from './UploadBar';

const isImage = (a: AttachmentData) => a.thumbnails?.large !== undefined;

export function Attachments({
  field,
  row,
  editing,
}: {
  field: Column;
  row: RecordData;
  editing: TableEditing;
}) {
  const tracker = uploadsFor(editing);
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const shown = editing.store.value(row, field.name);
  const list = Array.isArray(shown) ? shown.filter(isAttachment) : [];

  const remove = (id: string) => {
    const kept = list.filter((a) => a.id !== id);
    void editing.edit([
      {
        recordId: row.id,
        // The kept ones go whole, so the cells show them until the save; the service keeps them by id.
        fields: { [field.name]: kept.length > 0 ? kept : null },
        previous: { [field.name]: shown },
        typecast: false,
      },
    ]);
  };
  const add = () => {
    if (tracker.door === 'electron') void tracker.pick(row.id, field.name);
    else input.current?.click();
  };
  const inMain = (action: 'open' | 'save', a: AttachmentData) => (e: MouseEvent) => {
    if (tracker.door !== 'electron') return;
    e.preventDefault();
    const done =
      action === 'open'
        ? tracker.open(row.id, field.name, a.id)
        : tracker.save(row.id, field.name, a.id).then((r) => {
            if (r && r.filePath !== undefined)
              editing.say(`${a.filename} saved to ${r.filePath}.`, 'info', { untilNextAction: true });
          });
    done.catch((error: unknown) => editing.say(errorMessage(error), 'error'));
  };

  return (
    <section
      className={`td-attachments${over ? ' td-drop-over' : ''}`}
      aria-label={`${field.name} attachments`}
      onDragOver={(e) => {
        if (!e.dataTransfer.types.includes('Files')) return;
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        setOver(false);
        if (e.dataTransfer.files.length === 0) return;
        e.preventDefault();
        void tracker.upload(row.id, field.name, [...e.dataTransfer.files]);
      }}
    >
      <ul>
        {list.map((a) => (
          <li key={a.id} className={isImage(a) ? 'td-attachment td-attachment-image' : 'td-attachment'}>
            {isImage(a) ? (
              <img
                src={a.thumbnails!.large!.url}
                width={a.thumbnails!.large!.width}
                height={a.thumbnails!.large!.height}
                alt={a.filename}
                loading="lazy"
                decoding="async"
              />
            ) : (
              <span className="td-chip td-chip-file">📎</span>
            )}
            <span className="td-attachment-name">{a.filename}</span>
            <span className="td-muted">
              {[a.size !== undefined ? formatBytes(a.size) : undefined, a.type].filter(Boolean).join(' · ')}
            </span>
            <a href={a.url} target="_blank" rel="noopener noreferrer" onClick={inMain('open', a)}>
              Open
            </a>
            <a
              href={a.url}
              download={a.filename}
              target="_blank"
              rel="noopener noreferrer"
              onClick={inMain('save', a)}
            >
              Save
            </a>
            <button type="button" aria-label={`Remove ${a.filename}`} onClick={() => remove(a.id)}>
              Remove
            </button>
          </li>
        ))}
      </ul>
      <button type="button" onClick={add}>
        Add file…
      </button>
      <span className="td-muted"> or drop files here (at most 5 MB each)</span>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        aria-label={`Add a file to ${field.name}`}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = '';
          if (files.length > 0) void tracker.upload(row.id, field.name, files);
        }}
      />
      <UploadBar editing={editing} recordId={row.id} />
    </section>
  );
}
