/** The global `window.tabledesk`, typed: import this module once in the renderer for its side effect on types. */
import type { TableDeskApi } from './api';

declare global {
  interface Window {
    tabledesk: TableDeskApi;
  }
}

export {};
