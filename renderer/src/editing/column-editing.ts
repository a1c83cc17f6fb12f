/**
 * Editing for a grid column by field type: the editor, what it shows, local checks, and the marks of
 * pending, retrying and rejected cells. Values shown come from the edit store, so unsent and rejected
 * edits show as the user expects until the service has answered.
 */
import type { CellClassParams, ColDef, ICellEditorParams, ValueGetterParams } from 'ag-grid-community';
import type { Column } from '../../../core/contract';
import type { RecordData } from '../../../core/records/types';
import { effectiveType } from '../grid/format';
import type { EditStore } from './edit-store';
import { CheckboxCell } from './checkbox-cell';
import { DateTimeEditor } from './DateTimeEditor';
import { LinkPicker } from '../links/LinkPicker';
import { MultiSelectEditor } from './MultiSelectEditor';
import { SingleSelectEditor } from './single-select-editor';
import { choiceNames, isEditable, parseInput } from './parse';

type Def = ColDef<RecordData>;

/** Typed text is parsed by the field's rules; an invalid entry keeps the editor open with the reason. */
function textEditor(field: Column, useFormatter: boolean): Partial<Def> {
  return {
    cellEditor: 'agTextCellEditor',
    cellEditorParams: {
      useFormatter,
      getValidationErrors: ({ value }: { value: unknown }) => {
        if (typeof value !== 'string') return null;
        const parsed = parseInput(field, value);
        return parsed.ok ? null : [parsed.error];
      },
    },
    valueParser: (p) => {
      const parsed = parseInput(field, String(p.newValue ?? ''));
      return parsed.ok ? parsed.value : p.newValue;
    },
  };
}

function editorFor(field: Column): Partial<Def> {
  const type = effectiveType(field);
  switch (type) {
    case 'multilineText':
      return {
        cellEditor: 'agLargeTextCellEditor',
        cellEditorPopup: true,
        cellEditorParams: { maxLength: 100_000 },
      };
    case 'number':
    case 'currency':
    case 'percent':
    case 'duration':
      return textEditor(field, true);
    case 'rating': {
      const max = typeof field.options?.['max'] === 'number' ? field.options['max'] : 5;
      return { cellEditor: 'agNumberCellEditor', cellEditorParams: { min: 0, max, precision: 0 } };
    }
    case 'checkbox':
      // No editor: one click or Space toggles the box (the table's cell handlers).
      return { editable: false, cellRenderer: CheckboxCell };
    case 'dateTime':
      return { cellEditor: DateTimeEditor };
    case 'date':
      return {
        cellEditor: 'agDateStringCellEditor',
        valueParser: (p) => {
          const parsed = parseInput(field, String(p.newValue ?? ''));
          return parsed.ok ? parsed.value : p.newValue;
        },
      };
    case 'singleSelect':
      return { cellEditor: SingleSelectEditor, cellEditorPopup: true, cellEditorParams: { field } };
    case 'multipleRecordLinks':
      return { cellEditor: LinkPicker, cellEditorPopup: true, cellEditorParams: { field } };
    case 'multipleSelects':
      return {
        cellEditor: MultiSelectEditor,
        cellEditorPopup: true,
        cellEditorParams: (_: ICellEditorParams) => ({ choices: choiceNames(field) }),
      };
    default:
      return textEditor(field, false);
  }
}

function classList(cellClass: Def['cellClass']): string[] {
  if (Array.isArray(cellClass)) return cellClass;
  return typeof cellClass === 'string' ? [cellClass] : [];
}

/**
 * Adds editing to a column made by `columnDefs`. A cell's mark (pending, retrying, rejected) is one class
 * from one `cellClass` function rather than three `cellClassRules`: the grid runs every rule and toggles its
 * class, on or off, for each cell a scroll brings in (scrolling 10 rows a frame, script 8.4 → 7.9 ms and
 * main-thread CPU 21.2 → 20.5 ms per frame, medians of 5 Chrome traces each, taken in turn). The grid runs
 * `cellClass` again when a cell is refreshed with `force`, as the edit layer refreshes rows whose marks change.
 */
export function withEditing(def: Def, field: Column, store: EditStore): Def {
  const valueGetter = (p: ValueGetterParams<RecordData>) => store.value(p.data, field.name);
  const editable = isEditable(field);
  const classes = editable ? classList(def.cellClass) : [...classList(def.cellClass), 'td-cell-readonly'];
  const cellClass = (p: CellClassParams<RecordData>): string[] => {
    const mark = store.mark(p.data?.id, field.name);
    return mark === undefined ? classes : [...classes, `td-cell-${mark}`];
  };
  const base: Def = { ...def, valueGetter, cellClass };
  if (!editable) return { ...base, editable: false };
  // A row still loading has nothing to edit yet: typing there would have no record to go to.
  return { ...base, editable: (p) => p.data !== undefined, ...editorFor(field) };
}

/** Whether a column is a checkbox the user may toggle with one click or Space. */
export function isToggle(field: Column | undefined): field is Column {
  return field !== undefined && effectiveType(field) === 'checkbox' && isEditable(field);
}
