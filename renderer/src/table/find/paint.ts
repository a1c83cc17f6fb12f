/**
 * Find's highlights over the rows the grid has drawn, without touching its cells: a cell whose searched text
 * matches gets a class (the whole cell, which is all a number or date shows, since its shown text is
 * formatted), and each place the search appears in a cell's shown text becomes a range of the CSS Custom
 * Highlight API, painted by the stylesheet's `::highlight(td-find)`. No cell renderer, React component or
 * grid refresh is involved, so typing costs one pass over the drawn cells (a few hundred), whatever the view.
 */
import type { Column } from '../../../../core/contract';
import { cellMatches } from '../../../../core/records/find-formula';
import type { RecordData } from '../../../../core/records/types';
import { cellColumn, drawnRows, rowCells, rowRecordId } from '../../grid/dom';
import type { GridPort } from '../../grid/port';

export const HIT_CLASS = 'td-find-hit';
export const CURRENT_CLASS = 'td-find-current';
export const HIGHLIGHT_NAME = 'td-find';

/** Chromium 105+ (and Electron's) has the Highlight API; elsewhere only the cell class shows. */
const registry = (): HighlightRegistry | undefined =>
  typeof CSS !== 'undefined' && 'highlights' in CSS ? CSS.highlights : undefined;

function isRecord(data: unknown): data is RecordData {
  return typeof data === 'object' && data !== null && 'fields' in data && 'id' in data;
}

/** Ranges of every case-insensitive occurrence of `needle` in the cell's text nodes. */
function rangesIn(cell: Element, needle: string, out: Range[]): void {
  const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const text = node.nodeValue ?? '';
    const lower = text.toLowerCase();
    // Case folding that changes a text's length would put ranges in the wrong places.
    if (lower.length !== text.length) continue;
    for (let at = lower.indexOf(needle); at !== -1; at = lower.indexOf(needle, at + needle.length)) {
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + needle.length);
      out.push(range);
    }
  }
}

/**
 * Marks matching cells among the rows drawn in `root` and paints the search's occurrences; `text` empty
 * clears everything. `current` is the record of the match Next or Previous went to.
 */
export function paintFind(
  root: HTMLElement,
  api: GridPort,
  fields: ReadonlyMap<string, Column>,
  text: string,
  current: string | undefined,
): number {
  const ranges: Range[] = [];
  const needle = text.toLowerCase();
  let hits = 0;
  for (const row of drawnRows(root)) {
    const id = rowRecordId(row);
    const data = text === '' ? undefined : api.rowOf(id)?.record;
    for (const cell of rowCells(row)) {
      const field = fields.get(cellColumn(cell));
      const hit = field !== undefined && isRecord(data) && cellMatches(field, data.fields[field.name], text);
      cell.classList.toggle(HIT_CLASS, hit);
      cell.classList.toggle(CURRENT_CLASS, hit && isRecord(data) && data.id === current);
      if (!hit) continue;
      hits++;
      rangesIn(cell, needle, ranges);
    }
  }
  const highlights = registry();
  if (highlights) {
    if (ranges.length === 0) highlights.delete(HIGHLIGHT_NAME);
    else highlights.set(HIGHLIGHT_NAME, new Highlight(...ranges));
  }
  return hits;
}

/**
 * Paints now and again whenever the grid draws rows or cells (a scroll, a new block, a refreshed cell), at
 * most once a frame; the returned function stops and clears. Only childList and text changes are watched,
 * so the pass's own class changes do not wake it.
 */
export function watchFind(root: HTMLElement, paint: () => void): () => void {
  let frame: number | undefined;
  const schedule = () => {
    frame ??= requestAnimationFrame(() => {
      frame = undefined;
      paint();
    });
  };
  const observer = new MutationObserver(schedule);
  observer.observe(root, { childList: true, subtree: true, characterData: true });
  paint();
  return () => {
    observer.disconnect();
    if (frame !== undefined) cancelAnimationFrame(frame);
  };
}
