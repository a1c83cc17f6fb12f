/**
 * What the frame does to the selection, whichever door asked (a key, a toolbar button, a menu item): fill
 * down, clear a range, set a field, insert blank records above or below, duplicate records, delete records
 * after one confirmation. Each takes the selection as one value (selection.ts), read by the caller at the
 * moment of the action. Fill, clear and set field are one
 * plan each, sent as one `edits.edit` call (one undo step), with a line on what was done and what was left out.
 */
import type { BudgetStatus } from '../../../core/contract';
import { MAX_EDITS_PER_CALL } from '../../../core/contract/edits';
import { plural } from '../../../core/records/format';
import type { RecordData } from '../../../core/records/types';
import { costText, RECORDS_PER_READ, wholeViewDeleteCalls } from '../budget/budget-text';
import { keysOf, titleOf } from '../commands/shown';
import { duplicateFields, wholeRecords } from './duplicate';
import type { Confirmation } from '../ui/ConfirmDialog';
import type { FrameGrid } from './frame-grid';
import { planClear, planFillDown } from './range/bulk-plan';
import type { BulkPlan } from './range/bulk-plan';
import type { useSelectAll } from './select-all';
import { rowsSpanned } from './selection';
import type { Selection } from './selection';
import type { TableEditing } from './table-editing';

/** The rows Set field applies to, and a note when they are fewer than the view's. */
export interface SetFieldAsk {
  rows: number[];
  note?: string;
}

interface Deps {
  editing: TableEditing;
  /** The base's request budget, where its server is metered: a whole-view delete says what it costs. */
  budget: BudgetStatus | undefined;
  frame: FrameGrid;
  selectAll: ReturnType<typeof useSelectAll>;
  ask: (c: Confirmation) => void;
  askSetField: (a: SetFieldAsk) => void;
}

export type FrameActions = ReturnType<typeof frameActions>;

/** The rows an insert, a duplicate or a delete acts on, by grid index, and the column focused in the new rows. */
interface ActedRows {
  records: RecordData[];
  top: number;
  bottom: number;
  /** The row pinned at the top (the new row), not one of the view's. */
  pinned: boolean;
  focus: string | undefined;
}

export function frameActions({ editing, budget, frame, selectAll, ask, askSetField }: Deps) {
  const runBulk = (plan: BulkPlan, done: string) => {
    const left = [
      ...plan.skipped,
      ...(plan.unloaded > 0 ? [`${plural(plan.unloaded, 'row')} not loaded yet left out`] : []),
    ];
    if (plan.changes.length > MAX_EDITS_PER_CALL) {
      editing.say(
        `This would change ${plural(plan.changes.length, 'record')}, more than one change may hold (${MAX_EDITS_PER_CALL.toLocaleString()} records, one undo step): nothing was sent. Choose fewer rows, or filter the view.`,
        'error',
      );
      return;
    }
    if (plan.changes.length > 0) void editing.edit(plan.changes);
    const head = plan.cells > 0 ? `${done} ${plural(plan.cells, 'cell')}.` : 'Nothing to change.';
    editing.say(
      [head, ...(left.length > 0 ? ['Left out:', ...left] : [])].join('\n'),
      left.length > 0 ? 'error' : 'info',
      {
        untilNextAction: left.length > 0,
      },
    );
  };

  /** A range fills down from its first row; selected rows, in the focused column. */
  const fillDown = (selection: Selection) => {
    const rows = rowsSpanned(selection);
    if (selection.kind === 'range' && rows.length > 1) {
      runBulk(planFillDown(frame.bulk(), rows, selection.range.columns), 'Filled');
      return;
    }
    const column = selection.kind === 'none' ? undefined : selection.focused?.column;
    if (
      selection.kind === 'range' ||
      column === undefined ||
      !frame.displayed().some((f) => f.name === column) ||
      rows.length < 2
    ) {
      editing.say(
        `Choose cells down a column (drag over them) or select rows first, then ${keysOf('grid.fillDown')[0] ?? 'Fill down'}.`,
        'info',
      );
      return;
    }
    runBulk(planFillDown(frame.bulk(), rows, [column]), 'Filled');
  };

  const clearRange = (selection: Selection) => {
    if (selection.kind === 'range') runBulk(planClear(frame.bulk(), selection.range), 'Cleared');
  };

  /** Set field: the rows of the range of cells, or the selected rows (those loaded, of a whole view). */
  const setField = (selection: Selection) => {
    const rows = rowsSpanned(selection);
    if (rows.length === 0) return;
    const whole = selection.kind === 'view' ? selection.count : undefined;
    askSetField({
      rows,
      ...(whole !== undefined && whole > rows.length
        ? {
            note: `Only the ${plural(rows.length, 'loaded row')} of the ${whole.toLocaleString()} in this view are set (one undo step); scroll to load more, or filter the view to the rows you mean.`,
          }
        : {}),
    });
  };

  /**
   * The rows an insert, a duplicate or a delete acts on: the selected rows (all of the view's only when all are
   * loaded), a range's rows, or the focused cell's; undefined, with a word why, when they cannot be read.
   */
  const rowsOf = (selection: Selection): ActedRows | undefined => {
    if (selection.kind === 'none') return undefined;
    const focus = selection.focused?.column ?? frame.displayed()[0]?.name;
    if (selection.kind === 'cell') {
      const { row, pinned } = selection.focused;
      const record = frame.recordAt(selection.focused);
      return record && { records: [record], top: row, bottom: row, pinned, focus };
    }
    const indexes = rowsSpanned(selection);
    const bulk = frame.bulk();
    const slots = indexes.map((i) => bulk.rowAt(i)).filter((r) => r !== 'header');
    const records = slots.filter((r) => r !== undefined);
    if (records.length < slots.length || (selection.kind === 'view' && selection.count > records.length)) {
      editing.say(
        'Some of the rows chosen are not loaded yet: scroll to them, or choose fewer rows.',
        'error',
      );
      return undefined;
    }
    const [top, bottom] = [indexes[0], indexes.at(-1)];
    if (top === undefined || bottom === undefined) return undefined;
    return { records, top, bottom, pinned: false, focus };
  };

  const deleteRows = (rows: RecordData[]) => {
    if (rows.length === 0) return;
    ask({
      title: 'Delete records',
      text: `Delete ${plural(rows.length, 'record')}? ${titleOf('grid.undo')} re-creates them with new ids.`,
      action: 'Delete',
      run: () => void editing.delete(rows),
    });
  };

  /**
   * The records the selection holds, after one confirmation: the whole view (read first), the selected rows,
   * a range's rows or the focused cell's. The Delete key clears a range instead (grid-keys.ts).
   */
  const deleteRecords = (selection: Selection) => {
    if (selection.kind !== 'view') {
      const rows = rowsOf(selection);
      if (rows) deleteRows(rows.records);
      return;
    }
    // On the hosted service this is the costliest thing a click does (50,000 records: about 5,500 calls), so
    // it says so in the budget's own words (issue 26); the local server has no allowance.
    const cost =
      budget?.metered === true
        ? ` Reading and deleting them takes ${costText(
            {
              calls: wholeViewDeleteCalls(selection.count, selection.rows.length, editing.deleteReadsById),
              recordsPerCall: RECORDS_PER_READ,
            },
            budget,
          )}.`
        : '';
    ask({
      title: 'Delete records',
      text: `Delete all ${plural(selection.count, 'record')} of this view? ${titleOf('grid.undo')} re-creates them with new ids.${cost}`,
      action: 'Delete',
      run: () =>
        void selectAll.readAll().then((rows) => {
          selectAll.clear();
          if (rows && rows.length > 0) void editing.delete(rows);
        }),
    });
  };

  /**
   * New records beside the rows acted on, shown where they were asked for (table-editing.ts). A grouped
   * view puts a record in its group, and the row pinned at the top is not one of the view's: their new
   * records are pinned at the top, as Add row's is.
   */
  const insertAt = (fieldsList: Record<string, unknown>[], index: number, rows: ActedRows) => {
    if (fieldsList.length > MAX_EDITS_PER_CALL) {
      editing.say(
        `That would create ${plural(fieldsList.length, 'record')}, more than one change may hold (${MAX_EDITS_PER_CALL.toLocaleString()}): nothing was sent. Choose fewer rows.`,
        'error',
      );
      return;
    }
    const at = rows.pinned || frame.grouped() ? undefined : index;
    void editing.insert(fieldsList, at, rows.focus);
  };

  /** As many blank records as the rows acted on, above the first of them or below the last. */
  const insert = (selection: Selection, where: 'above' | 'below') => {
    const rows = rowsOf(selection);
    if (!rows) return;
    const blanks = rows.records.map(() => ({}));
    insertAt(blanks, where === 'above' ? rows.top : rows.bottom + 1, rows);
  };

  /** A copy of each record acted on, in their order, below the last of them. */
  const duplicate = async (selection: Selection) => {
    const rows = rowsOf(selection);
    if (!rows) return;
    const displayed = frame.displayed().map((f) => f.name);
    const whole = await wholeRecords(editing.api, editing.target, editing.fields, displayed, rows.records);
    if (typeof whole === 'string') {
      editing.say(whole, 'error');
      return;
    }
    const shown = (row: RecordData, field: string) => editing.store.value(row, field);
    const copies = whole.map((r) => duplicateFields(r, editing.fields, shown));
    insertAt(copies, rows.bottom + 1, rows);
  };

  return { runBulk, fillDown, clearRange, setField, deleteRecords, insert, duplicate };
}
