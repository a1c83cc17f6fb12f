/**
 * The grid's first column, pinned left as in Airtable: each row's selection checkbox (ag-grid's own) and its
 * number in the view (1, 2, 3…), under a header whose checkbox selects every loaded row. Plain DOM, no React:
 * a cell is a text node kept current by its row's index events, so scrolling costs no renders.
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

/**
 * Sent (bubbling) from the header checkbox when it selects every loaded row, with `detail.selected` their
 * number; the editing frame offers the rest of the view.
 */
export const SELECT_ALL_LOADED = 'td-select-all-loaded';

class RowNumberCell implements ICellRendererComp<RecordData> {
  private readonly gui = document.createElement('span');
  private node: IRowNode<RecordData> | undefined;
  private readonly update = () => {
    const index = this.node?.rowIndex;
    // A row added with Add row (pinned at the top) has no place in the view's order yet.
    this.gui.textContent =
      this.node?.rowPinned || index === null || index === undefined ? '' : String(index + 1);
  };

  init(params: ICellRendererParams<RecordData>): void {
    this.gui.className = 'td-row-number';
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
    this.node?.removeEventListener('rowIndexChanged', this.update);
  }

  private attach(node: IRowNode<RecordData>): void {
    if (node !== this.node) {
      this.node?.removeEventListener('rowIndexChanged', this.update);
      this.node = node;
      node.addEventListener('rowIndexChanged', this.update);
    }
    this.update();
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

/** Wide enough for the checkbox and a six-digit row number. */
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
