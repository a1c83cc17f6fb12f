/**
 * ag-grid's infinite row model as far as reading rows goes, around a real datasource and the tab's real
 * ScreenRows: blocks of 100 rows, a block asked for when it comes on screen, and on refreshInfiniteCache every
 * block held (or loading) asked for again, a loading block's older answer dropped. Each block is asked for with
 * the rows on screen at that moment, as the tab's datasources ask the grid. Lets a test scroll as a person does
 * and count the requests at the service without a browser.
 */
import type { RecordData } from '../../../core/records/types';
import type { RowRequest, RowSource } from '../../../renderer/src/grid/datasource';
import { ScreenRows } from '../../../renderer/src/grid/screen-rows';

const BLOCK = 100;

export class InfiniteGrid {
  readonly screenRows = new ScreenRows();
  private readonly blocks = new Map<number, readonly (RecordData | undefined)[]>();
  /** Each block's newest ask: an older answer is dropped, as ag-grid drops it. */
  private readonly asked = new Map<number, number>();
  private readonly loading = new Set<Promise<void>>();
  private readonly viewportChanged: (() => void)[] = [];
  private rowCount: number | undefined;
  private top = 0;
  private asks = 0;

  private readonly datasource: RowSource;

  /** `datasource` is made with the grid's ScreenRows, as the tab makes it. */
  constructor(
    private readonly screenSize: number,
    datasource: (screen: ScreenRows) => RowSource,
  ) {
    this.datasource = datasource(this.screenRows);
    this.screenRows.attach({
      drawnRows: () => ({ first: this.top, last: this.top + this.screenSize - 1 }),
      reload: () => this.refresh(),
      on: (_event, listener) => {
        this.viewportChanged.push(() => listener(undefined as never));
        return () => undefined;
      },
    });
  }

  /** Scrolls so that `top` is the first row on screen, and waits until every block asked for has come. */
  async show(top: number): Promise<void> {
    this.top = Math.max(0, Math.min(top, (this.rowCount ?? Infinity) - this.screenSize));
    for (const listener of this.viewportChanged) listener();
    for (let b = Math.floor(this.top / BLOCK) * BLOCK; b < this.top + this.screenSize; b += BLOCK) {
      if (!this.asked.has(b)) this.ask(b);
    }
    await this.settled();
  }

  /** ag-grid's refreshInfiniteCache: every block held or loading is asked for again. */
  refresh(): void {
    for (const b of this.asked.keys()) this.ask(b);
  }

  async settled(): Promise<void> {
    while (this.loading.size > 0) await Promise.all([...this.loading]);
  }

  /** The rows on screen now (undefined where a row is not read). */
  screen(): { index: number; data: RecordData | undefined }[] {
    const end = Math.min(this.top + this.screenSize, this.rowCount ?? Infinity);
    const out = [];
    for (let i = this.top; i < end; i++) out.push({ index: i, data: this.row(i) });
    return out;
  }

  row(index: number): RecordData | undefined {
    return this.blocks.get(Math.floor(index / BLOCK) * BLOCK)?.[index % BLOCK];
  }

  private ask(start: number): void {
    const ask = ++this.asks;
    this.asked.set(start, ask);
    const done = new Promise<void>((resolve) => {
      const params: RowRequest = {
        startRow: start,
        endRow: start + BLOCK,
        sortModel: [],
        successCallback: (rows: (RecordData | undefined)[], lastRow?: number) => {
          if (this.asked.get(start) === ask) {
            this.blocks.set(start, rows);
            if (lastRow !== undefined && lastRow >= 0) this.rowCount = lastRow;
          }
          resolve();
        },
        failCallback: () => resolve(),
      };
      this.datasource.getRows(params);
    });
    this.loading.add(done);
    void done.then(() => this.loading.delete(done));
  }
}
