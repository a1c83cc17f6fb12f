/**
 * The grid's first column, pinned left as in Airtable: each row's selection checkbox and its number in the
 * view (1, 2, 3…; in a grouped grid records are counted, not group headers), under a header whose checkbox selects every loaded row. Plain DOM, no React: a cell is a
 * native checkbox and a text node kept current by its row's selection and index events, so scrolling costs no
 * renders. ag-grid's own row checkbox is a component of five elements with its own beans and listeners, made
 * for every row a scroll brings in (about a tenth of the script time of a scroll frame, measured in a profile).
 */
import type {
  GridApi,
  ICellRendererComp,
  ICellRendererParams,
  IHeaderComp,
  IHeaderParams,
  IRowNode,
  SelectionColumnDef,
} from 'ag-grid-community';
import type { RecordData } from '../../../core/records/types';
import { recordNumberOf } from './group-rows';

/**
 * Sent (bubbling) from the header checkbox when it selects every loaded row, with `detail.selected` their
 * number; the editing frame offers the rest of the view.
 */
export const SELECT_ALL_LOADED = 'td-select-all-loaded';

/** What a click on a row's checkbox does (GridOptions.onRowCheck): the app selects, with Shift a range. */
export type RowCheck = (row: number, checked: boolean, shiftKey: boolean) => void;

type RowNumberParams = ICellRendererParams<RecordData> & { onCheck?: RowCheck };

class RowNumberCell implements ICellRendererComp<RecordData> {
  private readonly gui = document.createElement('span');
  private readonly box = document.createElement('input');
  private readonly number = document.createElement('span');
  private node: IRowNode<RecordData> | undefined;
  private readonly update = () => {
    const node = this.node;
    const index = node?.rowIndex;
    // A row added with Add row (pinned at the top) has no place in the view's order yet, and the grid
    // selects no pinned rows.
    const placed = !node?.rowPinned && index !== null && index !== undefined;
    // In a grouped grid a record's number counts records, not the group headers above it.
    this.number.textContent = placed ? String(recordNumberOf(node?.data) ?? index + 1) : '';
    this.box.hidden = !placed;
    this.box.checked = node?.isSelected() === true;
  };

  init(params: RowNumberParams): void {
    this.gui.className = 'td-row-head';
    this.box.type = 'checkbox';
    this.box.className = 'td-row-checkbox';
    // As ag-grid's own: the grid's keys move the focus between cells, not into the box.
    this.box.tabIndex = -1;
    this.box.setAttribute('aria-label', 'Select row');
    this.number.className = 'td-row-number';
    this.gui.append(this.box, this.number);
    this.box.addEventListener('click', (e) => {
      const index = this.node?.rowIndex;
      if (index === null || index === undefined) return;
      params.onCheck?.(index, this.box.checked, e.shiftKey);
      this.update();
    });
    this.attach(params.node);
  }

  getGui(): HTMLElement {
    return this.gui;
  }

  refresh(params: ICellRendererParams<RecordData>): boolean {
    this.attach(params.node);
    return true;
  }

  destroy(): void {
    this.detach();
  }

  private attach(node: IRowNode<RecordData>): void {
    if (node !== this.node) {
      this.detach();
      this.node = node;
      node.addEventListener('rowIndexChanged', this.update);
      node.addEventListener('rowSelected', this.update);
    }
    this.update();
  }

  private detach(): void {
    this.node?.removeEventListener('rowIndexChanged', this.update);
    this.node?.removeEventListener('rowSelected', this.update);
  }
}

/** Loaded rows (with their record), and how many of them are selected. */
function loadedSelection(api: GridApi<RecordData>): { loaded: IRowNode<RecordData>[]; selected: number } {
  const loaded: IRowNode<RecordData>[] = [];
  let selected = 0;
  api.forEachNode((n) => {
    if (n.data === undefined) return;
    loaded.push(n);
    if (n.isSelected()) selected++;
  });
  return { loaded, selected };
}

class SelectAllHeader implements IHeaderComp {
  private readonly gui = document.createElement('label');
  private readonly box = document.createElement('input');
  private api: GridApi<RecordData> | undefined;
  private readonly sync = () => {
    if (!this.api || this.api.isDestroyed()) return;
    const { loaded, selected } = loadedSelection(this.api);
    this.box.checked = loaded.length > 0 && selected === loaded.length;
    this.box.indeterminate = selected > 0 && selected < loaded.length;
  };

  init(params: IHeaderParams<RecordData>): void {
    this.api = params.api;
    this.gui.className = 'td-select-all';
    this.box.type = 'checkbox';
    this.box.setAttribute('aria-label', 'Select all rows');
    this.gui.append(this.box);
    this.box.addEventListener('change', () => {
      const api = this.api;
      if (!api) return;
      const { loaded } = loadedSelection(api);
      const all = this.box.checked;
      api.setNodesSelected({ nodes: loaded, newValue: all });
      if (all)
        this.gui.dispatchEvent(
          new CustomEvent(SELECT_ALL_LOADED, { bubbles: true, detail: { selected: loaded.length } }),
        );
    });
    params.api.addEventListener('selectionChanged', this.sync);
    params.api.addEventListener('modelUpdated', this.sync);
    this.sync();
  }

  getGui(): HTMLElement {
    return this.gui;
  }

  refresh(): boolean {
    this.sync();
    return true;
  }

  destroy(): void {
    if (this.api && !this.api.isDestroyed()) {
      this.api.removeEventListener('selectionChanged', this.sync);
      this.api.removeEventListener('modelUpdated', this.sync);
    }
  }
}

/**
 * Wide enough for the checkbox and a six-digit row number. The grid's selection options go with it: the
 * column is ag-grid's selection column (kept first and pinned, out of the column state), without ag-grid's
 * row checkboxes; the header checkbox option only keeps the column when the rows have no checkbox of
 * ag-grid's, its checkbox is our own header (see SelectAllHeader).
 */
export const rowSelection = {
  mode: 'multiRow',
  checkboxes: false,
  headerCheckbox: true,
  // A plain click focuses a cell without selecting its row (as in a spreadsheet); ctrl and shift select.
  enableClickSelection: false,
} as const;

export const rowNumberColumn: SelectionColumnDef = {
  pinned: 'left',
  lockPinned: true,
  lockPosition: 'left',
  width: 92,
  minWidth: 92,
  resizable: false,
  suppressMovable: true,
  sortable: false,
  cellClass: 'td-row-number-cell',
  cellRenderer: RowNumberCell,
  headerComponent: SelectAllHeader,
};
