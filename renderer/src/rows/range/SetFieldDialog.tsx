/**
 * Set a field for many rows: choose a field that takes values, type or pick its value (parsed by the
 * field's own rules, so a value that does not fit is refused here, before anything is sent), apply to all.
 */
import { useState } from 'react';
import type { Column } from '../../../../core/contract';
import { plural } from '../../../../core/records/format';
import { choiceNames, isEditable, parseInput } from '../../editing/parse';
import type { Parsed } from '../../grid/format';
import { effectiveType } from '../../grid/format';
import { ModalDialog } from '../../ui/ModalDialog';

interface Props {
  fields: readonly Column[];
  rows: number;
  /** Said under the title: what the rows are (e.g. only the loaded ones of a whole view). */
  note?: string | undefined;
  onApply: (field: Column, value: Parsed) => void;
  onClose: () => void;
}

/** The value's control by field type; its text goes through `parseInput` like a cell editor's. */
function ValueInput({ field, text, onText }: { field: Column; text: string; onText: (t: string) => void }) {
  const type = effectiveType(field);
  if (type === 'checkbox')
    return (
      <label>
        <input type="checkbox" checked={text === 'true'} onChange={(e) => onText(String(e.target.checked))} />{' '}
        Checked
      </label>
    );
  if (type === 'singleSelect')
    return (
      <select aria-label="Value" value={text} onChange={(e) => onText(e.target.value)}>
        <option value="">(empty)</option>
        {choiceNames(field).map((c) => (
          <option key={c}>{c}</option>
        ))}
      </select>
    );
  const hint =
    type === 'multipleSelects'
      ? `${choiceNames(field).join(', ')} (comma separated)`
      : type === 'multipleRecordLinks'
        ? 'record ids, comma separated'
        : type === 'duration'
          ? 'h:mm'
          : 'empty clears the cells';
  return (
    <input
      aria-label="Value"
      type={type === 'date' ? 'date' : 'text'}
      value={text}
      placeholder={hint}
      onChange={(e) => onText(e.target.value)}
    />
  );
}

export function SetFieldDialog({ fields, rows, note, onApply, onClose }: Props) {
  const writable = fields.filter(isEditable);
  const [name, setName] = useState(writable[0]?.name ?? '');
  const [text, setText] = useState('');
  const field = writable.find((f) => f.name === name);
  const parsed = field
    ? parseInput(field, effectiveType(field) === 'checkbox' && text === '' ? 'false' : text)
    : undefined;
  const readOnly = fields.length - writable.length;
  return (
    <ModalDialog label="Set field" className="td-set-field" onClose={onClose}>
      <h2>Set a field for {plural(rows, 'row')}</h2>
      {note && <p>{note}</p>}
      <label>
        Field{' '}
        <select
          aria-label="Field"
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            setText('');
          }}
        >
          {writable.map((f) => (
            <option key={f.name}>{f.name}</option>
          ))}
        </select>
      </label>
      {readOnly > 0 && (
        <p className="td-set-field-note">
          {plural(readOnly, 'field')} computed, read-only or holding attachments cannot be set here.
        </p>
      )}
      {field && <ValueInput field={field} text={text} onText={setText} />}
      {parsed && !parsed.ok && (
        <p className="td-set-field-error" role="alert">
          {parsed.error}
        </p>
      )}
      <div className="td-modal-actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="td-primary"
          disabled={!field || !parsed?.ok}
          onClick={() => {
            if (!field || !parsed?.ok) return;
            onClose();
            onApply(field, parsed);
          }}
        >
          Set {plural(rows, 'row')}
        </button>
      </div>
    </ModalDialog>
  );
}
