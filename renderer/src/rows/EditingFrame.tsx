/**
 * The editing frame around a table's grid: it composes the Rows toolbar (RowToolbar), the grid's keys
 * (grid-keys), its clipboard (grid-clipboard), a cell's menu (useCellMenu) and what they do to the selection
 * (frame-actions) and the view's export (useViewExport), with the queue's notices and the frame's dialogs. An editor refusing its text says why by
 * the cell; a value typed over someone else's new change asks first.
 */
import { useRef, useState } from 'react';
import type { ReactNode } from 'react';
import type { MenuItem } from '../ui/CommandMenu';
import { CommandMenu } from '../ui/CommandMenu';
import { EditNotices } from './EditNotices';
import { groupHeaderOf } from '../grid/group-rows';
import { inGrid } from '../grid/dom';
import { FocusBackContext } from '../ui/useFocusReturn';
import type { CellPosition } from '../grid/port';
import type { ViewCount } from '../status/StatusBar';
import { cellProblem } from './cell-problem';
import type { CellProblem } from './cell-problem';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import type { Confirmation } from '../ui/ConfirmDialog';
import { OverwriteDialog } from './OverwriteDialog';
import type { ExportQuery } from './export/useExportJob';
import { useViewExport } from './export/useViewExport';
import { frameActions } from './frame-actions';
import { useBudgetStatus } from '../budget/useBudget';
import type { SetFieldAsk } from './frame-actions';
import { frameGrid } from './frame-grid';
import { gridClipboard } from './grid-clipboard';
import { gridKeys } from './grid-keys';
import { ImportDialog } from './import/ImportDialog';
import { RecordDetail } from './RecordDetail';
import { RowToolbar } from './RowToolbar';
import { AttachmentDrop, UploadBar } from './attachments/UploadBar';
import { useSelectAll } from './select-all';
import { focusedOf, holdsRows, selectedRecords } from './selection';
import type { EditingView, TableEditing } from './table-editing';
import { planFillDrag, planSetField } from './range/bulk-plan';
import { SetFieldDialog } from './range/SetFieldDialog';
import { useCellRange } from './range/useCellRange';
import { useCellMenu } from './useCellMenu';

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
  /** `fromGrid`: a grid key or menu opened it, so the grid's row of the record last shown takes the focus back. */
  const [detail, setDetail] = useState<{ index: number; pinned: boolean; fromGrid: boolean }>();
  const [problem, setProblem] = useState<CellProblem>();
  const frame = useRef<HTMLDivElement>(null);
  const [importing, setImporting] = useState(false);
  const grid = editing.grid;
  const selectAll = useSelectAll({ api: editing.api, frame, viewId, count, selectedCount, ask: setAsk });
  const [setField, setSetField] = useState<SetFieldAsk>();
  const reads = frameGrid(editing, selectAll.wholeView);
  const budget = useBudgetStatus(editing.target.connectionId, editing.target.baseId);
  const actions = frameActions({
    editing,
    budget,
    frame: reads,
    selectAll,
    ask: setAsk,
    askSetField: setSetField,
  });
  const clipboard = gridClipboard(editing, reads, setAsk);

  const expand = (cell: Pick<CellPosition, 'row' | 'pinned'>) =>
    setDetail({
      index: cell.row,
      pinned: cell.pinned,
      fromGrid: document.activeElement !== null && inGrid(document.activeElement),
    });
  const menu = useCellMenu({
    editing,
    frame: reads,
    actions,
    copy: clipboard.copyNow,
    paste: (cell) => void clipboard.pasteNow(cell),
    expand,
    columnMenu,
  });

  const cells = useCellRange({
    editing,
    frame,
    displayed: () => reads.displayed().map((f) => f.name),
    busy: reads.busy,
    rowsSelected: () => holdsRows(reads.selection()),
    onFill: (source, target) => actions.runBulk(planFillDrag(reads.bulk(), source, target), 'Filled'),
  });

  const keys = gridKeys({
    editing,
    frame: reads,
    actions,
    extendRange: cells.extend,
    expand,
    openMenu: menu.open,
  });

  const replaceContext = () => {
    const selection = reads.selection();
    return {
      target: editing.target,
      query: { view: query.view, formula: query.formula },
      fields: reads.displayed(),
      // The whole view selected is the view: its loaded rows alone are not what the user chose.
      selectedIds: selection.kind === 'rows' ? selectedRecords(selection).map((r) => r.id) : [],
      focusedColumn: focusedOf(selection)?.column,
    };
  };

  const openFocused = () => {
    const focused = focusedOf(reads.selection());
    if (focused && groupHeaderOf(reads.recordAt(focused))) return;
    expand({ row: focused?.row ?? 0, pinned: focused?.pinned ?? false });
  };

  const exporting = useViewExport({
    target: editing.target,
    grid,
    query,
    displayed: () => reads.displayed().map((c) => c.name),
    total,
  });

  /** After the grid has handled a key: the editor it kept open, if any, and why. */
  const checkProblem = () =>
    setTimeout(() =>
      setProblem(grid && frame.current ? cellProblem(grid, editing.fields, frame.current) : undefined),
    );

  const onAction = () => {
    if (view.message?.untilNextAction) editing.clearMessage();
  };

  return (
    <FocusBackContext.Provider value={reads.giveBack}>
      <div
        className="td-editing"
        ref={frame}
        onKeyDownCapture={(e) => {
          onAction();
          if (problem || e.key === 'Enter' || e.key === 'Tab') checkProblem();
          keys(e);
        }}
        onInputCapture={() => problem && checkProblem()}
        onPointerDownCapture={(e) => {
          onAction();
          if (problem) checkProblem();
          cells.onPointerDown(e);
        }}
        onCopy={clipboard.onCopy}
        onPaste={clipboard.onPaste}
        onContextMenu={menu.onContextMenu}
      >
        <RowToolbar
          editing={editing}
          view={view}
          frame={reads}
          frameRef={frame}
          actions={actions}
          selection={reads.selection()}
          reading={selectAll.reading !== undefined}
          onOpen={openFocused}
          onExport={exporting.start}
          exportNote={exporting.note}
          onImport={() => setImporting(true)}
          replaceContext={replaceContext}
        />
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
        {menu.menu && (
          <CommandMenu
            label={menu.menu.label}
            items={menu.menu.items}
            at={menu.menu.at}
            onClose={menu.close}
          />
        )}
        {ask && (
          <ConfirmDialog
            // A confirmed action's effect is in the grid: the focus goes there, so Ctrl+Z takes it back at
            // once. Declined (Esc, Cancel), the focus goes back to what asked.
            ask={{
              ...ask,
              run: () => {
                reads.refocus();
                ask.run();
              },
            }}
            onClose={() => setAsk(undefined)}
          />
        )}
        {view.overwrite && (
          <OverwriteDialog
            question={view.overwrite}
            onAnswer={(overwrite) => editing.answerOverwrite(overwrite)}
          />
        )}
        {setField && (
          <SetFieldDialog
            fields={reads.displayed()}
            rows={setField.rows.length}
            note={setField.note}
            onClose={() => setSetField(undefined)}
            // Applied, the focus goes to the grid, as a confirmed action's does.
            onApply={(field, value) => {
              reads.refocus();
              actions.runBulk(
                planSetField(reads.bulk(), setField.rows, field.name, value),
                `Set ${field.name} in`,
              );
            }}
          />
        )}
        {detail !== undefined && (
          <RecordDetail
            editing={editing}
            index={detail.index}
            pinned={detail.pinned}
            revision={view.revision}
            onIndex={(index) => setDetail({ ...detail, index, pinned: false })}
            onClose={() => {
              setDetail(undefined);
              if (detail.fromGrid)
                grid?.focus({
                  row: detail.index,
                  column: editing.fields[0]?.name ?? '',
                  pinned: detail.pinned,
                });
            }}
          />
        )}
        {importing && (
          <ImportDialog target={editing.target} fields={editing.fields} onClose={() => setImporting(false)} />
        )}
        {exporting.panel}
      </div>
    </FocusBackContext.Provider>
  );
}
