/** A group's header row across the grid: its field, its value as the cells show it, and its record count. */
import type { Column } from '../../../../core/contract';
import { plural } from '../../../../core/records/format';
import type { RecordData } from '../../../../core/records/types';
import { formatCell } from '../../grid/format';
import type { FullWidthRows } from '../../grid/parts';
import { groupHeaderOf } from '../../grid/group-rows';

/** What the header rows need from their tab, kept current by the tab (the renderer itself stays one). */
export class GroupRowContext {
  columns: readonly Column[] = [];
  toggle: (key: string) => void = () => undefined;

  update(columns: readonly Column[], toggle: (key: string) => void): void {
    this.columns = columns;
    this.toggle = toggle;
  }
}

/** The value a group shows: as its cells show it, or "(empty)". */
export function groupValueText(value: unknown, column: Column | undefined): string {
  const text = column ? formatCell(value, column) : String(value ?? '');
  return text === '' ? '(empty)' : text;
}

export function groupHeaderRenderer(context: GroupRowContext): FullWidthRows['Row'] {
  return function GroupHeaderRow({ data }: { data?: RecordData | undefined }) {
    const header = groupHeaderOf(data);
    if (!header) return null;
    const column = context.columns.find((c) => c.name === header.field);
    return (
      <div
        className="td-group-row"
        data-level={header.level}
        style={{ paddingLeft: 8 + header.level * 20 }}
        onClick={() => context.toggle(header.key)}
      >
        <button
          type="button"
          className="td-group-toggle"
          aria-expanded={!header.collapsed}
          aria-label={`${header.collapsed ? 'Expand' : 'Collapse'} ${header.field} ${groupValueText(header.value, column)}`}
          tabIndex={-1}
        >
          {header.collapsed ? '▸' : '▾'}
        </button>
        <span className="td-group-field">{header.field}</span>
        <span className="td-group-value">{groupValueText(header.value, column)}</span>
        <span className="td-group-count">{plural(header.count, 'record')}</span>
      </div>
    );
  };
}
