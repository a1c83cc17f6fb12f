/**
 * Row height, as Airtable names its sizes: short rows show one line; taller rows wrap text over the lines
 * they have room for (the grid counts them from the height it is given: grid/TableGrid.tsx, grid/grid.css).
 */
import './row-height.css';

export const ROW_HEIGHTS = { short: 32, medium: 56, tall: 88, 'extra-tall': 128 } as const;
export type RowHeight = keyof typeof ROW_HEIGHTS;

const LABELS: Record<RowHeight, string> = {
  short: 'Short',
  medium: 'Medium',
  tall: 'Tall',
  'extra-tall': 'Extra tall',
};

export const isRowHeight = (v: unknown): v is RowHeight =>
  typeof v === 'string' && Object.hasOwn(ROW_HEIGHTS, v);

export function RowHeightPicker({ value, onChange }: { value: RowHeight; onChange: (h: RowHeight) => void }) {
  return (
    <label className="td-row-height">
      Rows
      <select
        aria-label="Row height"
        value={value}
        onChange={(e) => {
          if (isRowHeight(e.target.value)) onChange(e.target.value);
        }}
      >
        {Object.entries(LABELS).map(([h, label]) => (
          <option key={h} value={h}>
            {label}
          </option>
        ))}
      </select>
    </label>
  );
}
