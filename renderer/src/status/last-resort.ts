/**
 * The renderer's last resort for bugs: a thrown error nothing caught, a rejected promise nobody awaited, or a
 * component that failed to draw (ErrorBoundary) is logged as a bug and reported in the status bar, and the
 * app stays up. Expected failures never come here: they arrive as results with their own messages.
 */
import { useSyncExternalStore } from 'react';
import { errorMessage } from '../api/call-errors';

let last: string | undefined;
const listeners = new Set<() => void>();

function set(message: string | undefined): void {
  last = message;
  for (const l of listeners) l();
}

/** Logs an error no code expected and shows it until dismissed. */
export function reportBug(error: unknown): void {
  console.error('Unexpected error (a bug):', error);
  set(`Unexpected error: ${errorMessage(error)}`);
}

export function dismissBug(): void {
  set(undefined);
}

/** The last bug's message, while it is shown. */
export function useLastBug(): string | undefined {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => last,
  );
}

/**
 * Reports the window's uncaught errors and unhandled rejections. An error event without an error object is a
 * browser notice (ResizeObserver's loop limit) or a script of another origin, not a bug of the app's.
 */
export function installLastResort(target: Window): void {
  target.addEventListener('error', (e) => {
    if (e.error !== null && e.error !== undefined) reportBug(e.error);
  });
  target.addEventListener('unhandledrejection', (e) => {
    e.preventDefault();
    reportBug(e.reason);
  });
}
