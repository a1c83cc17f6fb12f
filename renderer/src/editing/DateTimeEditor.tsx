/**
 * The dateTime cell editor: the browser's date and time picker in local time, sending ISO 8601 in UTC.
 * (ag-grid's date string editor dropped the time part when committing in our tests, so this one is ours.)
 */
import { useEffect, useRef } from 'react';
import type { CellEditorProps } from '../grid/parts';

/** An ISO instant as the value of a datetime-local input (local wall time, minutes). */
export function toLocalInput(iso: unknown): string {
  if (typeof iso !== 'string') return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

export function DateTimeEditor({ initialValue, onValueChange }: CellEditorProps<string>) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  return (
    <input
      ref={input}
      className="td-datetime-editor"
      type="datetime-local"
      aria-label="Date and time"
      defaultValue={toLocalInput(initialValue)}
      onChange={(e) => {
        const d = new Date(e.target.value);
        onValueChange(e.target.value === '' ? null : Number.isNaN(d.getTime()) ? undefined : d.toISOString());
      }}
    />
  );
}
