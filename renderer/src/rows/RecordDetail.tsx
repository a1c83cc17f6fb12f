/**
 * The expanded record: a form of all its fields, with previous and next (the grid's row order; Alt+↑ and
 * Alt+↓), then its sections (the records linking to it, comments), all in one scrolling body. Changes go through the same edit queue as cell edits; a value that
 * does not parse stays in its box with the reason. The form holds the keyboard; Esc closes it, and the field
 * being typed in is saved first.
 */
import { useEffect, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import type { Column } from '../../../core/contract';
import type { RecordData, TableSchema } from '../../../core/records/types';
import { toLocalInput } from '../editing/DateTimeEditor';
import { choiceNames, isEditable, parseInput } from '../editing/parse';
import { effectiveType, formatCell } from '../grid/format';
import { CommentsSection } from './comments/CommentsSection';
import { RecordSection } from '../ui/RecordSection';
import { useBaseTables } from '../links/context';
import { LinkList } from '../links/LinkList';
import { linkedTableId } from '../links/names';
import { LinkedRecords } from '../links/LinkedRecords';
import type { TableEditing } from './table-editing';
import { Attachments } from './attachments/Attachments';
import { groupHeaderOf } from '../grid/group-rows';
import { useModalFocus } from '../ui/useModalFocus';
import { mirrorServedAs, useMirrors } from '../offline/mirrors';
import { isCommand } from '../commands/match';
import { MAC, shortcutProps } from '../commands/shown';

interface Props {
  editing: TableEditing;
  index: number;
  /** A row added with Add row, pinned at the top: `index` counts those rows. */
  pinned?: boolean;
  /** Re-renders the form when the queue's state changes. */
  revision: number;
  onIndex: (index: number) => void;
  onClose: () => void;
}

function FieldInput({
  field,
  row,
  editing,
  tables,
}: {
  field: Column;
  row: RecordData;
  editing: TableEditing;
  tables: readonly TableSchema[] | undefined;
}) {
  const [problem, setProblem] = useState<string>();
  const shown = editing.store.value(row, field.name);
  const type = effectiveType(field);
  const label = `${field.name}`;

  const commit = (value: unknown, typecast = false) => {
    setProblem(undefined);
    if (JSON.stringify(value ?? null) === JSON.stringify(shown ?? null)) return;
    void editing.edit([
      {
        recordId: row.id,
        fields: { [field.name]: value },
        previous: shown === undefined || shown === null ? {} : { [field.name]: shown },
        typecast,
      },
    ]);
  };
  const commitText = (text: string) => {
    const parsed = parseInput(field, text);
    if (parsed.ok) commit(parsed.value, parsed.typecast);
    else setProblem(parsed.error);
  };

  if (type === 'multipleAttachments') return <Attachments field={field} row={row} editing={editing} />;
  const linked = linkedTableId(field);
  if (linked !== undefined)
    return (
      <LinkList key={row.id} field={field} value={shown} table={tables?.find((t) => t.id === linked)?.name} />
    );
  if (!isEditable(field)) return <output aria-label={label}>{formatCell(shown, field)}</output>;
  const key = `${row.id}:${JSON.stringify(shown ?? null)}`;
  let input;
  switch (type) {
    case 'checkbox':
      input = (
        <input
          type="checkbox"
          aria-label={label}
          checked={shown === true}
          onChange={(e) => commit(e.target.checked)}
        />
      );
      break;
    case 'singleSelect':
      input = (
        <select
          aria-label={label}
          value={typeof shown === 'string' ? shown : ''}
          onChange={(e) => commit(e.target.value || null)}
        >
          <option value="" />
          {choiceNames(field).map((c) => (
            <option key={c}>{c}</option>
          ))}
        </select>
      );
      break;
    case 'multipleSelects': {
      const chosen = Array.isArray(shown) ? (shown as string[]) : [];
      input = (
        <span role="group" aria-label={label}>
          {choiceNames(field).map((c) => (
            <label key={c}>
              <input
                type="checkbox"
                checked={chosen.includes(c)}
                onChange={(e) => {
                  const next = e.target.checked ? [...chosen, c] : chosen.filter((x) => x !== c);
                  commit(next.length > 0 ? next : null);
                }}
              />
              {c}
            </label>
          ))}
        </span>
      );
      break;
    }
    case 'multilineText':
      input = (
        <textarea
          key={key}
          aria-label={label}
          defaultValue={typeof shown === 'string' ? shown : ''}
          onBlur={(e) => commitText(e.target.value)}
        />
      );
      break;
    case 'date':
      input = (
        <input
          key={key}
          type="date"
          aria-label={label}
          defaultValue={typeof shown === 'string' ? shown.slice(0, 10) : ''}
          onBlur={(e) => commitText(e.target.value)}
        />
      );
      break;
    case 'dateTime':
      input = (
        <input
          key={key}
          type="datetime-local"
          aria-label={label}
          defaultValue={toLocalInput(shown)}
          onBlur={(e) => commitText(e.target.value)}
        />
      );
      break;
    default:
      input = (
        <input
          key={key}
          type="text"
          aria-label={label}
          defaultValue={formatCell(shown, field)}
          onBlur={(e) => commitText(e.target.value)}
          onKeyDown={(e) => {
            if (isCommand('dialog.saveField', e, MAC)) commitText(e.currentTarget.value);
          }}
        />
      );
  }
  return (
    <>
      {input}
      {problem && (
        <span className="td-error" role="alert">
          {problem}
        </span>
      )}
    </>
  );
}

/** Alt+↑ and Alt+↓ move to the previous and next record, wherever the focus is in the form. */
function stepOf(e: KeyboardEvent): -1 | 1 | undefined {
  if (isCommand('dialog.previousRecord', e, MAC)) return -1;
  if (isCommand('dialog.nextRecord', e, MAC)) return 1;
  return undefined;
}

export function RecordDetail({ editing, index, pinned = false, revision, onIndex, onClose }: Props) {
  const grid = editing.grid;
  const data = grid?.recordAt(index, pinned);
  // A group header of a grouped view is no record: Previous and Next pass it showing no form.
  const row = groupHeaderOf(data) ? undefined : data;
  // Previous and next follow the view's rows; a pinned row stands apart from them.
  const count = pinned ? 0 : (grid?.rowCount().count ?? 0);
  const canStep = (step: -1 | 1) => !pinned && index + step >= 0 && index + step < count;
  useEffect(() => {
    if (!pinned) grid?.showRow(index);
  }, [grid, index, pinned]);
  const dialog = useRef<HTMLDivElement>(null);
  /** The field focused when the form moved: the same field of the next record takes the focus. */
  const refocus = useRef<string | null>(null);

  /** A field being typed in is saved when it loses the focus: it does so before the form moves or closes. */
  const commitTyping = () => {
    const active = document.activeElement;
    if (active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement) active.blur();
  };
  const close = () => {
    commitTyping();
    onClose();
  };
  const step = (by: -1 | 1) => {
    if (!canStep(by)) return;
    const active = document.activeElement;
    refocus.current =
      active instanceof HTMLInputElement ||
      active instanceof HTMLTextAreaElement ||
      active instanceof HTMLSelectElement
        ? active.getAttribute('aria-label')
        : null;
    commitTyping();
    onIndex(index + by);
  };
  useEffect(() => {
    const label = refocus.current;
    refocus.current = null;
    if (label === null) return;
    const same = [...(dialog.current?.querySelectorAll<HTMLElement>('[aria-label]') ?? [])].find(
      (el) => el.getAttribute('aria-label') === label,
    );
    (same ?? dialog.current)?.focus();
  }, [row?.id]);

  const trapFocus = useModalFocus(dialog, close);
  const onKeyDown = (e: KeyboardEvent) => {
    const by = stepOf(e);
    if (by === undefined) return trapFocus(e);
    e.preventDefault();
    e.stopPropagation();
    step(by);
  };
  const tables = useBaseTables(editing.target.connectionId, editing.target.baseId);
  const copy = mirrorServedAs(useMirrors().mirrors, editing.target.connectionId, editing.target.baseId);
  return (
    <div
      className="td-modal-backdrop"
      // A press outside the form closes it, as outside any popover.
      onPointerDown={(e) => {
        if (e.target === e.currentTarget) close();
      }}
    >
      <div
        className="td-modal td-record"
        role="dialog"
        aria-modal="true"
        aria-label="Record"
        data-revision={revision}
        ref={dialog}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <header>
          <h2>
            {row
              ? String(
                  formatCell(row.fields[editing.fields[0]?.name ?? ''], editing.fields[0] ?? { type: '' }) ||
                    row.id,
                )
              : 'Loading…'}
          </h2>
          {copy && (
            <span
              className="td-badge td-mirror-badge"
              title={`The offline copy of ${copy.source.baseName}, on this computer`}
            >
              offline copy
            </span>
          )}
          <button
            type="button"
            {...shortcutProps('dialog.previousRecord', 'Previous record')}
            disabled={!canStep(-1)}
            onClick={() => step(-1)}
          >
            Previous
          </button>
          <button
            type="button"
            {...shortcutProps('dialog.nextRecord', 'Next record')}
            disabled={!canStep(1)}
            onClick={() => step(1)}
          >
            Next
          </button>
          <button type="button" {...shortcutProps('dialog.close', 'Close')} onClick={close}>
            Close
          </button>
        </header>
        {row && (
          // The sections of the expanded record, top to bottom: its fields, then each feature's own section.
          <div className="td-record-body">
            <section className="td-record-section" aria-label="Fields">
              <dl data-record-id={row.id}>
                {editing.fields.map((f) => (
                  <div key={f.name}>
                    <dt>{f.name}</dt>
                    <dd>
                      <FieldInput field={f} row={row} editing={editing} tables={tables} />
                    </dd>
                  </div>
                ))}
              </dl>
            </section>
            <LinkedRecords tables={tables} table={editing.target.table} record={row} />
            <RecordSection title="Comments">
              <CommentsSection key={row.id} target={editing.target} recordId={row.id} />
            </RecordSection>
          </div>
        )}
      </div>
    </div>
  );
}
