/**
 * Each table tab's layout, remembered across restarts in localStorage: the view, formula, hidden fields
 * (the `fields` asked for), sort, row height, the columns' order, widths and freezing, and the summary bar's
 * choices. The stored text is
 * read like any input from outside: parsed in a bounded size, each part checked and bounded, the rest dropped.
 */
import type { Column } from '../../../core/contract';
import { SUMMARY_KINDS } from '../../../core/records/aggregate';
import type { SummaryKind } from '../../../core/records/aggregate';
import type { SortDirection, SortSpec, TableSchema } from '../../../core/records/types';
import { isOwnColumn } from '../grid/ag-port';
import type { ColumnLayout, GridPort } from '../grid/port';
import { isRowHeight } from './row-height';
import type { RowHeight } from './row-height';

/** A column's summary in the summary bar. */
export interface SummaryChoice {
  field: string;
  kind: SummaryKind;
}

export interface TabLayout {
  view?: string;
  formula?: string;
  fields?: string[];
  sort?: SortSpec[];
  columns?: ColumnLayout[];
  rowHeight?: RowHeight;
  summaries?: SummaryChoice[];
}

const PREFIX = 'tabledesk.layout.';
const MAX_TEXT = 200_000;
const MAX_NAME = 500;
/** The service's limit on a formula sent as a filter. */
const MAX_FORMULA = 16_000;
const MAX_COLUMNS = 500;
/** The service takes at most 20 sort fields. */
const MAX_SORT = 20;
const MIN_WIDTH = 20;
const MAX_WIDTH = 4000;

const isName = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= MAX_NAME;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const list = (v: unknown, max: number): unknown[] => (Array.isArray(v) ? v.slice(0, max) : []);

function sortOf(v: unknown): SortSpec[] | undefined {
  const sort = list(v, MAX_SORT).flatMap((s) =>
    isObject(s) && isName(s.field) && (s.direction === 'asc' || s.direction === 'desc')
      ? [{ field: s.field, direction: s.direction as SortDirection }]
      : [],
  );
  return sort.length > 0 ? sort : undefined;
}

function columnOf(v: unknown): ColumnLayout[] {
  if (!isObject(v) || !isName(v.id) || isOwnColumn(v.id)) return [];
  const width = typeof v.width === 'number' && Number.isFinite(v.width) ? Math.round(v.width) : undefined;
  return [
    {
      id: v.id,
      ...(width !== undefined ? { width: Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, width)) } : {}),
      ...(v.pinned === 'left' || v.pinned === 'right' ? { pinned: v.pinned } : {}),
    },
  ];
}

/** One summary a field, the last one named. */
function summariesOf(v: unknown): SummaryChoice[] {
  const byField = new Map<string, SummaryKind>();
  for (const s of list(v, MAX_COLUMNS))
    if (isObject(s) && isName(s.field) && SUMMARY_KINDS.includes(s.kind as SummaryKind))
      byField.set(s.field, s.kind as SummaryKind);
  return [...byField].map(([field, kind]) => ({ field, kind }));
}

/** Checks stored text: anything malformed, oversized or of the wrong type is left out. */
export function parseLayout(text: string | null): TabLayout {
  if (text === null || text.length > MAX_TEXT) return {};
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return {};
  }
  if (!isObject(raw)) return {};
  const fields = list(raw.fields, MAX_COLUMNS).filter(isName);
  const columns = list(raw.columns, MAX_COLUMNS).flatMap(columnOf);
  const sort = sortOf(raw.sort);
  const summaries = summariesOf(raw.summaries);
  const formula =
    typeof raw.formula === 'string' && raw.formula.trim() !== '' && raw.formula.length <= MAX_FORMULA
      ? raw.formula
      : undefined;
  return {
    ...(isName(raw.view) ? { view: raw.view } : {}),
    ...(formula !== undefined ? { formula } : {}),
    ...(fields.length > 0 ? { fields } : {}),
    ...(sort ? { sort } : {}),
    ...(columns.length > 0 ? { columns } : {}),
    ...(isRowHeight(raw.rowHeight) ? { rowHeight: raw.rowHeight } : {}),
    ...(summaries.length > 0 ? { summaries } : {}),
  };
}

export function loadLayout(tableKey: string): TabLayout {
  try {
    return parseLayout(window.localStorage.getItem(PREFIX + tableKey));
  } catch {
    return {};
  }
}

export function saveLayout(tableKey: string, layout: TabLayout): void {
  try {
    window.localStorage.setItem(PREFIX + tableKey, JSON.stringify(layout));
  } catch {
    // A full or disabled storage only costs the next start this tab's layout.
  }
}

/** The grid's columns (order, widths, freezing) and its sort, as remembered. */
export function gridLayout(grid: GridPort): Pick<TabLayout, 'columns' | 'sort'> {
  const sort = grid.sort().map((s) => ({ field: s.column, direction: s.direction }));
  return { columns: grid.columnLayout(), ...(sort.length > 0 ? { sort } : {}) };
}

/**
 * Puts remembered columns back: their order (the grid's own columns, such as row selection, stay first, and
 * fields not remembered keep their order after the remembered ones), widths and freezing, and the sort. A
 * field the table no longer has is skipped.
 */
export function applyGridLayout(grid: GridPort, layout: Pick<TabLayout, 'columns' | 'sort'>): void {
  const present = new Set(grid.columnLayout().map((c) => c.id));
  grid.applyLayout(
    (layout.columns ?? []).filter((c) => present.has(c.id)),
    // A remembered sort always has its direction (parseLayout); the service's default is ascending.
    (layout.sort ?? []).map((s) => ({ column: s.field, direction: s.direction ?? 'asc' })),
  );
}

/**
 * The query part of a remembered layout: the view, formula and fields a tab opens with. Where the schema is
 * known, a view or field the table no longer has is left out rather than sent to be refused.
 */
export function layoutQuery(
  layout: TabLayout,
  schema: TableSchema | undefined,
): Pick<TabLayout, 'view' | 'formula' | 'fields'> {
  const { formula } = layout;
  const view = schema && !schema.views.some((v) => v.name === layout.view) ? undefined : layout.view;
  const fields = schema
    ? layout.fields?.filter((f) => schema.fields.some((s) => s.name === f))
    : layout.fields;
  return {
    ...(view ? { view } : {}),
    ...(formula ? { formula } : {}),
    ...(fields?.length ? { fields } : {}),
  };
}

/**
 * A tab reopened with hidden fields asks the service for the shown ones only; the table's schema still names
 * every field, so the field chooser can offer the hidden ones again.
 */
export function schemaColumns(schema: TableSchema | undefined): readonly Column[] {
  return (schema?.fields ?? []).map((f) => ({
    id: f.id,
    name: f.name,
    type: f.type,
    primary: f.id === schema?.primaryFieldId,
    options: f.options ?? null,
    inferred: false,
  }));
}
