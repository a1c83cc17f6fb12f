/** The grid's look: ag-grid's Quartz theme in the app's palette (color-scheme.ts follows the OS's light or dark). */
import { themeQuartz } from 'ag-grid-community';

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

/** The grid's colour scheme: Quartz reads it from `data-ag-theme-mode` on <html>. */
export function showGridScheme(scheme: 'light' | 'dark'): void {
  document.documentElement.dataset['agThemeMode'] = scheme;
}

export const gridTheme = themeQuartz
  .withParams({
    fontSize: 13,
    spacing: 6,
    headerFontWeight: 600,
    wrapperBorderRadius: 0,
  })
  .withParams(palette, 'light')
  .withParams(palette, 'dark');
