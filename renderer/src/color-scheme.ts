/**
 * Light and dark follow the OS (`prefers-color-scheme`). ag-grid's Quartz theme reads its colour scheme from
 * `data-ag-theme-mode` on <html>; the app's own CSS uses the same media query.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { showGridScheme } from './grid/theme';

const query = '(prefers-color-scheme: dark)';

function subscribe(onChange: () => void): () => void {
  const list = window.matchMedia(query);
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
}

export type ColorScheme = 'light' | 'dark';

export function useColorScheme(): ColorScheme {
  const dark = useSyncExternalStore(subscribe, () => window.matchMedia(query).matches);
  const scheme: ColorScheme = dark ? 'dark' : 'light';
  useEffect(() => {
    showGridScheme(scheme);
  }, [scheme]);
  return scheme;
}
