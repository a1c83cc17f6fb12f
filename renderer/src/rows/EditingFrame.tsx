/**
 * The editing frame around a table's grid: row actions (add, delete, open, undo, redo, export), the
 * queue's notices, and the grid's keys and clipboard: Ctrl+Z / Ctrl+Shift+Z (or Ctrl+Y) undo and redo,
 * Space opens the focused record, Ctrl+Space and Shift+arrows select rows, Delete deletes the selected
 * rows after one confirmation, copy gives TSV, paste fills a range or adds rows (asking first).
 */
import { useState } from 'react';
import type { ClipboardEvent, KeyboardEvent, ReactNode } from 'react';
import type { Column, Request } from '../../../core/contract';
import { plural } from '../../../core/records/format';
import type { RecordData } from '../../../core/records/types';
import { EditNotices } from '../editing/EditNotices';
import { formatCell } from '../grid/format';
import { ConfirmDialog } from './ConfirmDialog';
import type { Confirmation } from './ConfirmDialog';
import { ExportDialog } from './ExportDialog';
import { planPaste } from './paste';
import { RecordDetail } from './RecordDetail';
import type { EditingView, TableEditing } from './table-editing';
import { parseTsv, toTsv } from './tsv';

type ExportQuery = NonNullable<Request<'export.start'>['query']>;

interface Props {
  editing: TableEditing;
  view: EditingView;
  selectedCount: number;
  /** The tab's query without sort (the grid holds the sort). */
  query: Omit<ExportQuery, 'sort'>;
  total: number | undefined;
  children: ReactNode;
}

const inGrid = (el: EventTarget): boolean => el instanceof Element && el.closest('.ag-root-wrapper') !== null;

export function EditingFrame({ editing, view, selectedCount, query, total, children }: Props) {
  const [ask, setAsk] = useState<Confirmation>();
  const [detail, setDetail] = useState<number>();
  const [exporting, setExporting] = useState<{ query: ExportQuery; columns: string[] }>();
  const grid = editing.gridApi;
  const busy = () => !grid || grid.getEditingCells().length > 0;

  /** Field columns as displayed, left to right. */
  const displayed = (): Column[] =>
    (grid?.getAllDisplayedColumns() ?? []).flatMap((c) =>
      editing.fields.filter((f) => f.name === c.getColId()),
    );

  const selectedRows = (): RecordData[] =>
    (grid?.getSelectedNodes() ?? [])
      .filter((n) => n.data !== undefined)
      .sort((a, b) => (a.rowIndex ?? 0) - (b.rowIndex ?? 0))
      .map((n) => n.data as RecordData);

  const askDelete = () => {
    const rows = selectedRows();
    if (rows.length === 0) return;
    setAsk({
      title: 'Delete records',
      text: `Delete ${plural(rows.length, 'record')}? Undo (Ctrl+Z) re-creates them with new ids.`,
      action: 'Delete',
      run: () => void editing.delete(rows),
    });
  };

  const addRow = async () => {
    const created = await editing.create([{}], false);
    if (created.length > 0 && grid?.isLastRowIndexKnown()) {
      grid.ensureIndexVisible(grid.getDisplayedRowCount(), 'bottom');
    }
  };

  const openFocused = () => {
    const focused = grid?.getFocusedCell();
    setDetail(focused?.rowIndex ?? 0);
  };

  const startExport = () => {
    const sort = (grid?.getColumnState() ?? [])
      .filter((c) => c.sort)
      .sort((a, b) => (a.sortIndex ?? 0) - (b.sortIndex ?? 0))
      .map((c) => ({ field: c.colId, direction: c.sort ?? 'asc' }));
    setExporting({
      query: { ...query, ...(sort.length > 0 ? { sort } : {}) },
      columns: displayed().map((c) => c.name),
    });
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (!inGrid(e.target) || busy() || !grid) return;
    const ctrl = e.ctrlKey || e.metaKey;
    const key = e.key.toLowerCase();
    const focused = grid.getFocusedCell();
    if (ctrl && key === 'z') {
      // The grid's own undo would act on its cell edits only (and sorting wipes it): the app's history rules.
      e.preventDefault();
      e.stopPropagation();
      void (e.shiftKey ? editing.redo() : editing.undo());
    } else if (ctrl && key === 'y') {
      e.preventDefault();
      e.stopPropagation();
      void editing.redo();
    } else if (e.key === ' ' && focused) {
      e.preventDefault();
      const node = grid.getDisplayedRowAtIndex(focused.rowIndex);
      if (ctrl) node?.setSelected(!node.isSelected());
      else setDetail(focused.rowIndex);
    } else if (e.shiftKey && (e.key === 'ArrowDown' || e.key === 'ArrowUp') && focused) {
      // Seen before the grid moves the focus: select the row left and the row about to be reached.
      const to = focused.rowIndex + (e.key === 'ArrowDown' ? 1 : -1);
      grid.getDisplayedRowAtIndex(focused.rowIndex)?.setSelected(true);
      grid.getDisplayedRowAtIndex(to)?.setSelected(true);
    } else if ((e.key === 'Delete' || e.key === 'Backspace') && selectedCount > 0) {
      e.preventDefault();
      askDelete();
    }
  };

  const onCopy = (e: ClipboardEvent) => {
    if (!inGrid(e.target) || busy() || !grid) return;
    const columns = displayed();
    const text = (row: RecordData, f: Column) => formatCell(editing.store.value(row, f.name), f);
    const rows = selectedRows();
    let lines: string[][];
    if (rows.length > 0) lines = rows.map((r) => columns.map((f) => text(r, f)));
    else {
      const focused = grid.getFocusedCell();
      const row = focused ? grid.getDisplayedRowAtIndex(focused.rowIndex)?.data : undefined;
      const field = columns.find((f) => f.name === focused?.column.getColId());
      if (!row || !field) return;
      lines = [[text(row, field)]];
    }
    e.clipboardData.setData('text/plain', toTsv(lines));
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
    const plan = planPaste(parseTsv(text), {
      columns: columns.slice(start),
      startRow: focused.rowIndex,
      rowAt: (i) => (known && i >= count ? 'past-end' : grid.getDisplayedRowAtIndex(i)?.data),
      shown: (row, field) => editing.store.value(row, field),
    });
    const left = [
      ...(plan.unloaded > 0
        ? [`${plural(plan.unloaded, 'line')} fell on rows not loaded yet and were not pasted.`]
        : []),
      ...plan.problems,
    ];
    const run = () => {
      void editing.edit(plan.changes);
      if (plan.creates.length > 0) void editing.create(plan.creates, plan.createTypecast);
      if (left.length > 0) editing.say(`Not pasted: ${left.join(' ')}`, 'error');
    };
    if (plan.creates.length === 0) run();
    else
      setAsk({
        title: 'Add rows',
        text: `This paste goes past the last row: it adds ${plural(plan.creates.length, 'new record')}${
          plan.changes.length > 0 ? ` and changes ${plural(plan.changes.length, 'row')}` : ''
        }.`,
        action: 'Add rows',
        run,
      });
  };

  const history = view.history;
  return (
    <div className="td-editing" onKeyDownCapture={onKeyDown} onCopy={onCopy} onPaste={onPaste}>
      <div className="td-row-actions" role="toolbar" aria-label="Rows">
        <button type="button" onClick={() => void addRow()}>
          Add row
        </button>
        <button type="button" disabled={selectedCount === 0} onClick={askDelete}>
          Delete{selectedCount > 0 ? ` ${plural(selectedCount, 'row')}` : ''}
        </button>
        <button type="button" onClick={openFocused} title="Open the focused record (Space)">
          Open record
        </button>
        <button
          type="button"
          disabled={!history?.canUndo}
          title={history?.undoLabel ?? 'Undo (Ctrl+Z)'}
          onClick={() => void editing.undo()}
        >
          Undo
        </button>
        <button
          type="button"
          disabled={!history?.canRedo}
          title={history?.redoLabel ?? 'Redo (Ctrl+Shift+Z)'}
          onClick={() => void editing.redo()}
        >
          Redo
        </button>
        <button type="button" onClick={startExport}>
          Export CSV
        </button>
      </div>
      <EditNotices editing={editing} view={view} />
      {children}
      {ask && <ConfirmDialog ask={ask} onClose={() => setAsk(undefined)} />}
      {detail !== undefined && (
        <RecordDetail
          editing={editing}
          index={detail}
          revision={view.revision}
          onIndex={setDetail}
          onClose={() => {
            setDetail(undefined);
            grid?.setFocusedCell(detail, editing.fields[0]?.name ?? '');
          }}
        />
      )}
      {exporting && (
        <ExportDialog
          target={editing.target}
          query={exporting.query}
          columns={exporting.columns}
          total={total}
          onClose={() => setExporting(undefined)}
        />
      )}
    </div>
  );
}
