/**
 * A column header: the field's name (a click sorts, Shift+click adds to the sort, as ag-grid's own header),
 * its sort mark, the chosen view's sort mark while no sort of the user's replaces it, and a menu button. The
 * menu also opens with a right click, or from the keyboard on a focused header (Alt+↓, Shift+F10 or the
 * context-menu key). Plain DOM, built once per column: headers stay as cheap as ag-grid's own.
 */
import type { ColDef, IHeaderComp, IHeaderParams } from 'ag-grid-community';
import { isCommand } from '../../commands/match';
import { MAC } from '../../commands/shown';
import { gridPort } from '../../grid/ag-port';
import { focusedValue } from './focused-value';
import type { HeaderMenus } from './header-menus';

export interface ColumnHeaderParams extends IHeaderParams {
  menus: HeaderMenus;
}

const ARROW = { asc: '↑', desc: '↓' } as const;
const WORD = { asc: 'ascending', desc: 'descending' } as const;

export const opensMenu = (e: KeyboardEvent) =>
  isCommand('grid.columnMenu', e, MAC) || isCommand('grid.contextMenu', e, MAC);

export class ColumnHeader implements IHeaderComp {
  private params!: ColumnHeaderParams;
  private readonly root = document.createElement('div');
  private readonly text = document.createElement('span');
  private readonly sortMark = document.createElement('span');
  private readonly viewMark = document.createElement('span');
  private readonly button = document.createElement('button');
  private readonly cleanups: (() => void)[] = [];

  init(params: ColumnHeaderParams): void {
    this.params = params;
    const label = document.createElement('div');
    // ag-grid's own class names: the theme lays them out, and tests find the label by them.
    label.className = 'ag-header-cell-label td-col-label';
    this.text.className = 'ag-header-cell-text';
    this.sortMark.className = 'td-sort-mark';
    this.viewMark.className = 'td-view-sort-mark';
    label.append(this.text, this.sortMark, this.viewMark);
    this.button.type = 'button';
    this.button.className = 'td-col-menu-button';
    this.button.tabIndex = -1;
    this.button.textContent = '▾';
    this.button.setAttribute('aria-haspopup', 'menu');
    this.root.className = 'td-col-header';
    this.root.append(label, this.button);

    const colId = params.column.getColId();
    // Read at the press, before focus leaves the cell: "Filter by this field" uses the focused cell's value.
    let focused: { value: unknown } | undefined;
    this.listen(this.root, 'pointerdown', () => {
      focused = focusedValue(gridPort(this.params.api), colId);
    });
    const openMenu = (byPointer: boolean) => {
      params.menus.toggle({ colId, anchor: this.button, focused }, byPointer);
      focused = undefined;
    };
    this.listen(label, 'click', (e) => {
      if (params.enableSorting) params.progressSort((e as MouseEvent).shiftKey);
    });
    this.listen(this.button, 'click', (e) => {
      e.stopPropagation();
      openMenu(true);
    });
    this.listen(this.root, 'contextmenu', (e) => {
      e.preventDefault();
      openMenu(true);
    });
    this.listen(params.eGridHeader, 'keydown', (e) => {
      if (!opensMenu(e as KeyboardEvent)) return;
      e.preventDefault();
      e.stopPropagation();
      openMenu(false);
    });
    const refresh = () => this.draw();
    params.api.addEventListener('sortChanged', refresh);
    this.cleanups.push(
      () => params.api.removeEventListener('sortChanged', refresh),
      params.menus.subscribe(refresh),
    );
    this.draw();
  }

  getGui(): HTMLElement {
    return this.root;
  }

  refresh(params: ColumnHeaderParams): boolean {
    this.params = params;
    this.draw();
    return true;
  }

  destroy(): void {
    for (const c of this.cleanups) c();
  }

  private listen(el: HTMLElement, type: string, handler: (e: Event) => void): void {
    el.addEventListener(type, handler);
    this.cleanups.push(() => el.removeEventListener(type, handler));
  }

  private draw(): void {
    const { column, displayName, api, menus } = this.params;
    const colId = column.getColId();
    this.text.textContent = displayName;
    this.button.setAttribute('aria-label', `${displayName} column menu`);
    this.button.setAttribute('aria-expanded', String(menus.open?.colId === colId));

    const sort = column.getSort();
    const sorted = api.getColumnState().filter((c) => c.sort).length;
    const index = column.getSortIndex();
    this.sortMark.textContent =
      sort === 'asc' || sort === 'desc'
        ? `${ARROW[sort]}${sorted > 1 && index !== null && index !== undefined ? index + 1 : ''}`
        : '';

    // A sort of the user's replaces the view's order (the service sorts by it instead).
    const mark = sorted === 0 ? menus.viewSortOf(colId) : undefined;
    this.viewMark.textContent = mark ? `${ARROW[mark.direction]}${mark.of > 1 ? mark.position : ''}` : '';
    this.viewMark.title = mark
      ? `The view sorts by this field, ${WORD[mark.direction]}${mark.of > 1 ? ` (${mark.position} of ${mark.of})` : ''}`
      : '';
  }
}

/** A field column with this header and its menu. */
export function withColumnHeader<T>(def: ColDef<T>, menus: HeaderMenus): ColDef<T> {
  return { ...def, headerComponent: ColumnHeader, headerComponentParams: { menus } };
}
