/**
 * Light and dark follow the OS (`prefers-color-scheme`). ag-grid's Quartz theme reads its colour scheme from
 * `data-ag-theme-mode` on <html>; the app's own CSS uses the same media query.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { themeQuartz } from 'ag-grid-community';

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
    document.documentElement.dataset['agThemeMode'] = scheme;
  }, [scheme]);
  return scheme;
}

/**
 * The grid takes the app's own palette (styles.css) in both modes, so in dark mode it matches the toolbar and
 * status bar around it instead of Quartz's own dark blue-grey.
 */
const palette = {
  backgroundColor: 'var(--bg)',
  foregroundColor: 'var(--fg)',
  chromeBackgroundColor: 'var(--bg-2)',
  headerBackgroundColor: 'var(--bg-2)',
  borderColor: 'var(--border)',
  accentColor: 'var(--accent)',
};

export const gridTheme = themeQuartz
  .withParams({
    fontSize: 13,
    spacing: 6,
    headerFontWeight: 600,
    wrapperBorderRadius: 0,
  })
  .withParams(palette, 'light')
  .withParams(palette, 'dark');
