/**
 * The grid's clipboard: copy gives the selection (a range's cells, the selected rows, or the focused cell) as
 * TSV (link cells as their names); paste fills from the focused cell down and right, adding rows past the last one
 * after asking, and reports what it skipped until the next action. Ctrl+V brings the text in its paste event;
 * the menu's Paste reads the clipboard itself, which the page must be allowed to (the browser asks the user;
 * the app grants its own page only, electron/permissions.ts).
 */
import type { ClipboardEvent } from 'react';
import type { Column } from '../../../core/contract';
import { plural } from '../../../core/records/format';
import type { RecordData } from '../../../core/records/types';
import { keysOf } from '../commands/shown';
import { formatCell } from '../grid/format';
import type { CellPosition } from '../grid/port';
import { linkText } from '../links/names';
import { pastedLinks } from '../links/paste-links';
import { recordIndexFrom } from '../grid/group-rows';
import type { Confirmation } from '../ui/ConfirmDialog';
import { inGrid } from '../grid/dom';
import type { FrameGrid } from './frame-grid';
import { planPaste } from './paste';
import type { TableEditing } from './table-editing';
import { focusedOf } from './selection';
import type { Selection } from './selection';
import { parseTsv, toTsv } from './tsv';

export interface GridClipboard {
  /** What copy gives for a selection, or undefined when there is nothing to copy. */
  copiedText: (selection: Selection) => string | undefined;
  /** Copies now through the browser's own copy (a menu item): no clipboard permission is asked. */
  copyNow: (selection: Selection) => void;
  /** Reads the clipboard and pastes it from this cell (a menu item): the page must be allowed to read it. */
  pasteNow: (at: CellPosition) => Promise<void>;
  onCopy: (e: ClipboardEvent) => void;
  onPaste: (e: ClipboardEvent) => void;
}

export function gridClipboard(
  editing: TableEditing,
  frame: FrameGrid,
  ask: (c: Confirmation) => void,
): GridClipboard {
  const grid = editing.grid;

  const copiedText = (selection: Selection): string | undefined => {
    const columns = frame.displayed();
    const text = (row: RecordData, f: Column) => {
      const value = editing.store.value(row, f.name);
      return linkText(f, value) ?? formatCell(value, f);
    };
    switch (selection.kind) {
      case 'none':
        return undefined;
      case 'rows':
      case 'view':
        // The whole view copies the rows loaded: the others have no values here yet.
        return toTsv(selection.rows.map((r) => columns.map((f) => text(r.record, f))));
      case 'range': {
        // The range's cells, row by row; group headers are passed over and rows not loaded copy as blanks.
        const { range } = selection;
        const fields = range.columns.flatMap((name) => columns.find((f) => f.name === name) ?? []);
        const bulk = frame.bulk();
        const lines: string[][] = [];
        for (let i = range.top; i <= range.bottom; i++) {
          const slot = bulk.rowAt(i);
          if (slot !== 'header') lines.push(fields.map((f) => (slot ? text(slot, f) : '')));
        }
        return toTsv(lines);
      }
      case 'cell': {
        const { focused } = selection;
        const row = frame.recordAt(focused);
        const field = columns.find((f) => f.name === focused.column);
        return row && field ? toTsv([[text(row, field)]]) : undefined;
      }
    }
  };

  const copyNow = (selection: Selection) => {
    const text = copiedText(selection);
    if (text === undefined) return;
    // The browser's own copy, so no clipboard permission is asked; it runs within the click.
    const give = (e: globalThis.ClipboardEvent) => {
      e.clipboardData?.setData('text/plain', text);
      e.preventDefault();
    };
    document.addEventListener('copy', give, { capture: true, once: true });
    if (!document.execCommand('copy')) document.removeEventListener('copy', give, { capture: true });
  };

  const onCopy = (e: ClipboardEvent) => {
    if (!inGrid(e.target) || frame.busy()) return;
    const text = copiedText(frame.selection());
    if (text === undefined) return;
    e.clipboardData.setData('text/plain', text);
    e.preventDefault();
  };

  /** Text pasted from a cell down and right. */
  const pasteAt = (text: string, focused: CellPosition) => {
    if (!grid) return;
    const columns = frame.displayed();
    const start = Math.max(
      0,
      columns.findIndex((c) => c.name === focused.column),
    );
    const { count, known } = grid.rowCount();
    const lines = parseTsv(text);
    const pasteColumns = columns.slice(start);
    // Lines go down the records, passing over the headers of a grouped view.
    const recordIndex = recordIndexFrom(grid, focused.row);
    // Names in link cells are looked up in their linked tables first (one request per table).
    void pastedLinks(editing.api, editing.target, lines, pasteColumns).then((links) => {
      const plan = planPaste(lines, {
        columns: pasteColumns,
        links,
        startRow: focused.row,
        rowAt: (i) => {
          if (focused.pinned) return grid.recordAt(i, true);
          const at = recordIndex(i - focused.row);
          return known && at >= count ? 'past-end' : grid.recordAt(at);
        },
        shown: (row, field) => editing.store.value(row, field),
      });
      const left = [
        ...(plan.unloaded > 0
          ? [`${plural(plan.unloaded, 'line')} fell on rows not loaded yet and were not pasted.`]
          : []),
        ...plan.problems,
      ];
      const run = async () => {
        void editing.edit(plan.changes);
        if (plan.creates.length > 0) await editing.create(plan.creates, plan.createTypecast);
        // One line per reason; the report goes at the user's next action.
        if (left.length > 0)
          editing.say(['Not pasted:', ...left].join('\n'), 'error', { untilNextAction: true });
      };
      if (plan.creates.length === 0) void run();
      else
        ask({
          title: 'Add rows',
          text: `This paste goes past the last row: it adds ${plural(plan.creates.length, 'new record')}${
            plan.changes.length > 0 ? ` and changes ${plural(plan.changes.length, 'row')}` : ''
          }.`,
          action: 'Add rows',
          run: () => void run(),
        });
    });
  };

  const onPaste = (e: ClipboardEvent) => {
    if (!inGrid(e.target) || frame.busy() || !grid) return;
    const text = e.clipboardData.getData('text/plain');
    if (text === '') return;
    e.preventDefault();
    const focused = focusedOf(frame.selection());
    if (!focused) {
      editing.say('Click the cell to paste into first.', 'error');
      return;
    }
    pasteAt(text, focused);
  };

  const pasteNow = async (at: CellPosition) => {
    let text: string;
    try {
      text = await navigator.clipboard.readText();
    } catch {
      // Refused by the user or the browser, or the page is not in front: the paste key needs no permission.
      editing.say(
        `TableDesk was not allowed to read the clipboard. Press ${keysOf('grid.paste')[0] ?? 'the paste key'} in the cell instead.`,
        'error',
      );
      return;
    }
    if (text !== '' && grid && !grid.gone()) pasteAt(text, at);
  };

  return { copiedText, copyNow, pasteNow, onCopy, onPaste };
}
