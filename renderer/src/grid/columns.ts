/** Grid columns from a table's fields, in schema order, rendered by field type. */
import type { ColDef, ValueFormatterParams, ValueGetterParams } from 'ag-grid-community';
import type { Column } from '../../../core/contract';
import { fieldTypeName } from '../../../core/records/format';
import type { RecordData } from '../../../core/records/types';
import { AttachmentCell, LinkCell, SelectCell } from './cells';
import { cellFormatter, effectiveType, isNumericType } from './format';

function rendererFor(type: string): ColDef['cellRenderer'] {
  switch (type) {
    case 'singleSelect':
    case 'multipleSelects':
      return SelectCell;
    case 'multipleRecordLinks':
      return LinkCell;
    case 'multipleAttachments':
      return AttachmentCell;
    default:
      return undefined;
  }
}

/**
 * Column ids are field names: the service sorts and restricts fields by name. `decorate` lets the editing
 * layer add editors and cell marks to each column.
 */
export function columnDefs(
  columns: readonly Column[],
  decorate?: (def: ColDef<RecordData>, field: Column) => ColDef<RecordData>,
): ColDef<RecordData>[] {
  return columns.map((field) => {
    const type = effectiveType(field);
    const renderer = rendererFor(type);
    const def: ColDef<RecordData> = {
      colId: field.name,
      headerName: field.name,
      headerTooltip: `${field.name} (${fieldTypeName(field.type)})`,
      valueGetter: (p: ValueGetterParams<RecordData>) => p.data?.fields[field.name],
      // The rightAligned column type's own cellClass would be replaced by ours, so it is named here too.
      cellClass: isNumericType(type) ? [`td-cell-${type}`, 'ag-right-aligned-cell'] : [`td-cell-${type}`],
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
    return decorate ? decorate(def, field) : def;
  });
}
