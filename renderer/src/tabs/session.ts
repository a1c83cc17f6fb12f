/**
 * What the app remembers between starts, in the renderer's localStorage: the connection last used and the
 * tables that were open. Nothing remembered means a first start, which opens the demo base's main table.
 */
import type { ConnectionSummary, TableDeskApi } from '../../../core/contract';
import type { TableTarget } from '../table/view-session';

const KEY = 'tabledesk.session';
const MAX_TABS = 50;
const DEMO_TABLE = 'Tasks';

export interface RememberedTab {
  connectionId: string;
  baseId: string;
  table: string;
}

export interface Session {
  connectionId?: string | undefined;
  tabs: RememberedTab[];
  /** The tab that was in front, by its key; none when the home page was. */
  activeKey?: string | undefined;
}

const isText = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 500;

/** The remembered session, or undefined on a first start. The stored text is checked like any input. */
export function loadSession(): Session | undefined {
  let raw: unknown;
  try {
    const text = window.localStorage.getItem(KEY);
    if (text === null) return undefined;
    raw = JSON.parse(text);
  } catch {
    return { tabs: [] };
  }
  if (raw === null || typeof raw !== 'object') return { tabs: [] };
  const r = raw as Record<string, unknown>;
  const tabs = (Array.isArray(r.tabs) ? r.tabs : [])
    .slice(0, MAX_TABS)
    .filter((t): t is RememberedTab => {
      const o = t as Record<string, unknown> | null;
      return (
        o !== null && typeof o === 'object' && isText(o.connectionId) && isText(o.baseId) && isText(o.table)
      );
    })
    .map(({ connectionId, baseId, table }) => ({ connectionId, baseId, table }));
  return {
    tabs,
    ...(isText(r.connectionId) ? { connectionId: r.connectionId } : {}),
    ...(isText(r.activeKey) ? { activeKey: r.activeKey } : {}),
  };
}

export function saveSession(session: Session): void {
  try {
    window.localStorage.setItem(KEY, JSON.stringify(session));
  } catch {
    // A full or disabled storage only costs the next start its memory.
  }
}

/** The table with its schema (for its views) where the metadata API answers; without it where it refuses. */
export async function withSchema(api: TableDeskApi, tab: RememberedTab): Promise<TableTarget> {
  try {
    const r = await api.call('meta.tables', { connectionId: tab.connectionId, baseId: tab.baseId });
    const schema = r.refused ? undefined : r.tables.find((t) => t.id === tab.table || t.name === tab.table);
    return { ...tab, schema };
  } catch {
    return { ...tab };
  }
}

/** A first start's table: the demo server's Tasks (or its first table), when the demo connection is there. */
export async function demoTarget(
  api: TableDeskApi,
  connections: readonly ConnectionSummary[],
): Promise<TableTarget | undefined> {
  const demo = connections.find((c) => c.builtin);
  if (demo === undefined) return undefined;
  try {
    const bases = await api.call('meta.bases', { connectionId: demo.id });
    const base = bases.refused ? undefined : bases.bases[0];
    if (base === undefined) return undefined;
    const r = await api.call('meta.tables', { connectionId: demo.id, baseId: base.id });
    if (r.refused) return undefined;
    const schema = r.tables.find((t) => t.name === DEMO_TABLE) ?? r.tables[0];
    return schema && { connectionId: demo.id, baseId: base.id, table: schema.name, schema };
  } catch {
    return undefined;
  }
}
