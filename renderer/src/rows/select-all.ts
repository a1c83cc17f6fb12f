/**
 * Select-all: the header checkbox selects every loaded row; where the view holds more (its exact count is
 * known), the user is asked whether to select all of them. Rows not loaded have no grid node to select, so
 * the whole view is a mode, not a selection: a delete then reads the view's records (the page chain the grid
 * reads, 1,000 rows a call, with progress and Cancel) and deletes them all, with undo as for any delete.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { RefObject } from 'react';
import type { TableDeskApi } from '../../../core/contract';
import { plural } from '../../../core/records/format';
import type { RecordData } from '../../../core/records/types';
import type { ViewCount } from '../status/StatusBar';
import type { Confirmation } from '../ui/ConfirmDialog';
import { SELECT_ALL_LOADED } from '../grid/row-numbers';

/** The most rows one `view.rows` call may ask for. */
const ROWS_PER_CALL = 1000;

export interface ReadProgress {
  read: number;
  total: number;
}

/** Every record of an open view, in its order, a call at a time; undefined when cancelled. */
export async function readViewRecords(
  api: TableDeskApi,
  viewId: string,
  total: number,
  onProgress: (p: ReadProgress) => void,
  cancelled: () => boolean,
): Promise<RecordData[] | undefined> {
  const records: RecordData[] = [];
  for (let start = 0; ; start += ROWS_PER_CALL) {
    if (cancelled()) return undefined;
    const rows = await api.call('view.rows', { viewId, start, end: start + ROWS_PER_CALL });
    records.push(...rows.records);
    onProgress({ read: records.length, total: Math.max(total, rows.rowCount ?? 0) });
    if (rows.records.length < ROWS_PER_CALL) return records;
  }
}

interface Options {
  api: TableDeskApi;
  frame: RefObject<HTMLElement | null>;
  viewId: string | undefined;
  count: ViewCount | undefined;
  selectedCount: number;
  ask: (c: Confirmation) => void;
}

export function useSelectAll({ api, frame, viewId, count, selectedCount, ask }: Options) {
  /** The whole view was chosen: the view, its count then, and the loaded selection it started from. */
  const [chosen, setChosen] = useState<{ viewId: string; count: number; from: number }>();
  const [reading, setReading] = useState<ReadProgress>();
  const cancel = useRef(false);
  // Another view, or a row taken out of the selection, ends the whole-view choice.
  const wholeView = chosen && chosen.viewId === viewId && selectedCount >= chosen.from ? chosen : undefined;

  useEffect(() => {
    const el = frame.current;
    if (!el) return;
    const offer = (e: Event) => {
      const selected = (e as CustomEvent<{ selected: number }>).detail.selected;
      const c = count;
      if (!viewId || !c?.exact || c.count <= selected) return;
      ask({
        title: 'Select all records',
        text: `${plural(selected, 'loaded row')} ${selected === 1 ? 'is' : 'are'} selected. Select all ${plural(c.count, 'record')} of this view?`,
        action: `Select all ${c.count.toLocaleString()}`,
        run: () => setChosen({ viewId, count: c.count, from: selected }),
      });
    };
    el.addEventListener(SELECT_ALL_LOADED, offer);
    return () => el.removeEventListener(SELECT_ALL_LOADED, offer);
  }, [frame, ask, count, viewId]);

  /** The view's records for a delete of the whole view, read with progress; undefined when cancelled. */
  const readAll = useCallback(async (): Promise<RecordData[] | undefined> => {
    if (!viewId || !wholeView) return undefined;
    cancel.current = false;
    setReading({ read: 0, total: wholeView.count });
    try {
      return await readViewRecords(api, viewId, wholeView.count, setReading, () => cancel.current);
    } finally {
      setReading(undefined);
    }
  }, [api, viewId, wholeView]);

  return {
    /** The count of the whole view when it is selected. */
    wholeView: wholeView?.count,
    reading,
    readAll,
    cancelReading: () => {
      cancel.current = true;
    },
    clear: () => setChosen(undefined),
  };
}
