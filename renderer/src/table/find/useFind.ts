/**
 * Find in the view (Ctrl+F, or Find in the toolbar). Typing highlights matches in the rows the grid has drawn
 * (`paint.ts`) and, after a pause, asks the services for the view's number of matching records (`find.count`).
 * Enter and Shift+Enter (Next, Previous) ask `find.next` for the next matching row in the view's order, which
 * the services find among loaded rows or, beyond them, with the service's formula and a walk of the view's
 * chain (see services/table-view/find.ts); the row is scrolled to the middle and its matching cells marked,
 * while the keyboard stays in the find box. Esc closes the bar and puts the grid back as it was when the bar
 * opened: scroll, focused cell and focus (row selection is never touched by Find).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Column } from '../../../../core/contract';
import { MAX_FIND_TEXT, cellMatches, isFindable } from '../../../../core/records/find-formula';
import { useApi } from '../../api/ApiProvider';
import { errorMessage } from '../../api/call-errors';
import { sameTarget } from '../../editing/edit-store';
import type { EditTarget } from '../../editing/edit-store';
import { scroller } from '../../grid/dom';
import type { CellPosition, GridPort } from '../../grid/port';
import { showRow } from '../goto/arrive';
import { paintFind, watchFind } from './paint';

/** Typing pause before the services are asked to count. */
export const FIND_DEBOUNCE_MS = 250;

/** A step that takes longer than this shows that it is searching, with Stop. */
const BUSY_AFTER_MS = 300;

/** Quiet time after records of the table are created, deleted or saved before the count is asked again. */
const RECOUNT_AFTER_MS = 500;

export interface FindMatch {
  row: number;
  recordId: string;
  ordinal: number;
}

interface Options {
  viewId: string | undefined;
  /** The tab's table: its records created, deleted or edited (here or in another tab) change the count. */
  target: EditTarget;
  grid: () => GridPort | null;
  /** Where the grid draws its rows. */
  root: () => HTMLElement | null;
  /** The shown columns, in the grid's order. */
  columns: readonly Column[];
  /** Whether the tab is in front (only its grid is painted). */
  active: boolean;
  /** Next and Previous need rows that are records at their view offsets: not so in a grouped view. */
  grouped: boolean;
}

/** The grid as the bar found it, to put back on Esc. */
interface Saved {
  top: number;
  left: number;
  focused: CellPosition | undefined;
  element: Element | null;
}

export function useFind({ viewId, target, grid, root, columns, active, grouped }: Options) {
  const services = useApi();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  /** The text as searched: `text` after the typing pause. */
  const [search, setSearch] = useState('');
  const [busy, setBusy] = useState(false);
  /** Asks the find box to take the focus (the bar owns the box). */
  const [focusAsked, setFocusAsked] = useState(0);
  const saved = useRef<Saved | undefined>(undefined);
  /** The latest step: an older one's answer, or one that arrives after Esc, moves nothing. */
  const latest = useRef(0);
  /** The search the step under way belongs to. */
  const walking = useRef<string | undefined>(undefined);

  const fields = useMemo(() => columns.filter(isFindable), [columns]);
  const byName = useMemo(() => new Map(fields.map((c) => [c.name, c])), [fields]);
  const names = useMemo(() => fields.map((c) => c.name), [fields]);
  const tooLong = text.length > MAX_FIND_TEXT;
  // What the count, the current match and the note belong to: a new search, view or set of fields drops them.
  const key = `${viewId ?? ''}\u0000${search}\u0000${names.join('\u0000')}`;
  // 'declined': the walk that counts was not agreed to (its API calls), so only loaded rows are searched.
  const [counted, setCounted] = useState<{ key: string; count: number | 'declined' }>();
  const [at, setAt] = useState<{ key: string; match: FindMatch }>();
  const [said, setSaid] = useState<{ key: string; note: string }>();
  const counting = counted?.key === key ? counted.count : undefined;
  const count = counting === 'declined' ? undefined : counting;
  const current = open && at?.key === key ? at.match : undefined;
  const note = said?.key === key ? said.note : undefined;

  useEffect(() => {
    const t = setTimeout(() => setSearch(tooLong ? '' : text), FIND_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [text, tooLong]);

  // A step still walking for an older search is stale: it is stopped, and its answer moves nothing.
  useEffect(() => {
    const stale = walking.current;
    if (stale === undefined || stale === key) return;
    walking.current = undefined;
    latest.current++;
    void services.call('find.cancel', { viewId: stale.slice(0, stale.indexOf('\u0000')) });
  }, [services, key]);

  // Records created (an undone delete), deleted or edited: counted again once the changes stop.
  const [changes, setChanges] = useState(0);
  useEffect(() => {
    if (!open) return;
    let settle: ReturnType<typeof setTimeout> | undefined;
    const changed = (e: { target: EditTarget }) => {
      if (!sameTarget(e.target, target)) return;
      clearTimeout(settle);
      settle = setTimeout(() => setChanges((n) => n + 1), RECOUNT_AFTER_MS);
    };
    const offs = [
      services.on('records.created', changed),
      services.on('records.deleted', changed),
      services.on('edits.saved', changed),
    ];
    return () => {
      clearTimeout(settle);
      for (const off of offs) off();
    };
  }, [services, open, target]);

  // A new search, view or set of fields starts again from the top, with a new count.
  useEffect(() => {
    if (!open || search === '' || viewId === undefined || names.length === 0) return;
    let stale = false;
    services
      .call('find.count', { viewId, text: search, fields: names })
      .then((r) => {
        if (stale || r.cancelled) return;
        setCounted({ key, count: r.declined ? 'declined' : r.count });
      })
      .catch((e: unknown) => {
        if (!stale) setSaid({ key, note: errorMessage(e) });
      });
    return () => {
      stale = true;
    };
  }, [services, open, search, viewId, names, key, changes]);

  useEffect(() => {
    const element = root()?.querySelector<HTMLElement>('.td-grid');
    const api = grid();
    if (!open || !active || !element || !api) return;
    const stop = watchFind(element, () => paintFind(element, api, byName, search, current?.recordId));
    return () => {
      stop();
      paintFind(element, api, byName, '', undefined);
    };
  }, [open, active, search, current, byName, grid, root]);

  const show = useCallback(() => {
    if (!open) {
      const api = grid();
      const focused = api?.focusedCell();
      saved.current = {
        top: scroller(root())?.scrollTop ?? 0,
        left: scroller(root())?.scrollLeft ?? 0,
        // Put back in the view's rows (a pinned row may be gone by then).
        focused: focused && { ...focused, pinned: false },
        element: document.activeElement,
      };
      setOpen(true);
    }
    setFocusAsked((n) => n + 1);
  }, [open, grid, root]);

  const close = useCallback(() => {
    if (viewId !== undefined) void services.call('find.cancel', { viewId });
    latest.current++;
    setOpen(false);
    setBusy(false);
    setAt(undefined);
    const s = saved.current;
    saved.current = undefined;
    const api = grid();
    if (!s || !api || api.gone()) return;
    const v = scroller(root());
    if (v) {
      v.scrollTop = s.top;
      v.scrollLeft = s.left;
    }
    api.focus(s.focused ?? null);
    if (s.element instanceof HTMLElement && s.element.isConnected) s.element.focus({ preventScroll: true });
  }, [services, viewId, grid, root]);

  const step = useCallback(
    async (direction: 'next' | 'previous') => {
      const api = grid();
      // Enter right after typing searches what is typed, without waiting for the pause.
      const q = tooLong ? '' : text;
      if (!api || viewId === undefined || q === '' || grouped) return;
      if (q !== search) setSearch(q);
      const stepKey = `${viewId}\u0000${q}\u0000${names.join('\u0000')}`;
      const from = (stepKey === key ? current?.row : undefined) ?? (direction === 'next' ? -1 : 0);
      const seq = ++latest.current;
      walking.current = stepKey;
      // Said only when the step takes a while (a walk beyond the loaded rows), so a quick one does not flicker.
      const slow = setTimeout(() => {
        if (latest.current === seq) setBusy(true);
      }, BUSY_AFTER_MS);
      setSaid(undefined);
      try {
        const answer = await services.call('find.next', {
          viewId,
          text: q,
          fields: names,
          from,
          direction,
        });
        if (answer.cancelled || latest.current !== seq) return;
        const match = answer.match;
        const onlyLoaded = 'Only the loaded rows were searched: the walk beyond them was not agreed to.';
        if (match === undefined) {
          setSaid({ key: stepKey, note: answer.declined ? onlyLoaded : 'No matches in this view.' });
          return;
        }
        setAt({ key: stepKey, match });
        if (match.wrapped)
          setSaid({
            key: stepKey,
            note: answer.declined
              ? onlyLoaded
              : direction === 'next'
                ? 'Back to the first match.'
                : 'On to the last match.',
          });
        await showRow(api, match.row, { rowCount: answer.rowCount, held: answer.loaded });
        const record = api.recordAt(match.row);
        const column = fields.find((f) => cellMatches(f, record?.fields[f.name], q));
        if (column) api.showColumn(column.name);
      } catch (e) {
        setSaid({ key: stepKey, note: errorMessage(e) });
      } finally {
        clearTimeout(slow);
        if (latest.current === seq) walking.current = undefined;
        // A stale step's end clears the note too, unless a newer step is under way.
        if (walking.current === undefined) setBusy(false);
      }
    },
    [services, grid, viewId, text, tooLong, search, grouped, current, names, fields, key],
  );

  const cancel = useCallback(() => {
    if (viewId !== undefined) void services.call('find.cancel', { viewId });
  }, [services, viewId]);

  return {
    open,
    text,
    setText,
    search,
    count,
    declined: counting === 'declined',
    current,
    busy,
    note: tooLong ? `Find searches at most ${MAX_FIND_TEXT} characters.` : note,
    focusAsked,
    searchable: fields.length > 0,
    show,
    close,
    step,
    cancel,
  };
}
