/**
 * A menu of commands from the table (a column header's, a cell's, a row number's): role=menu, ↑/↓, Home and
 * End move between items, Enter or a click runs one, Esc or a press outside closes it. Each item shows its
 * command's first key and says all of them in aria-keyshortcuts. ag-grid Community has no context menu.
 */
import { useLayoutEffect, useRef } from 'react';
import type { KeyboardEvent } from 'react';
import { useDismiss } from './useDismiss';
import { listStep } from '../commands/match';
import { keysOf, MAC, shortcutProps } from '../commands/shown';
import { COMMANDS } from '../commands/table';
import type { CommandId } from '../commands/table';
import './commands.css';
import { useFocusReturn } from './useFocusReturn';

export interface MenuItem {
  id: CommandId;
  run: () => void;
  /** Instead of the table's label, when the item says more (the rows it deletes, Freeze or Unfreeze). */
  label?: string;
  disabled?: boolean;
}

interface Props {
  label: string;
  items: readonly MenuItem[];
  at: { left: number; top: number };
  /** Esc, a press outside, or before an item runs. */
  onClose: () => void;
  width?: number;
}

const MENU_WIDTH = 240;

/** The list's next and previous items wrap round, its first and last go to the ends, over the enabled items. */
function moveFocus(e: KeyboardEvent<HTMLElement>): void {
  const step = listStep(e, MAC);
  if (step === undefined) return;
  e.preventDefault();
  e.stopPropagation();
  const buttons = [...e.currentTarget.querySelectorAll<HTMLButtonElement>('button:not(:disabled)')];
  const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
  const next =
    step === 'first'
      ? 0
      : step === 'last'
        ? buttons.length - 1
        : (at + (step === 'next' ? 1 : -1) + buttons.length) % buttons.length;
  buttons[next]?.focus();
}

export function CommandMenu({ label, items, at, onClose, width = MENU_WIDTH }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  useDismiss(true, ref, onClose);
  useFocusReturn();
  useLayoutEffect(() => {
    ref.current?.querySelector<HTMLButtonElement>('button:not(:disabled)')?.focus();
  }, [label]);
  const left = Math.max(0, Math.min(at.left, window.innerWidth - width - 8));
  return (
    <div
      ref={ref}
      className="td-menu"
      role="menu"
      aria-label={label}
      style={{ top: at.top, left, width }}
      onKeyDown={moveFocus}
    >
      {items.map((item) => {
        const keys = keysOf(item.id)[0];
        const text = item.label ?? COMMANDS[item.id].label;
        return (
          <button
            key={item.id}
            type="button"
            role="menuitem"
            disabled={item.disabled}
            aria-keyshortcuts={keys === undefined ? undefined : shortcutProps(item.id)['aria-keyshortcuts']}
            onClick={() => {
              onClose();
              item.run();
            }}
          >
            {text}
            {keys !== undefined && (
              <kbd className="td-menu-keys" aria-hidden>
                {keys}
              </kbd>
            )}
          </button>
        );
      })}
    </div>
  );
}
