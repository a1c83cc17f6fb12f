/**
 * The rows on the grid's screen, and the rows of its blocks not read yet. Where the services read rows where
 * they are (a jump far ahead: go to row, a scrollbar drag), a block is answered with the rows around the screen
 * only, so that the screen costs one request; the block's other rows stay empty (ag-grid draws a row without
 * data as loading). When such rows come on screen, the grid is asked to read its blocks again
 * (ag-grid's refreshInfiniteCache keeps the rows shown meanwhile), and the services read them then.
 */
import type { GridPort } from './port';

export interface RowRange {
  start: number;
  end: number;
}

type Grid = Pick<GridPort, 'drawnRows' | 'reload' | 'on'>;

export class ScreenRows {
  private grid: Grid | undefined;
  /** Rows not read yet, by the start of the block that has them, for the query they belong to. */
  private readonly unread = new Map<number, RowRange[]>();
  private query: string | undefined;
  /** The screen a read again was asked for: asked once per screen, so a row that cannot be read is no loop. */
  private askedFor: string | undefined;

  attach(grid: Grid): void {
    this.grid = grid;
    grid.on('viewport', () => this.check());
  }

  /** The rows the grid draws now (its buffer rows included); undefined before the grid is ready. */
  screen(): RowRange | undefined {
    const drawn = this.grid?.drawnRows();
    if (drawn === undefined) return undefined;
    const { first, last } = drawn;
    if (first < 0 || last < first) return undefined;
    return { start: first, end: last + 1 };
  }

  /** A block of `query` was answered: `unread` are its rows left empty. */
  answered(query: string, block: number, unread: RowRange[]): void {
    if (query !== this.query) {
      this.query = query;
      this.unread.clear();
    }
    if (unread.length === 0) this.unread.delete(block);
    else this.unread.set(block, unread);
    this.check();
  }

  /** Rows left empty on screen: the grid reads its blocks again. */
  private check(): void {
    const screen = this.screen();
    if (screen === undefined) return;
    const key = `${this.query}:${screen.start}:${screen.end}`;
    if (key === this.askedFor) return;
    for (const ranges of this.unread.values()) {
      if (ranges.some((r) => r.start < screen.end && r.end > screen.start)) {
        this.askedFor = key;
        this.grid?.reload();
        return;
      }
    }
  }
}
