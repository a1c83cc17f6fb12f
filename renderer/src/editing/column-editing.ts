/**
 * Editing for a grid column by field type: the editor, what it shows, local checks, and the marks of
 * pending, retrying and rejected cells. Values shown come from the edit store, so unsent and rejected
 * edits show as the user expects until the service has answered.
 */
import type { ColDef, ICellEditorParams, ValueGetterParams } from 'ag-grid-community';
import type { Column } from '../../../core/contract';
import type { RecordData } from '../../../core/records/types';
import { effectiveType } from '../grid/format';
import type { EditStore } from './edit-store';
import { CheckboxCell } from './checkbox-cell';
import { DateTimeEditor } from './DateTimeEditor';
import { LinkPicker } from '../links/LinkPicker';
import { MultiSelectEditor } from './MultiSelectEditor';
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
      return {
        cellEditor: 'agSelectCellEditor',
        cellEditorParams: { values: ['', ...choiceNames(field)] },
      };
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

/** Adds editing to a column made by `columnDefs`. */
export function withEditing(def: Def, field: Column, store: EditStore): Def {
  const valueGetter = (p: ValueGetterParams<RecordData>) => store.value(p.data, field.name);
  const marks: Def['cellClassRules'] = {
    'td-cell-pending': (p) => store.mark(p.data?.id, field.name) === 'pending',
    'td-cell-retrying': (p) => store.mark(p.data?.id, field.name) === 'retrying',
    'td-cell-rejected': (p) => store.mark(p.data?.id, field.name) === 'rejected',
  };
  const base: Def = { ...def, valueGetter, cellClassRules: marks };
  if (!isEditable(field))
    return { ...base, editable: false, cellClass: [...classList(def.cellClass), 'td-cell-readonly'] };
  // A row still loading has nothing to edit yet: typing there would have no record to go to.
  return { ...base, editable: (p) => p.data !== undefined, ...editorFor(field) };
}

/** Whether a column is a checkbox the user may toggle with one click or Space. */
export function isToggle(field: Column | undefined): field is Column {
  return field !== undefined && effectiveType(field) === 'checkbox' && isEditable(field);
}
