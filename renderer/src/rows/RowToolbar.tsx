/**
 * The Rows toolbar above the grid: add a row, delete the selection (the whole view when it is selected), set a
 * field, open the focused record, undo and redo (titles and keys from the command table), export and import
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
import type { EditingView, TableEditing } from './table-editing';

interface Props {
  editing: TableEditing;
  view: EditingView;
  frame: FrameGrid;
  frameRef: RefObject<HTMLElement | null>;
  actions: FrameActions;
  selectedCount: number;
  /** The whole view's count when it is selected. */
  wholeView: number | undefined;
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
  selectedCount,
  wholeView,
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
        disabled={(selectedCount === 0 && wholeView === undefined) || reading}
        onClick={actions.deleteSelected}
      >
        Delete
        {wholeView !== undefined
          ? ` ${plural(wholeView, 'row')}`
          : selectedCount > 0
            ? ` ${plural(selectedCount, 'row')}`
            : ''}
      </button>
      <button
        type="button"
        disabled={selectedCount === 0 && editing.range.multi === undefined}
        onClick={actions.setField}
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
      <ReplaceControl frame={frameRef} context={replaceContext} onClosed={frame.refocus} />
    </div>
  );
}
