/**
 * The page's one key listener for the `tab` and `app` scopes: parts of the page bind handlers to command ids
 * while they are shown, and a key the matcher turns into a bound command runs the newest binding's handler.
 * The grid's keys are matched by the editing frame itself (in the capture phase, before ag-grid sees them);
 * a modal dialog stops its keys before they reach the document.
 */
import { useEffect, useRef } from 'react';
import { matchCommand } from './match';
import { MAC, typingIn } from './shown';
import type { CommandId, Scope } from './table';

/** Returns false when the binding passes (not its moment): the key is then left alone. */
export type Handler = (e: KeyboardEvent) => boolean | void;
export type Handlers = Partial<Record<CommandId, Handler>>;

const bindings: { handlers: () => Handlers }[] = [];

function onKey(e: KeyboardEvent): void {
  const id = matchCommand(e, ['tab', 'app'] satisfies Scope[], { mac: MAC, typing: typingIn(e.target) });
  if (id === undefined) return;
  for (const b of [...bindings].reverse()) {
    const handler = b.handlers()[id];
    if (handler && handler(e) !== false) {
      e.preventDefault();
      return;
    }
  }
}

/** Installs the listener for the page's life (the app shell calls it once). */
export function useKeyDispatcher(): void {
  useEffect(() => {
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}

/** Binds handlers while `active`; the latest handlers are called, so they may close over fresh state. */
export function useCommands(handlers: Handlers, active = true): void {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  useEffect(() => {
    if (!active) return;
    const binding = { handlers: () => latest.current };
    bindings.push(binding);
    return () => {
      bindings.splice(bindings.indexOf(binding), 1);
    };
  }, [active]);
}
