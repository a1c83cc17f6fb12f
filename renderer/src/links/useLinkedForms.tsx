/**
 * The tab's linked-record forms: a chip (in the grid or a form) opens its record on a stack; Back pops it,
 * Close empties it. The grid's chips are plain DOM, so their clicks are caught once, around the grid; a
 * double-click there edits the cell instead, so a grid chip opens only once no second click has come.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { MouseEvent, ReactNode } from 'react';
import type { LinksScope } from './context';
import { LinkedRecordForm } from './LinkedRecordForm';
import type { LinkedPlace } from './LinkedRecordForm';

/** How long a click on a grid chip waits for a second one (a double-click edits the cell). */
const DOUBLE_CLICK_MS = 300;

export function useLinkedForms(connectionId: string, baseId: string) {
  const [stack, setStack] = useState<LinkedPlace[]>([]);
  // The form on top replaces the one below, so the focus goes back to what opened the first one.
  const [opener, setOpener] = useState<Element | null>(null);
  const depth = useRef(0);
  useEffect(() => {
    depth.current = stack.length;
  }, [stack.length]);
  const open = useCallback((tableId: string, recordId: string) => {
    if (depth.current === 0) setOpener(document.activeElement);
    setStack((s) => [...s, { tableId, recordId }]);
  }, []);
  const scope = useMemo<LinksScope>(
    () => ({ target: { connectionId, baseId }, open }),
    [connectionId, baseId, open],
  );
  const pending = useRef<ReturnType<typeof setTimeout>>(undefined);
  const onClick = (e: MouseEvent) => {
    clearTimeout(pending.current);
    const chip = e.target instanceof Element ? e.target.closest<HTMLElement>('span.td-chip-link') : null;
    const { recordId, tableId } = chip?.dataset ?? {};
    if (recordId !== undefined && tableId !== undefined && e.detail <= 1)
      pending.current = setTimeout(() => open(tableId, recordId), DOUBLE_CLICK_MS);
  };
  const place = stack.at(-1);
  const form: ReactNode = place && (
    <LinkedRecordForm
      key={`${stack.length}:${place.recordId}`}
      place={place}
      opener={opener}
      onBack={() => setStack((s) => s.slice(0, -1))}
      onClose={() => setStack([])}
    />
  );
  return { scope, onClick, form };
}
