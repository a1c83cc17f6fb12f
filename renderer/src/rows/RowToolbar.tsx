/**
 * The Rows toolbar above the grid: add a row, delete the selected rows (the whole view when it is selected), set
 * a field over the selection, open the focused record, undo and redo (titles and keys from the command table), export and import
 * CSV, find and replace.
 */
import { useState } from 'react';
import type { RefObject } from 'react';
import { plural } from '../../../core/records/format';
import { shortcutProps } from '../commands/shown';
import type { FrameActions } from './frame-actions';
import type { FrameGrid } from './frame-grid';
import { ReplaceControl } from './replace/ReplaceControl';
import type { ReplaceContext } from './replace/ReplaceDialog';
import { holdsRows } from './selection';
import type { Selection } from './selection';
import type { EditingView, TableEditing } from './table-editing';

interface Props {
  editing: TableEditing;
  view: EditingView;
  frame: FrameGrid;
  frameRef: RefObject<HTMLElement | null>;
  actions: FrameActions;
  /** The selection as this render sees it: the buttons act on what the keys act on. */
  selection: Selection;
  /** The whole view's records are being read for a delete. */
  reading: boolean;
  onOpen: () => void;
  onExport: () => void;
  /** The running export's progress, shown on its button while its panel is hidden. */
  exportNote: string;
  onImport: () => void;
  replaceContext: () => ReplaceContext;
}

export function RowToolbar({
  editing,
  view,
  frame,
  frameRef,
  actions,
  selection,
  reading,
  onOpen,
  onExport,
  exportNote,
  onImport,
  replaceContext,
}: Props) {
  const [adding, setAdding] = useState(false);
  const history = view.history;
  return (
    <div className="td-row-actions" role="toolbar" aria-label="Rows">
      <button
        type="button"
        // One row per click: keys typed (or Enter) before the new row has its focus would add another.
        disabled={adding}
        onClick={() => {
          setAdding(true);
          void editing.addRow(frame.displayed()[0]?.name).finally(() => setAdding(false));
        }}
      >
        Add row
      </button>
      <button
        type="button"
        disabled={!holdsRows(selection) || reading}
        onClick={() => actions.deleteRecords(frame.selection())}
      >
        Delete
        {selection.kind === 'view'
          ? ` ${plural(selection.count, 'row')}`
          : selection.kind === 'rows'
            ? ` ${plural(selection.rows.length, 'row')}`
            : ''}
      </button>
      <button
        type="button"
        disabled={selection.kind === 'none' || selection.kind === 'cell'}
        onClick={() => actions.setField(frame.selection())}
        title="Set one field to one value for the selected rows"
      >
        Set field…
      </button>
      <button type="button" onClick={onOpen} {...shortcutProps('grid.open', 'Open the focused record')}>
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
      <button type="button" onClick={onExport}>
        Export CSV
        {exportNote}
      </button>
      <button type="button" onClick={onImport}>
        Import CSV
      </button>
      <ReplaceControl frame={frameRef} context={replaceContext} />
    </div>
  );
}
