/**
 * A column header: the field's name (a click sorts, Shift+click adds to the sort, as ag-grid's own header),
 * its sort mark, the chosen view's sort mark while no sort of the user's replaces it, and a menu button. The
 * menu also opens with a right click, or from the keyboard on a focused header (Alt+↓, Shift+F10 or the
 * context-menu key). Plain DOM, built once per column: headers stay as cheap as ag-grid's own.
 */
import { isCommand } from '../../commands/match';
import { MAC } from '../../commands/shown';
import { HEADER_LABEL_CLASS, HEADER_TEXT_CLASS } from '../../grid/dom';
import type { ColumnHeaderOf, HeaderCell, HeaderView } from '../../grid/parts';
import { focusedValue } from './focused-value';
import type { HeaderMenus } from './header-menus';

interface MenuParams {
  menus: HeaderMenus;
}

type ColumnHeaderParams = HeaderCell & MenuParams;

const ARROW = { asc: '↑', desc: '↓' } as const;
const WORD = { asc: 'ascending', desc: 'descending' } as const;

export const opensMenu = (e: KeyboardEvent) =>
  isCommand('grid.columnMenu', e, MAC) || isCommand('grid.contextMenu', e, MAC);

export class ColumnHeader implements HeaderView<MenuParams> {
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
    label.className = `${HEADER_LABEL_CLASS} td-col-label`;
    this.text.className = HEADER_TEXT_CLASS;
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

    const colId = params.column;
    // Read at the press, before focus leaves the cell: "Filter by this field" uses the focused cell's value.
    let focused: { value: unknown } | undefined;
    this.listen(this.root, 'pointerdown', () => {
      focused = focusedValue(this.params.grid, colId);
    });
    const openMenu = (byPointer: boolean) => {
      params.menus.toggle({ colId, anchor: this.button, focused }, byPointer);
      focused = undefined;
    };
    this.listen(label, 'click', (e) => {
      if (params.sortable) params.progressSort((e as MouseEvent).shiftKey);
    });
    this.listen(this.button, 'click', (e) => {
      e.stopPropagation();
      openMenu(true);
    });
    this.listen(this.root, 'contextmenu', (e) => {
      e.preventDefault();
      openMenu(true);
    });
    this.listen(params.frame, 'keydown', (e) => {
      if (!opensMenu(e as KeyboardEvent)) return;
      e.preventDefault();
      e.stopPropagation();
      openMenu(false);
    });
    const refresh = () => this.draw();
    this.cleanups.push(params.grid.on('sort', refresh), params.menus.subscribe(refresh));
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
    const { column: colId, name, grid, menus } = this.params;
    this.text.textContent = name;
    this.button.setAttribute('aria-label', `${name} column menu`);
    this.button.setAttribute('aria-expanded', String(menus.open?.colId === colId));

    const sort = grid.sort();
    const sorted = sort.length;
    const index = sort.findIndex((s) => s.column === colId);
    const own = sort[index];
    this.sortMark.textContent = own ? `${ARROW[own.direction]}${sorted > 1 ? index + 1 : ''}` : '';

    // A sort of the user's replaces the view's order (the service sorts by it instead).
    const mark = sorted === 0 ? menus.viewSortOf(colId) : undefined;
    this.viewMark.textContent = mark ? `${ARROW[mark.direction]}${mark.of > 1 ? mark.position : ''}` : '';
    this.viewMark.title = mark
      ? `The view sorts by this field, ${WORD[mark.direction]}${mark.of > 1 ? ` (${mark.position} of ${mark.of})` : ''}`
      : '';
  }
}

/** A field column's header with its menu. */
export const columnHeader = (menus: HeaderMenus): ColumnHeaderOf<MenuParams> => ({
  view: ColumnHeader,
  params: { menus },
});
