/** Grid columns from a table's fields, in schema order, rendered by field type, with the features' parts. */
import type {
  CellClassParams,
  ColDef,
  IHeaderComp,
  IHeaderParams,
  ValueFormatterParams,
  ValueGetterParams,
  ValueParserParams,
} from 'ag-grid-community';
import type { Column } from '../../../core/contract';
import { fieldTypeName } from '../../../core/records/format';
import type { RecordData } from '../../../core/records/types';
import { gridPort } from './ag-port';
import { AttachmentCell, SelectCell } from './cells';
import { cellFormatter, effectiveType, isNumericType } from './format';
import type { CellView, ColumnEditing, ColumnEditor, ColumnHeaderOf, HeaderCell, HeaderView } from './parts';

/** What the features add to a field's column: its editing, and a header of the app's. */
export interface ColumnParts {
  editing?: ColumnEditing;
  // The header's own params are its view's business: any object its view is made for.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  header?: ColumnHeaderOf<any>;
  /** The field's cell, drawn by a feature (a link's chips with names), given the field as `field`. */
  cell?: new () => CellView;
}

/** Adds the features' parts to a field's column, given the classes its cells have by type. */
export type DecorateColumn = (field: Column, classes: readonly string[]) => ColumnParts;

type Def = ColDef<RecordData>;

function rendererFor(type: string): ColDef['cellRenderer'] {
  switch (type) {
    case 'singleSelect':
    case 'multipleSelects':
      return SelectCell;
    case 'multipleAttachments':
      return AttachmentCell;
    default:
      return undefined;
  }
}

function editorDef(editor: ColumnEditor): Partial<Def> {
  switch (editor.kind) {
    case 'text':
      return {
        cellEditor: 'agTextCellEditor',
        cellEditorParams: {
          useFormatter: editor.formatted,
          getValidationErrors: ({ value }: { value: unknown }) => {
            if (typeof value !== 'string') return null;
            const reason = editor.check(value);
            return reason === null ? null : [reason];
          },
        },
        valueParser: (p: ValueParserParams<RecordData>) => editor.parse(p.newValue),
      };
    case 'longText':
      return {
        cellEditor: 'agLargeTextCellEditor',
        cellEditorPopup: true,
        cellEditorParams: { maxLength: editor.maxLength },
      };
    case 'number':
      return {
        cellEditor: 'agNumberCellEditor',
        cellEditorParams: { min: editor.min, max: editor.max, precision: editor.precision },
      };
    case 'date':
      return {
        cellEditor: 'agDateStringCellEditor',
        valueParser: (p: ValueParserParams<RecordData>) => editor.parse(p.newValue),
      };
    case 'custom':
      return { cellEditor: editor.editor, cellEditorPopup: editor.popup, cellEditorParams: editor.params };
  }
}

function editingDef(editing: ColumnEditing): Partial<Def> {
  const { classRules, editor, cell, keepKey } = editing;
  const def: Partial<Def> = {
    // The editing layer's functions take the grid's own params (typed in parts.ts by what they read).
    valueGetter: editing.value,
    cellClass: editing.classes,
    editable: editing.editable,
  };
  if (classRules) {
    const rules: NonNullable<Def['cellClassRules']> = {};
    for (const [name, rule] of Object.entries(classRules))
      rules[name] = (p: CellClassParams<RecordData>) =>
        rule(p.node.rowPinned ? undefined : (p.node.rowIndex ?? undefined));
    def.cellClassRules = rules;
  }
  if (cell) def.cellRenderer = cell;
  if (keepKey) def.suppressKeyboardEvent = keepKey;
  return editor ? { ...def, ...editorDef(editor) } : def;
}

type HeaderParams = IHeaderParams<RecordData> & { parts: object };

const headerCell = (p: HeaderParams): HeaderCell => ({
  ...p.parts,
  column: p.column.getColId(),
  name: p.displayName,
  grid: gridPort(p.api),
  sortable: p.enableSorting === true,
  progressSort: (add) => p.progressSort(add),
  frame: p.eGridHeader,
});

/** ag-grid's header component around one of the app's header views: one class per view, made once. */
const headerComponents = new WeakMap<new () => HeaderView<object>, new () => IHeaderComp>();
function headerComponent(View: new () => HeaderView<object>): new () => IHeaderComp {
  let Component = headerComponents.get(View);
  if (!Component) {
    Component = class implements IHeaderComp {
      private readonly view = new View();
      init(p: HeaderParams): void {
        this.view.init(headerCell(p));
      }
      getGui(): HTMLElement {
        return this.view.getGui();
      }
      refresh(p: HeaderParams): boolean {
        return this.view.refresh(headerCell(p));
      }
      destroy(): void {
        this.view.destroy?.();
      }
    };
    headerComponents.set(View, Component);
  }
  return Component;
}

/**
 * Column ids are field names: the service sorts and restricts fields by name. `decorate` lets the editing
 * layer add editors and cell marks to each column, and the tab its headers.
 */
export function columnDefs(columns: readonly Column[], decorate?: DecorateColumn): Def[] {
  return columns.map((field) => {
    const type = effectiveType(field);
    // The rightAligned column type's own cellClass would be replaced by ours, so it is named here too.
    const classes = isNumericType(type) ? [`td-cell-${type}`, 'ag-right-aligned-cell'] : [`td-cell-${type}`];
    const parts = decorate?.(field, classes);
    const renderer = parts?.cell ?? rendererFor(type);
    const def: Def = {
      colId: field.name,
      headerName: field.name,
      headerTooltip: `${field.name} (${fieldTypeName(field.type)})`,
      valueGetter: (p: ValueGetterParams<RecordData>) => p.data?.fields[field.name],
      cellClass: classes,
      ...(field.primary ? { pinned: 'left' as const, lockPinned: true } : {}),
      ...(isNumericType(type) ? { type: 'rightAligned' } : {}),
    };
    if (renderer) {
      def.cellRenderer = renderer;
      def.cellRendererParams = { field };
    } else {
      const format = cellFormatter(field);
      def.valueFormatter = (p: ValueFormatterParams<RecordData>) => format(p.value);
    }
    if (!parts) return def;
    const { editing, header } = parts;
    const withEditing = editing ? { ...def, ...editingDef(editing) } : def;
    return header
      ? {
          ...withEditing,
          headerComponent: headerComponent(header.view),
          headerComponentParams: { parts: header.params },
        }
      : withEditing;
  });
}
