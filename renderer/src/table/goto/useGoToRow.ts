/**
 * Go to row (the toolbar box, Ctrl+G). The services make the row ready (`view.walk`) while the grid stays
 * where it is, so no blank rows show: they read its page where it is, at once where the service allows it,
 * or once the view's map reaches it; else they walk the view's page chain. A walk that takes a while shows a
 * panel with the pages and time left and Cancel (`view.cancelWalk`), after which no further page of the chain
 * is asked for. On arrival the row is scrolled to the middle, its first cell focused and the row marked until
 * the next key or click. A row past the end goes to the last one and says how many records the view has.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { plural } from '../../../../core/records/format';
import { useApi } from '../../api/ApiProvider';
import { errorMessage } from '../../api/call-errors';
import { recordRows } from '../../grid/dom';
import type { GridPort, RowClassRule } from '../../grid/port';
import { focusFirstCell, showRow } from './arrive';

/** A walk under way: the row asked for, the rows it walks to, rows held now and when it began, for the pace. */
export interface GotoWalk {
  row: number;
  to: number;
  loaded: number;
  startLoaded: number;
  startedAt: number;
  at: number;
}

interface Options {
  viewId: string | undefined;
  grid: () => GridPort | null;
  /** The tab's element, where the grid draws its rows. */
  root: () => HTMLElement | null;
  /** Rows the services hold for the view now. */
  loaded: number;
  /** Rows of the view mapped so far, while its map is walked (the count's "at least n"); else 0. */
  mapped: number;
}

export const ARRIVED_CLASS = 'td-row-arrived';

/** Rows walked past the one asked for, so that it can sit in the middle with rows drawn below it. */
const ROWS_BELOW = 20;
/** A row read where it is arrives within this: the panel shows only for a walk that takes longer. */
const PANEL_AFTER_MS = 400;

export function useGoToRow({ viewId, grid, root, loaded, mapped }: Options) {
  const services = useApi();
  const [walk, setWalk] = useState<GotoWalk>();
  // A note about the view ("This view has no records.", a failed walk) does not hold for the next one.
  const [noted, setNoted] = useState<{ text: string; viewId: string | undefined }>();
  const note = noted && noted.viewId === viewId ? noted.text : undefined;
  const marked = useRef<string | undefined>(undefined);
  const unmark = useRef<() => void>(() => undefined);
  const walking = walk !== undefined;

  useEffect(() => {
    if (!walking || viewId === undefined) return;
    const reached = (n: number) =>
      setWalk((w) => w && { ...w, loaded: Math.max(w.loaded, n), at: Date.now() });
    const offs = [
      services.on('view.state', (s) => {
        if (s.viewId === viewId) reached(s.loaded);
      }),
      // Where the view is mapped as it is walked, the map's walk is the one go to row waits for.
      services.on('view.count', (c) => {
        if (c.viewId === viewId && !c.exact) reached(c.count);
      }),
    ];
    return () => offs.forEach((off) => off());
  }, [services, walking, viewId]);

  const rowClassRules = useMemo(
    (): Record<string, RowClassRule> => ({
      [ARRIVED_CLASS]: (p) => p.data !== undefined && p.data.id === marked.current,
    }),
    [],
  );

  /**
   * Marks the row until the next key or click anywhere, with the note if any. The class goes on the row's
   * elements at once (a redraw would take the focus back to the grid) and the rule keeps it on rows the grid
   * draws again meanwhile.
   */
  const mark = useCallback(
    (id: string) => {
      unmark.current();
      marked.current = id;
      const rows = () => recordRows(root(), id);
      for (const row of rows()) row.classList.add(ARRIVED_CLASS);
      const listening = new AbortController();
      const clear = () => {
        if (listening.signal.aborted) return;
        listening.abort();
        if (marked.current === id) marked.current = undefined;
        for (const row of rows()) row.classList.remove(ARRIVED_CLASS);
        setNoted(undefined);
      };
      unmark.current = clear;
      // After the event that brought the row here has finished its way through the document.
      setTimeout(() => {
        if (listening.signal.aborted) return;
        for (const type of ['keydown', 'pointerdown'] as const)
          document.addEventListener(type, clear, { capture: true, signal: listening.signal });
      });
    },
    [root],
  );

  const go = useCallback(
    async (row: number) => {
      const api = grid();
      if (!api || viewId === undefined || !Number.isInteger(row) || row < 1) return;
      unmark.current();
      setNoted(undefined);
      const shown = api.rowCount();
      let rowCount = shown.known ? shown.count : undefined;
      let held = 0;
      if (rowCount === undefined || row <= rowCount) {
        const now = Date.now();
        const start = Math.max(loaded, mapped);
        const to = row + ROWS_BELOW;
        const panel = setTimeout(
          () => setWalk({ row, to, loaded: start, startLoaded: start, startedAt: now, at: now }),
          PANEL_AFTER_MS,
        );
        try {
          // The rows the grid draws: a row read where it is comes with the screen around it.
          const drawn = api.drawnRows();
          const screenRows = drawn.last - drawn.first + 1;
          const answer = await services.call('view.walk', {
            viewId,
            to,
            row,
            ...(screenRows > 0 && screenRows <= 1000 ? { screenRows } : {}),
          });
          if (answer.cancelled) return;
          rowCount = answer.rowCount;
          held = answer.loaded;
        } catch (e) {
          setNoted({ text: errorMessage(e), viewId });
          return;
        } finally {
          clearTimeout(panel);
          setWalk(undefined);
        }
      }
      let index = row - 1;
      let past: string | undefined;
      if (rowCount !== undefined && index >= rowCount) {
        past =
          rowCount === 0
            ? 'This view has no records.'
            : `This view has ${plural(rowCount, 'record')}; here is the last one.`;
        index = rowCount - 1;
      }
      setNoted(past === undefined ? undefined : { text: past, viewId });
      if (index < 0) return;
      const record = await showRow(api, index, { rowCount, held });
      if (record === undefined) return;
      mark(record.id);
      await focusFirstCell(api, index, root);
    },
    [services, grid, viewId, mark, loaded, mapped, root],
  );

  const cancel = useCallback(() => {
    if (viewId !== undefined) void services.call('view.cancelWalk', { viewId });
  }, [services, viewId]);

  return { walk, note, go, cancel, rowClassRules };
}
