/** A table view: one query over one table, its page chain, its columns, and its state events. */
import type { ChannelError, Column, EventPayload } from '../../core/contract';
import { inferColumns } from '../../core/records/infer-columns';
import type { InferredColumn } from '../../core/records/infer-columns';
import type { RecordData } from '../../core/records/types';
import { toChannelError } from '../errors';
import { inferredColumns } from './columns';
import { PageChain } from './page-chain';
import type { FetchPage } from './page-chain';

export interface TableViewOptions {
  viewId: string;
  fetchPage: FetchPage;
  /** From the schema; undefined when the schema was refused and columns are inferred from the records. */
  columns: Column[] | undefined;
  onState: (state: EventPayload<'view.state'>) => void;
  /** A failed walk (not a cancelled one), after its `view.state` event. */
  onError: (error: ChannelError) => void;
}

export class TableView {
  readonly viewId: string;
  private readonly chain: PageChain;
  private readonly inferred: InferredColumn[] = [];
  private readonly schemaColumns: Column[] | undefined;
  private readonly onState: TableViewOptions['onState'];
  private readonly onError: TableViewOptions['onError'];

  constructor(options: TableViewOptions) {
    this.viewId = options.viewId;
    this.schemaColumns = options.columns;
    this.onState = options.onState;
    this.onError = options.onError;
    this.chain = new PageChain(options.fetchPage, (progress, fresh) => this.progress(progress, fresh));
  }

  get columns(): Column[] {
    return this.schemaColumns ?? inferredColumns(this.inferred);
  }

  get loaded(): number {
    return this.chain.loaded;
  }

  async rows(
    start: number,
    end: number,
  ): Promise<{ records: RecordData[]; rowCount?: number; loaded: number }> {
    const records = await this.reported(this.chain.rows(start, end));
    return { records, rowCount: this.chain.total, loaded: this.chain.loaded };
  }

  /** Go to row: the walk to row `to`, ended early by `signal` (Cancel) with an AbortError. */
  async walk(to: number, signal: AbortSignal): Promise<{ loaded: number; rowCount?: number }> {
    await this.reported(this.chain.walkTo(to, signal));
    return { loaded: this.chain.loaded, rowCount: this.chain.total };
  }

  /** A walk's failure (not a cancel) goes to the view's state and the connection's last error too. */
  private async reported<T>(walk: Promise<T>): Promise<T> {
    try {
      return await walk;
    } catch (error) {
      const channelError = toChannelError(error);
      if (channelError.kind !== 'aborted') {
        this.onState({ viewId: this.viewId, loaded: this.chain.loaded, error: channelError });
        this.onError(channelError);
      }
      throw error;
    }
  }

  /** The rows held so far, in the view's order. */
  get loadedRecords(): readonly RecordData[] {
    return this.chain.held;
  }

  /** Whether every row of the view is held. */
  get complete(): boolean {
    return this.chain.total !== undefined;
  }

  close(): void {
    this.chain.close();
  }

  /** An acknowledged edit: later `rows` answers carry the saved record (only the fields the view asked for). */
  applySaved(record: RecordData, fields: readonly string[] | undefined): void {
    const shown =
      fields === undefined
        ? record
        : {
            ...record,
            fields: Object.fromEntries(Object.entries(record.fields).filter(([f]) => fields.includes(f))),
          };
    this.chain.replace(shown);
  }

  /** Created records (new rows, or rows re-created by undo) join the cached rows. */
  applyCreated(records: readonly RecordData[]): void {
    if (this.chain.append(records) > 0) {
      this.onState({ viewId: this.viewId, loaded: this.chain.loaded, total: this.chain.total });
    }
  }

  applyDeleted(ids: ReadonlySet<string>): void {
    if (this.chain.remove(ids) > 0) {
      this.onState({ viewId: this.viewId, loaded: this.chain.loaded, total: this.chain.total });
    }
  }

  private progress(p: { loaded: number; total?: number; loadingPage?: number }, fresh: RecordData[]): void {
    const state: EventPayload<'view.state'> = { viewId: this.viewId, ...p };
    if (this.schemaColumns === undefined && inferColumns(this.inferred, fresh)) state.columns = this.columns;
    this.onState(state);
  }
}
