/**
 * The app as a user sees it, for the end-to-end tests: navigation by visible labels, the grid's rows by index
 * (`row-index`) and record id (`row-id`, the grid's getRowId), and a log of every WebSocket frame the page
 * exchanges with the door.
 */
import { expect } from '@playwright/test';
import type { Locator, Page, TestInfo } from '@playwright/test';

export interface Frame {
  direction: 'sent' | 'received';
  payload: string;
}

interface CallFrame {
  t: 'call';
  channel: string;
  request: Record<string, unknown>;
}

export class AppPage {
  readonly frames: Frame[] = [];

  constructor(readonly page: Page) {
    page.on('websocket', (ws) => {
      ws.on('framesent', (f) => this.frames.push({ direction: 'sent', payload: String(f.payload) }));
      ws.on('framereceived', (f) => this.frames.push({ direction: 'received', payload: String(f.payload) }));
    });
  }

  /**
   * Opens the app as on a later start with nothing left open (the home page), so each spec begins there; a
   * first start, which opens the demo's Tasks by itself, is connections-ux.spec.ts's to check.
   */
  async goto(url: string): Promise<void> {
    await this.page.addInitScript(() => {
      if (window.localStorage.getItem('tabledesk.session') === null)
        window.localStorage.setItem('tabledesk.session', '{"tabs":[]}');
    });
    await this.page.goto(url);
    await expect(this.page.getByRole('navigation', { name: 'Connections' })).toBeVisible();
  }

  /** Selects a saved connection in the picker, as a person does to see its bases and tables. */
  async openConnection(name: string): Promise<void> {
    await this.page.getByRole('navigation', { name: 'Connections' }).getByRole('button', { name }).click();
  }

  /** Opens a table of the demo base (the demo connection and its single base are selected on start). */
  async openTable(name: string): Promise<void> {
    await this.page.getByRole('region', { name: 'Tables' }).getByRole('button', { name }).click();
    await expect(this.page.getByRole('tab', { name, selected: true })).toBeVisible();
    await expect(this.row(0)).toBeVisible();
  }

  /** The active table tab. */
  get table(): Locator {
    return this.page.locator('section.td-table:not([hidden])');
  }

  /** A loaded grid row (one element holds its pinned and scrolling cells); its `row-id` is the record id. */
  row(index: number): Locator {
    return this.table.locator(`.ag-row[row-index="${index}"][row-id]`);
  }

  /** The row number drawn at the start of a grid row (its record's place in the view, counted from 1). */
  rowNumber(index: number): Locator {
    return this.table.locator(`.ag-row[row-index="${index}"] .td-row-number`);
  }

  cell(index: number, column: string): Locator {
    return this.table.locator(`.ag-row[row-index="${index}"] .ag-cell[col-id="${column}"]`);
  }

  async rowId(index: number): Promise<string | null> {
    await expect(this.row(index)).toBeVisible();
    return this.row(index).getAttribute('row-id');
  }

  async rowIds(count: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.push((await this.rowId(i)) ?? '');
    return ids;
  }

  /** The field columns' ids in order; the first column (row number and checkbox) is ag-grid's own. */
  async headers(): Promise<string[]> {
    return this.table
      .locator('.ag-header-cell[col-id]:not([col-id="ag-Grid-SelectionColumn"])')
      .evaluateAll((cells) => cells.map((c) => c.getAttribute('col-id') ?? ''));
  }

  header(column: string): Locator {
    return this.table.locator(`.ag-header-cell[col-id="${column}"] .ag-header-cell-label`);
  }

  get formula(): Locator {
    return this.table.getByRole('textbox', { name: 'Filter formula' });
  }

  get status(): Locator {
    return this.table.locator('footer.td-status');
  }

  /** The calls the page sent over the door, oldest first. */
  calls(channel?: string): CallFrame[] {
    return this.frames
      .filter((f) => f.direction === 'sent')
      .map((f) => JSON.parse(f.payload) as CallFrame)
      .filter((c) => c.t === 'call' && (channel === undefined || c.channel === channel));
  }

  /** Goes to a row as a person does: Ctrl+G, the row typed into the box once it has the focus, Enter. */
  async goToRow(row: number): Promise<void> {
    await this.page.keyboard.press('Control+g');
    await expect(this.table.getByRole('spinbutton', { name: 'Go to row' })).toBeFocused();
    await this.page.keyboard.type(String(row));
    await this.page.keyboard.press('Enter');
  }

  /**
   * Drags the grid's scrollbar to a fraction of its track. Headless Chromium draws no scrollbars, so the drag
   * is what it does to the grid: one jump of the scroll position, with its scroll event.
   */
  async dragScrollbar(fraction: number): Promise<void> {
    await this.table.locator('.ag-grid-viewport').evaluate((scroller, f) => {
      scroller.scrollTop = (scroller.scrollHeight - scroller.clientHeight) * f;
    }, fraction);
  }

  /** The index of the topmost record row on screen, once a row past the first blocks has its data. */
  async firstRowShown(): Promise<number> {
    const body = await this.table.locator('.ag-grid-viewport').boundingBox();
    let found = -1;
    await expect
      .poll(
        async () => {
          const rows = await this.table.locator('.ag-row[row-id^="rec"]').evaluateAll(
            (els, top) =>
              els
                .filter((e) => e.getBoundingClientRect().top >= top - 1)
                .map((e) => Number(e.getAttribute('row-index')))
                .sort((a, b) => a - b),
            body?.y ?? 0,
          );
          found = rows[0] ?? -1;
          return found;
        },
        { timeout: 30_000 },
      )
      .toBeGreaterThan(100);
    return found;
  }

  async screenshot(info: TestInfo, name: string): Promise<void> {
    await this.page.screenshot({ path: info.outputPath(`${name}.png`) });
  }
}
