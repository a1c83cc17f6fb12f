/** The open tables, several connections at once; the home page (connections and picker) is not a tab. */
import type { TableTarget } from '../table/view-session';

export interface Tab {
  key: string;
  label: string;
  target: TableTarget;
}

export const tabKey = (t: TableTarget) => `${t.connectionId}/${t.baseId}/${t.table}`;

/** The tab after (or before) the active one, wrapping around; from the home page, the first or last tab. */
export function cycle(tabs: readonly Tab[], activeKey: string | undefined, step: 1 | -1): string | undefined {
  if (tabs.length === 0) return undefined;
  const i = tabs.findIndex((t) => t.key === activeKey);
  if (i < 0) return (step === 1 ? tabs[0] : tabs[tabs.length - 1])?.key;
  return tabs[(i + step + tabs.length) % tabs.length]?.key;
}

/** Closing a tab activates its right neighbour, else its left one, else the home page. */
export function afterClose(tabs: readonly Tab[], closing: string): string | undefined {
  const i = tabs.findIndex((t) => t.key === closing);
  const rest = tabs.filter((t) => t.key !== closing);
  return rest[Math.min(i, rest.length - 1)]?.key;
}
