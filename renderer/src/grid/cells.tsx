/**
 * Cell renderers for the field types that are more than text: checkbox, select pills, link and attachment
 * chips. Plain text types use a value formatter instead (cheaper to render while scrolling).
 */
import type { CustomCellRendererProps } from 'ag-grid-react';
import type { Column } from '../../../core/contract';
import type { RecordData } from '../../../core/records/types';
import { genericText } from './format';

type Props = CustomCellRendererProps<RecordData, unknown> & { field: Column };

const COLOR_FAMILIES = ['blue', 'cyan', 'teal', 'green', 'yellow', 'orange', 'red', 'pink', 'purple', 'gray'];

/** Select colours are names like "redLight2" or "yellowBright": the family picks the pill's palette. */
function colorFamily(color: unknown): string {
  if (typeof color !== 'string') return 'gray';
  return COLOR_FAMILIES.find((f) => color.startsWith(f)) ?? 'gray';
}

/** Choices without a colour take one by position, so neighbouring choices still look different. */
function choiceColors(field: Column): Map<string, string> {
  const map = new Map<string, string>();
  const choices = field.options?.['choices'];
  if (Array.isArray(choices)) {
    (choices as { name?: unknown; color?: unknown }[]).forEach((c, i) => {
      const color = c.color === undefined ? COLOR_FAMILIES[i % COLOR_FAMILIES.length] : colorFamily(c.color);
      if (typeof c.name === 'string') map.set(c.name, color ?? 'gray');
    });
  }
  return map;
}

const colorCache = new WeakMap<Column, Map<string, string>>();
function colorOf(field: Column, name: string): string {
  let colors = colorCache.get(field);
  if (!colors) {
    colors = choiceColors(field);
    colorCache.set(field, colors);
  }
  return colors.get(name) ?? 'gray';
}

function asList(value: unknown): unknown[] {
  if (value === null || value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

export function CheckboxCell({ value }: Props) {
  if (value !== true) return null;
  return (
    <span className="td-check" role="img" aria-label="checked">
      ✓
    </span>
  );
}

export function SelectCell({ value, field }: Props) {
  return (
    <span className="td-chips">
      {asList(value).map((v, i) => {
        const name = genericText(v);
        return (
          <span key={i} className={`td-pill td-pill-${colorOf(field, name)}`}>
            {name}
          </span>
        );
      })}
    </span>
  );
}

export function LinkCell({ value }: Props) {
  return (
    <span className="td-chips">
      {asList(value).map((v, i) => (
        <span key={i} className="td-chip td-chip-link">
          {genericText(v)}
        </span>
      ))}
    </span>
  );
}

export function AttachmentCell({ value }: Props) {
  return (
    <span className="td-chips">
      {asList(value).map((v, i) => {
        const a = (v ?? {}) as { filename?: unknown; type?: unknown };
        const label = typeof a.filename === 'string' ? a.filename : genericText(v);
        return (
          <span
            key={i}
            className="td-chip td-chip-file"
            title={typeof a.type === 'string' ? a.type : undefined}
          >
            📎 {label}
          </span>
        );
      })}
    </span>
  );
}
