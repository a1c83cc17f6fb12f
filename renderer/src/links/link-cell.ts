/**
 * A link cell: the linked records' chips, by name once the names have come (a placeholder until then, the id
 * when a name cannot be read; see names.ts).
 * The tab hands it to the grid for every link field (ColumnParts.cell), so the grid reads no names itself.
 */
import type { Column } from '../../../core/contract';
import { ChipsCell } from '../grid/cells';
import type { Chip } from '../grid/cells';
import { NAME_PENDING, linkIds, linkNames, linkedTableId } from './names';

export class LinkCell extends ChipsCell {
  protected chips(value: unknown, field: Column): Chip[] {
    const tableId = linkedTableId(field);
    return linkIds(value).map((id) => {
      const shown = linkNames.shown(tableId, id);
      return {
        text: shown ?? NAME_PENDING,
        className: shown === undefined ? 'td-chip td-chip-link td-chip-pending' : 'td-chip td-chip-link',
        title: id,
        ...(tableId === undefined ? {} : { link: { recordId: id, tableId } }),
      };
    });
  }
}
