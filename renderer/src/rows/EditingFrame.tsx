/**
 * The editing frame around a table's grid: row actions (add, delete, open, undo, redo, export), the
 * queue's notices, and the grid's keys (the command table's `grid` scope) and clipboard: undo and redo,
 * Space opens the focused record (or flips a checkbox), Ctrl+Space and Shift+arrows select rows (with no
 * rows selected, Shift+arrows and Shift+click grow a range of cells, and copy gives the range), Delete
 * deletes the selected rows after one confirmation (or clears a range of cells), Ctrl+D fills down, copy gives
 * TSV, paste fills a range or adds rows (asking first) and reports what it skipped until the next action. An
 * editor refusing its text says why by the cell; a value typed over someone else's new change asks first.
 */
import { useRef, useState } from 'react';
import type { ClipboardEvent, KeyboardEvent, MouseEvent, ReactNode } from 'react';
import type { CellPosition } from 'ag-grid-community';
import type { Column } from '../../../core/contract';
import { MAX_EDITS_PER_CALL } from '../../../core/contract/edits';
import { plural } from '../../../core/records/format';
import type { RecordData } from '../../../core/records/types';
import { matchCommand } from '../commands/match';
import { CommandMenu } from '../commands/CommandMenu';
import type { MenuItem } from '../commands/CommandMenu';
import { MAC, keysOf, shortcutProps, titleOf, typingIn } from '../commands/shown';
import { isToggle } from '../editing/column-editing';
import { tabledesk } from '../bridge';
import { EditNotices } from '../editing/EditNotices';
import { formatCell } from '../grid/format';
import { linkText } from '../links/names';
import { pastedLinks } from '../links/paste-links';
import { cellProblem } from './cell-problem';
import type { CellProblem } from './cell-problem';
import { groupHeaderOf, recordIndexFrom } from '../table/groups/group-rows';
import { ConfirmDialog } from './ConfirmDialog';
import type { Confirmation } from './ConfirmDialog';
import { OverwriteDialog } from './OverwriteDialog';
import { ExportPanel, exportShort } from './export/ExportPanel';
import { useExportJob } from './export/useExportJob';
import type { ExportQuery } from './export/useExportJob';
import { ImportDialog } from './import/ImportDialog';
import { planPaste } from './paste';
import { ReplaceControl } from './replace/ReplaceControl';
import { RecordDetail } from './RecordDetail';
import { AttachmentDrop, UploadBar } from './attachments/UploadBar';
import { useSelectAll } from './select-all';
import type { ViewCount } from '../status/StatusBar';
import type { EditingView, TableEditing } from './table-editing';
import { parseTsv, toTsv } from './tsv';
import { planClear, planFillDown, planFillDrag, planSetField } from './range/bulk-plan';
import type { BulkGrid, BulkPlan } from './range/bulk-plan';
import { SetFieldDialog } from './range/SetFieldDialog';
import { useCellRange } from './range/useCellRange';
import { isArrowKey } from './range/cell-range';

interface Props {
  editing: TableEditing;
  view: EditingView;
  selectedCount: number;
  /** The tab's query without sort (the grid holds the sort). */
  query: Omit<ExportQuery, 'sort'>;
  total: number | undefined;
  /** The open view and its record count, for selecting all of it. */
  viewId?: string | undefined;
  count?: ViewCount | undefined;
  /** A cell menu's items about its column (sort, filter by the value, hide), from the tab. */
  columnMenu: (colId: string, value: { value: unknown }) => MenuItem[];
  children: ReactNode;
}

const inGrid = (el: EventTarget): boolean => el instanceof Element && el.closest('.ag-root-wrapper') !== null;

export function EditingFrame({
  editing,
  view,
  selectedCount,
  query,
  total,
  viewId,
  count,
  columnMenu,
  children,
}: Props) {
  const [ask, setAsk] = useState<Confirmation>();
  const [detail, setDetail] = useState<{ index: number; pinned: boolean }>();
  const [problem, setProblem] = useState<CellProblem>();
  const [adding, setAdding] = useState(false);
  const frame = useRef<HTMLDivElement>(null);
  const exporter = useExportJob(editing.target);
  const [exportHidden, setExportHidden] = useState(false);
  const [importing, setImporting] = useState(false);
  const exportRunning = exporter.job?.state === 'running';
  const grid = editing.gridApi;
  const selectAll = useSelectAll({ api: tabledesk(), frame, viewId, count, selectedCount, ask: setAsk });
  const busy = () => !grid || grid.getEditingCells().length > 0;
  const [setField, setSetField] = useState<{ rows: number[]; note?: string }>();
  const [menu, setMenu] = useState<{ at: { left: number; top: number }; items: MenuItem[]; label: string }>();

  /** Field columns as displayed, left to right. */
  const displayed = (): Column[] =>
    (grid?.getAllDisplayedColumns() ?? []).flatMap((c) =>
      editing.fields.filter((f) => f.name === c.getColId()),
    );

  const replaceContext = () => ({
    target: editing.target,
    query: { view: query.view, formula: query.formula },
    fields: displayed(),
    selectedIds: selectedRows().map((r) => r.id),
    focusedColumn: grid?.getFocusedCell()?.column.getColId(),
  });

  const selectedRows = (): RecordData[] =>
    (grid?.getSelectedNodes() ?? [])
      .filter((n) => n.data !== undefined)
      .sort((a, b) => (a.rowIndex ?? 0) - (b.rowIndex ?? 0))
      .map((n) => n.data as RecordData);

  /** The grid as fill, clear and set-field read it: rows by index, fields, what each cell shows. */
  const bulkGrid = (): BulkGrid => ({
    rowAt: (i) => {
      const data = grid?.getDisplayedRowAtIndex(i)?.data;
      return groupHeaderOf(data) ? 'header' : data;
    },
    field: (name) => editing.fields.find((f) => f.name === name),
    shown: (row, field) => editing.store.value(row, field),
  });

  /** One plan, one `edits.edit` call (one undo step), and a line on what was done and what was left out. */
  const runBulk = (plan: BulkPlan, done: string) => {
    const left = [
      ...plan.skipped,
      ...(plan.unloaded > 0 ? [`${plural(plan.unloaded, 'row')} not loaded yet left out`] : []),
    ];
    if (plan.changes.length > MAX_EDITS_PER_CALL) {
      editing.say(
        `This would change ${plural(plan.changes.length, 'record')}, more than one change may hold (${MAX_EDITS_PER_CALL.toLocaleString()} records, one undo step): nothing was sent. Choose fewer rows, or filter the view.`,
        'error',
      );
      return;
    }
    if (plan.changes.length > 0) void editing.edit(plan.changes);
    const head = plan.cells > 0 ? `${done} ${plural(plan.cells, 'cell')}.` : 'Nothing to change.';
    editing.say(
      [head, ...(left.length > 0 ? ['Left out:', ...left] : [])].join('\n'),
      left.length > 0 ? 'error' : 'info',
      {
        untilNextAction: left.length > 0,
      },
    );
  };

  const selectedIndexes = (): number[] =>
    (grid?.getSelectedNodes() ?? [])
      .flatMap((n) => (n.rowPinned || n.rowIndex === null ? [] : [n.rowIndex]))
      .sort((a, b) => a - b);

  const fieldNames = () => displayed().map((f) => f.name);
  const cells = useCellRange({
    editing,
    frame,
    displayed: fieldNames,
    busy,
    rowsSelected: () => (grid?.getSelectedNodes().length ?? 0) > 0,
    onFill: (source, target) => runBulk(planFillDrag(bulkGrid(), source, target), 'Filled'),
  });

  /** Ctrl+D: a range fills down from its first row; else the selected rows, in the focused column. */
  const fillDown = () => {
    const range = editing.range.multi;
    if (range && range.bottom > range.top) {
      const rows = Array.from({ length: range.bottom - range.top + 1 }, (_, i) => range.top + i);
      runBulk(planFillDown(bulkGrid(), rows, range.columns), 'Filled');
      return;
    }
    const column = grid?.getFocusedCell()?.column.getColId();
    const rows = selectedIndexes();
    if (column === undefined || !fieldNames().includes(column) || rows.length < 2) {
      editing.say(
        `Choose cells down a column (drag over them) or select rows first, then ${keysOf('grid.fillDown')[0] ?? 'Fill down'}.`,
        'info',
      );
      return;
    }
    runBulk(planFillDown(bulkGrid(), rows, [column]), 'Filled');
  };

  const clearRange = () => {
    const range = editing.range.multi;
    if (range) runBulk(planClear(bulkGrid(), range), 'Cleared');
  };

  /** Set field: the selected rows, else the rows of the range of cells. */
  const askSetField = () => {
    const range = editing.range.multi;
    let rows = selectedIndexes();
    if (rows.length === 0 && range)
      rows = Array.from({ length: range.bottom - range.top + 1 }, (_, i) => range.top + i);
    if (rows.length === 0) return;
    const whole = selectAll.wholeView;
    setSetField({
      rows,
      ...(whole !== undefined && whole > rows.length
        ? {
            note: `Only the ${plural(rows.length, 'loaded row')} of the ${whole.toLocaleString()} in this view are set (one undo step); scroll to load more, or filter the view to the rows you mean.`,
          }
        : {}),
    });
  };

  const askDelete = () => {
    const whole = selectAll.wholeView;
    if (whole !== undefined) {
      setAsk({
        title: 'Delete records',
        text: `Delete all ${plural(whole, 'record')} of this view? ${titleOf('grid.undo')} re-creates them with new ids.`,
        action: 'Delete',
        run: () =>
          void selectAll.readAll().then((rows) => {
            selectAll.clear();
            if (rows && rows.length > 0) void editing.delete(rows);
          }),
      });
      return;
    }
    confirmDelete(selectedRows());
  };

  const confirmDelete = (rows: RecordData[]) => {
    if (rows.length === 0) return;
    setAsk({
      title: 'Delete records',
      text: `Delete ${plural(rows.length, 'record')}? ${titleOf('grid.undo')} re-creates them with new ids.`,
      action: 'Delete',
      run: () => void editing.delete(rows),
    });
  };

  /**
   * A cell's or row number's menu: expand, copy, select, delete (the selected rows when the row is one of
   * them), then what the column's menu offers about this value. Opened on a loaded record's row only.
   */
  const openMenu = (cell: CellPosition, at: { left: number; top: number }) => {
    const node = rowAt(cell);
    const data = node?.data;
    if (!grid || !node || !data || groupHeaderOf(data)) return;
    grid.setFocusedCell(cell.rowIndex, cell.column, cell.rowPinned);
    const colId = cell.column.getColId();
    const field = editing.fields.find((f) => f.name === colId);
    const selected = node.isSelected();
    const rows = selected ? selectedRows() : [data];
    const copy = () => {
      const text = copiedText();
      if (text === undefined) return;
      // The browser's own copy, so no clipboard permission is asked; it runs within the click.
      const give = (e: globalThis.ClipboardEvent) => {
        e.clipboardData?.setData('text/plain', text);
        e.preventDefault();
      };
      document.addEventListener('copy', give, { capture: true, once: true });
      if (!document.execCommand('copy')) document.removeEventListener('copy', give, { capture: true });
    };
    const items: MenuItem[] = [
      {
        id: 'grid.open',
        label: 'Expand record',
        run: () => setDetail({ index: cell.rowIndex, pinned: cell.rowPinned === 'top' }),
      },
      ...(field ? [{ id: 'grid.copy' as const, label: 'Copy', run: copy }] : []),
      {
        id: 'grid.selectRow',
        label: selected ? 'Unselect row' : 'Select row',
        run: () => node.setSelected(!selected),
      },
      { id: 'grid.delete', label: `Delete ${plural(rows.length, 'record')}`, run: () => confirmDelete(rows) },
      ...(field ? columnMenu(colId, { value: data.fields[colId] }) : []),
    ];
    const row = cell.rowPinned === 'top' ? 'new row' : `row ${cell.rowIndex + 1}`;
    setMenu({ at, items, label: field ? `${field.name}, ${row}` : row });
  };

  const closeMenu = () => {
    const inMenu = (document.activeElement?.closest('[role="menu"]') ?? null) !== null;
    setMenu(undefined);
    if (inMenu) refocusGrid();
  };

  const onContextMenu = (e: MouseEvent) => {
    if (!(e.target instanceof Element) || busy() || !grid) return;
    const cellEl = e.target.closest('.ag-cell[col-id]');
    const rowEl = e.target.closest('.ag-row[row-index]');
    const column = grid.getColumn(cellEl?.getAttribute('col-id') ?? '');
    const index = Number(rowEl?.getAttribute('row-index'));
    if (!cellEl || !column || !Number.isInteger(index)) return;
    e.preventDefault();
    const pinned = cellEl.closest('.ag-floating-top') ? 'top' : null;
    openMenu({ rowIndex: index, column, rowPinned: pinned }, { left: e.clientX, top: e.clientY });
  };

  const rowAt = (cell: CellPosition) =>
    cell.rowPinned === 'top'
      ? grid?.getPinnedTopRow(cell.rowIndex)
      : grid?.getDisplayedRowAtIndex(cell.rowIndex);

  const openFocused = () => {
    const focused = grid?.getFocusedCell();
    if (focused && groupHeaderOf(rowAt(focused)?.data)) return;
    setDetail({ index: focused?.rowIndex ?? 0, pinned: focused?.rowPinned === 'top' });
  };

  /** Back to the grid's focused cell once a dialog closes, so its keys (Ctrl+Z first) work at once. */
  const refocusGrid = () => {
    const cell = grid?.getFocusedCell();
    if (cell) grid?.setFocusedCell(cell.rowIndex, cell.column, cell.rowPinned);
  };

  const startExport = () => {
    setExportHidden(false);
    // A hidden export is shown again, not started twice.
    if (exportRunning) return;
    const sort = (grid?.getColumnState() ?? [])
      .filter((c) => c.sort)
      .sort((a, b) => (a.sortIndex ?? 0) - (b.sortIndex ?? 0))
      .map((c) => ({ field: c.colId, direction: c.sort ?? 'asc' }));
    exporter.start(
      { ...query, ...(sort.length > 0 ? { sort } : {}) },
      displayed().map((c) => c.name),
    );
  };

  /** After the grid has handled a key: the editor it kept open, if any, and why. */
  const checkProblem = () =>
    setTimeout(() =>
      setProblem(grid && frame.current ? cellProblem(grid, editing.fields, frame.current) : undefined),
    );

  const onAction = () => {
    if (view.message?.untilNextAction) editing.clearMessage();
  };

  const onKeyDown = (e: KeyboardEvent) => {
    onAction();
    if (problem || e.key === 'Enter' || e.key === 'Tab') checkProblem();
    // A cell being edited, or any text field, keeps its keys: the grid's commands are not asked then.
    const command = matchCommand(e, ['grid'], { mac: MAC, typing: busy() || typingIn(e.target) });
    if (command === 'grid.undo' || command === 'grid.redo') {
      // From the grid, or from the row buttons just clicked (Undo, Delete), not from a dialog.
      const onButton = e.target instanceof HTMLButtonElement && e.target.closest('[role="dialog"]') === null;
      if (!inGrid(e.target) && !onButton) return;
      // The grid's own undo would act on its cell edits only (and sorting wipes it): the app's history rules.
      e.preventDefault();
      e.stopPropagation();
      void (command === 'grid.redo' ? editing.redo() : editing.undo());
      return;
    }
    if (command === undefined || !inGrid(e.target) || !grid) return;
    const focused = grid.getFocusedCell();
    // A group header's keys are its own (Enter or Space collapse it).
    if (focused && groupHeaderOf(rowAt(focused)?.data)) return;
    const node = focused ? rowAt(focused) : undefined;
    switch (command) {
      case 'grid.open': {
        if (!focused) return;
        e.preventDefault();
        const field = editing.fields.find((f) => f.name === focused.column.getColId());
        if (isToggle(field) && node?.data) editing.toggle(node.data, field);
        else setDetail({ index: focused.rowIndex, pinned: focused.rowPinned === 'top' });
        return;
      }
      case 'grid.selectRow':
        if (!focused) return;
        e.preventDefault();
        node?.setSelected(!node.isSelected());
        return;
      case 'grid.extend':
        if (!isArrowKey(e.key)) return;
        if (selectedCount === 0 && cells.extend(e.key, e.ctrlKey || e.metaKey)) {
          // A range grows from its anchor; the grid's own Shift+Arrow would only move the focus.
          e.preventDefault();
          e.stopPropagation();
        } else if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && focused) {
          // Seen before the grid moves the focus: select the row left and the row about to be reached.
          const to = focused.rowIndex + (e.key === 'ArrowDown' ? 1 : -1);
          grid.getDisplayedRowAtIndex(focused.rowIndex)?.setSelected(true);
          grid.getDisplayedRowAtIndex(to)?.setSelected(true);
        }
        return;
      case 'grid.fillDown':
        // The browser's own Ctrl+D (a bookmark) is not wanted over the grid.
        e.preventDefault();
        e.stopPropagation();
        fillDown();
        return;
      case 'grid.delete':
        if (editing.range.multi) {
          e.preventDefault();
          clearRange();
        } else if (selectedCount > 0) {
          e.preventDefault();
          askDelete();
        }
        return;
      case 'grid.contextMenu': {
        const el = e.target instanceof Element ? e.target.closest('.ag-cell') : null;
        // A header's menu is its own (column-header.ts).
        if (!focused || !el) return;
        e.preventDefault();
        e.stopPropagation();
        const rect = el.getBoundingClientRect();
        openMenu(focused, { left: rect.left, top: rect.bottom });
        return;
      }
      case 'grid.clearRange':
        if (editing.range.multi) editing.range.set(undefined);
        return;
      default:
        return;
    }
  };

  /** What copy gives: the selected rows, else the range of cells, else the focused cell, as TSV. */
  const copiedText = (): string | undefined => {
    if (!grid) return undefined;
    const columns = displayed();
    const text = (row: RecordData, f: Column) => {
      const value = editing.store.value(row, f.name);
      return linkText(f, value) ?? formatCell(value, f);
    };
    const rows = selectedRows();
    const range = editing.range.multi;
    let lines: string[][];
    if (rows.length > 0) lines = rows.map((r) => columns.map((f) => text(r, f)));
    else if (range) {
      // The range's cells, row by row; group headers are passed over and rows not loaded copy as blanks.
      const fields = range.columns.flatMap((name) => columns.find((f) => f.name === name) ?? []);
      lines = [];
      for (let i = range.top; i <= range.bottom; i++) {
        const slot = bulkGrid().rowAt(i);
        if (slot !== 'header') lines.push(fields.map((f) => (slot ? text(slot, f) : '')));
      }
    } else {
      const focused = grid.getFocusedCell();
      const row = focused ? rowAt(focused)?.data : undefined;
      const field = columns.find((f) => f.name === focused?.column.getColId());
      if (!row || !field) return undefined;
      lines = [[text(row, field)]];
    }
    return toTsv(lines);
  };

  const onCopy = (e: ClipboardEvent) => {
    if (!inGrid(e.target) || busy()) return;
    const text = copiedText();
    if (text === undefined) return;
    e.clipboardData.setData('text/plain', text);
    e.preventDefault();
  };

  const onPaste = (e: ClipboardEvent) => {
    if (!inGrid(e.target) || busy() || !grid) return;
    const text = e.clipboardData.getData('text/plain');
    if (text === '') return;
    e.preventDefault();
    const focused = grid.getFocusedCell();
    if (!focused) {
      editing.say('Click the cell to paste into first.', 'error');
      return;
    }
    const columns = displayed();
    const start = Math.max(
      0,
      columns.findIndex((c) => c.name === focused.column.getColId()),
    );
    const count = grid.getDisplayedRowCount();
    const known = grid.isLastRowIndexKnown() ?? false;
    const lines = parseTsv(text);
    const pasteColumns = columns.slice(start);
    // Lines go down the records, passing over the headers of a grouped view.
    const recordIndex = recordIndexFrom(grid, focused.rowIndex);
    // Names in link cells are looked up in their linked tables first (one request per table).
    void pastedLinks(editing.target, lines, pasteColumns).then((links) => {
      const plan = planPaste(lines, {
        columns: pasteColumns,
        links,
        startRow: focused.rowIndex,
        rowAt: (i) => {
          if (focused.rowPinned === 'top') return grid.getPinnedTopRow(i)?.data;
          const at = recordIndex(i - focused.rowIndex);
          return known && at >= count ? 'past-end' : grid.getDisplayedRowAtIndex(at)?.data;
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
        setAsk({
          title: 'Add rows',
          text: `This paste goes past the last row: it adds ${plural(plan.creates.length, 'new record')}${
            plan.changes.length > 0 ? ` and changes ${plural(plan.changes.length, 'row')}` : ''
          }.`,
          action: 'Add rows',
          run: () => void run(),
        });
    });
  };

  const history = view.history;
  return (
    <div
      className="td-editing"
      ref={frame}
      onKeyDownCapture={onKeyDown}
      onInputCapture={() => problem && checkProblem()}
      onPointerDownCapture={(e) => {
        onAction();
        if (problem) checkProblem();
        cells.onPointerDown(e);
      }}
      onCopy={onCopy}
      onPaste={onPaste}
      onContextMenu={onContextMenu}
    >
      <div className="td-row-actions" role="toolbar" aria-label="Rows">
        <button
          type="button"
          // One row per click: keys typed (or Enter) before the new row has its focus would add another.
          disabled={adding}
          onClick={() => {
            setAdding(true);
            void editing.addRow(displayed()[0]?.name).finally(() => setAdding(false));
          }}
        >
          Add row
        </button>
        <button
          type="button"
          disabled={
            (selectedCount === 0 && selectAll.wholeView === undefined) || selectAll.reading !== undefined
          }
          onClick={askDelete}
        >
          Delete
          {selectAll.wholeView !== undefined
            ? ` ${plural(selectAll.wholeView, 'row')}`
            : selectedCount > 0
              ? ` ${plural(selectedCount, 'row')}`
              : ''}
        </button>
        <button
          type="button"
          disabled={selectedCount === 0 && editing.range.multi === undefined}
          onClick={askSetField}
          title="Set one field to one value for the selected rows"
        >
          Set field…
        </button>
        <button
          type="button"
          onClick={openFocused}
          {...shortcutProps('grid.open', 'Open the focused record')}
        >
          Open record
        </button>
        <button
          type="button"
          disabled={!history?.canUndo}
          {...shortcutProps('grid.undo', history?.undoLabel)}
          onClick={() => void editing.undo()}
        >
          Undo
        </button>
        <button
          type="button"
          disabled={!history?.canRedo}
          {...shortcutProps('grid.redo', history?.redoLabel)}
          onClick={() => void editing.redo()}
        >
          Redo
        </button>
        <button type="button" onClick={startExport}>
          Export CSV
          {exportRunning && exportHidden && exporter.job ? ` · ${exportShort(exporter.job, total)}` : ''}
        </button>
        <button type="button" onClick={() => setImporting(true)}>
          Import CSV
        </button>
        <ReplaceControl frame={frame} context={replaceContext} onClosed={refocusGrid} />
      </div>
      {selectAll.reading && (
        <div className="td-select-reading" role="status">
          Reading the records to delete: {selectAll.reading.read.toLocaleString()} of{' '}
          {selectAll.reading.total.toLocaleString()}
          <progress max={selectAll.reading.total} value={selectAll.reading.read} />
          <button type="button" onClick={selectAll.cancelReading}>
            Cancel
          </button>
        </div>
      )}
      <EditNotices editing={editing} view={view} />
      <UploadBar editing={editing} />
      <AttachmentDrop editing={editing}>{children}</AttachmentDrop>
      {cells.handle && cells.dragging !== 'fill' && (
        <div
          className="td-fill-handle"
          data-testid="fill-handle"
          title="Drag to fill"
          style={{ left: cells.handle.left, top: cells.handle.top }}
          onPointerDown={cells.onHandleDown}
        />
      )}
      {problem && (
        <div className="td-cell-problem" role="alert" style={{ top: problem.top, left: problem.left }}>
          {problem.text}
        </div>
      )}
      {menu && <CommandMenu label={menu.label} items={menu.items} at={menu.at} onClose={closeMenu} />}
      {ask && (
        <ConfirmDialog
          ask={ask}
          onClose={() => {
            setAsk(undefined);
            refocusGrid();
          }}
        />
      )}
      {view.overwrite && (
        <OverwriteDialog
          question={view.overwrite}
          onAnswer={(overwrite) => {
            editing.answerOverwrite(overwrite);
            refocusGrid();
          }}
        />
      )}
      {setField && (
        <SetFieldDialog
          fields={displayed()}
          rows={setField.rows.length}
          note={setField.note}
          onClose={() => {
            setSetField(undefined);
            refocusGrid();
          }}
          onApply={(field, value) =>
            runBulk(planSetField(bulkGrid(), setField.rows, field.name, value), `Set ${field.name} in`)
          }
        />
      )}
      {detail !== undefined && (
        <RecordDetail
          editing={editing}
          index={detail.index}
          pinned={detail.pinned}
          revision={view.revision}
          onIndex={(index) => setDetail({ index, pinned: false })}
          onClose={() => {
            setDetail(undefined);
            grid?.setFocusedCell(detail.index, editing.fields[0]?.name ?? '', detail.pinned ? 'top' : null);
          }}
        />
      )}
      {importing && (
        <ImportDialog
          target={editing.target}
          fields={editing.fields}
          onClose={() => {
            setImporting(false);
            refocusGrid();
          }}
        />
      )}
      {exporter.job && (!exportHidden || !exportRunning) && (
        <ExportPanel
          job={exporter.job}
          total={total}
          onCancel={() => {
            exporter.cancel();
            exporter.dismiss();
          }}
          onHide={() => setExportHidden(true)}
          onClose={exporter.dismiss}
        />
      )}
    </div>
  );
}
