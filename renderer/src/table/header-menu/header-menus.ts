/**
 * What the column headers share with the tab: the chosen view's own sort (shown on its headers while no sort
 * of the user's replaces it) and the one header menu that is open. Plain state with listeners, so headers
 * (ag-grid components outside React) and the React menu read the same thing.
 */
import type { SortDirection } from '../../../../core/records/types';

export interface ViewSortMark {
  direction: SortDirection;
  /** 1-based place in a sort by several fields. */
  position: number;
  of: number;
}

export interface OpenMenu {
  colId: string;
  anchor: HTMLElement;
  /** The focused cell of this column when the menu was asked for (before the press moved focus). */
  focused?: { value: unknown } | undefined;
}

/** A press outside closes the menu before the same header's button sees its click: that click must not reopen. */
const REOPEN_GUARD_MS = 300;

export class HeaderMenus {
  private viewSort = new Map<string, ViewSortMark>();
  private menu: OpenMenu | undefined;
  private closed: { colId: string; at: number } | undefined;
  private readonly listeners = new Set<() => void>();

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  viewSortOf(colId: string): ViewSortMark | undefined {
    return this.viewSort.get(colId);
  }

  setViewSort(sort: readonly { field: string; direction: SortDirection }[]): void {
    this.viewSort = new Map(
      sort.map((s, i) => [s.field, { direction: s.direction, position: i + 1, of: sort.length }]),
    );
    this.emit();
  }

  get open(): OpenMenu | undefined {
    return this.menu;
  }

  /** Opens the column's menu, or closes it when it is the one open (its button toggles it). */
  toggle(menu: OpenMenu, byPointer: boolean): void {
    const { colId } = menu;
    const justClosed =
      byPointer && this.closed?.colId === colId && performance.now() - this.closed.at < REOPEN_GUARD_MS;
    if (this.menu?.colId === colId || justClosed) this.close();
    else this.menu = menu;
    this.emit();
  }

  close(): void {
    if (!this.menu) return;
    this.closed = { colId: this.menu.colId, at: performance.now() };
    this.menu = undefined;
    this.emit();
  }

  private emit(): void {
    for (const l of this.listeners) l();
  }
}
