/**
 * A tab's name as the tab bar and the window title show it: an offline copy's table is marked as one (it has
 * the hosted base's id and its tables' names, so nothing else tells the two apart), and told from the other
 * copies of bases with its base's name.
 */
import { useEffect } from 'react';
import type { MirrorInfo } from '../../../core/contract';
import { copyTableName } from '../../../core/records/copy-names';
import { mirrorServedAs, useMirrors } from '../offline/mirrors';
import type { Tab } from './tabs';

export function tabLabel(tab: Tab, mirrors: readonly MirrorInfo[]): string {
  const copy = mirrorServedAs(mirrors, tab.target.connectionId, tab.target.baseId);
  return copy ? copyTableName(tab.label, copy, mirrors) : tab.label;
}

/** The window's title (which the Electron shell shows): the table in front, "TableDesk" on the home page. */
export function windowTitle(tab: Tab | undefined, mirrors: readonly MirrorInfo[]): string {
  return tab === undefined ? 'TableDesk' : `${tabLabel(tab, mirrors)} — TableDesk`;
}

export function useWindowTitle(tab: Tab | undefined): void {
  const { mirrors } = useMirrors();
  const title = windowTitle(tab, mirrors);
  useEffect(() => {
    document.title = title;
  }, [title]);
}
