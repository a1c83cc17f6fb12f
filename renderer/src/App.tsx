/**
 * The app shell: the home page (connections and the base/table picker) and one tab per open table.
 * Its keys (close the tab, next and previous tab, home, the shortcut sheet) are the command table's `app` scope.
 * A start reopens the last session's connection and tabs; the very first start opens the demo's Tasks.
 */
import { useCallback, useEffect, useState } from 'react';
import type { ConnectionSummary, Response } from '../../core/contract';
import { useApi } from './api/ApiProvider';
import { errorMessage } from './api/call-errors';
import { ConsentBar } from './budget/ConsentBar';
import { ConnectionForm } from './connections/ConnectionForm';
import { ConnectionList } from './connections/ConnectionList';
import { useCommands, useKeyDispatcher } from './commands/dispatch';
import { ShortcutSheet } from './ui/ShortcutSheet';
import { useQuitGuard } from './editing/useQuitGuard';
import { TablePicker } from './picker/TablePicker';
import { ErrorBoundary } from './status/ErrorBoundary';
import { dismissBug, useLastBug } from './status/last-resort';
import { TableTab } from './table/TableTab';
import type { TableTarget } from './table/view-session';
import { TabBar } from './tabs/TabBar';
import { useWindowTitle } from './tabs/tab-label';
import { demoTarget, loadSession, saveSession, withSchema } from './tabs/session';
import { afterClose, cycle, tabKey } from './tabs/tabs';
import type { Tab } from './tabs/tabs';
import { useColorScheme } from './color-scheme';

export function App() {
  const api = useApi();
  useColorScheme();
  const [info, setInfo] = useState<Response<'app.info'>>();
  const [connections, setConnections] = useState<ConnectionSummary[]>([]);
  const [selectedId, setSelectedId] = useState<string>();
  const [editing, setEditing] = useState<ConnectionSummary | 'new'>();
  const [notice, setNotice] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const bug = useLastBug();
  const [tabs, setTabs] = useState<Tab[]>([]);
  const [activeKey, setActiveKey] = useState<string>();
  const [session] = useState(loadSession);
  const [restored, setRestored] = useState(false);
  useQuitGuard(info?.door);

  const reload = useCallback(
    (select?: string) =>
      api.call('connections.list', {}).then(
        (r) => {
          const known = (id: string | undefined) => r.connections.some((c) => c.id === id);
          setConnections(r.connections);
          // The last connection used, unless it is gone; never a stale one by accident.
          setSelectedId(
            (current) =>
              select ??
              (known(current) ? current : known(session?.connectionId) ? session?.connectionId : r.defaultId),
          );
          setFailure(undefined);
          return r.connections;
        },
        (e: unknown) => {
          setFailure(errorMessage(e));
          return [];
        },
      ),
    [api, session],
  );

  useEffect(() => {
    api.call('app.info', {}).then(setInfo, (e: unknown) => setFailure(errorMessage(e)));
    void reload().then(async (list) => {
      const ids = new Set(list.map((c) => c.id));
      const targets = session
        ? await Promise.all(
            session.tabs.filter((t) => ids.has(t.connectionId)).map((t) => withSchema(api, t)),
          )
        : [await demoTarget(api, list)].filter((t) => t !== undefined);
      const reopened = targets.map((target) => ({ key: tabKey(target), target, label: target.table }));
      // A table the user opened while these loaded stays, after the reopened ones, and stays in front.
      setTabs((ts) => [...reopened, ...ts.filter((t) => !reopened.some((r) => r.key === t.key))]);
      const front = session ? session.activeKey : reopened[0]?.key;
      if (reopened.some((t) => t.key === front)) setActiveKey((current) => current ?? front);
      setRestored(true);
    });
  }, [api, reload, session]);

  useEffect(() => {
    if (!restored) return;
    saveSession({
      connectionId: selectedId,
      tabs: tabs.map(({ target: { connectionId, baseId, table } }) => ({ connectionId, baseId, table })),
      activeKey,
    });
  }, [restored, selectedId, tabs, activeKey]);

  const closeTab = useCallback(
    (key: string) => {
      setTabs((ts) => ts.filter((t) => t.key !== key));
      if (key === activeKey) setActiveKey(afterClose(tabs, key));
    },
    [tabs, activeKey],
  );

  const [sheet, setSheet] = useState(false);
  useWindowTitle(tabs.find((t) => t.key === activeKey));
  useKeyDispatcher();
  useCommands({
    'app.closeTab': () => (activeKey === undefined ? false : closeTab(activeKey)),
    'app.nextTab': () => setActiveKey(cycle(tabs, activeKey, 1)),
    'app.previousTab': () => setActiveKey(cycle(tabs, activeKey, -1)),
    'app.home': () => setActiveKey(undefined),
    'app.shortcuts': () => setSheet(true),
  });

  const openTable = (target: TableTarget) => {
    const key = tabKey(target);
    setTabs((ts) => (ts.some((t) => t.key === key) ? ts : [...ts, { key, target, label: target.table }]));
    setActiveKey(key);
  };

  const selected = connections.find((c) => c.id === selectedId);

  return (
    <div className="td-app">
      <TabBar tabs={tabs} activeKey={activeKey} onActivate={setActiveKey} onClose={closeTab} />
      <ConsentBar />
      {failure && (
        <p className="td-error td-banner" role="alert">
          {failure}
        </p>
      )}
      {bug && activeKey === undefined && (
        <p className="td-error td-banner" role="alert">
          {bug}{' '}
          <button type="button" onClick={dismissBug}>
            Dismiss
          </button>
        </p>
      )}
      <main className="td-home" hidden={activeKey !== undefined}>
        <ConnectionList
          connections={connections}
          selectedId={selectedId}
          onSelect={(id) => {
            setSelectedId(id);
            setEditing(undefined);
          }}
          onEdit={(c) => setEditing(c)}
          onAdd={() => setEditing('new')}
          onRemoved={() => reload()}
        />
        <div className="td-home-main">
          {notice && (
            <p className="td-warning" role="status">
              {notice}
            </p>
          )}
          {editing !== undefined ? (
            <ConnectionForm
              key={editing === 'new' ? 'new' : editing.id}
              initial={editing === 'new' ? undefined : editing}
              keyStorage={info?.keyStorage}
              onSaved={(c, warning) => {
                setEditing(undefined);
                setNotice(warning);
                reload(c.id);
              }}
              onCancel={() => setEditing(undefined)}
            />
          ) : selected ? (
            <TablePicker key={selected.id} connection={selected} onOpen={openTable} />
          ) : (
            <p className="td-muted">Add a connection to start.</p>
          )}
        </div>
      </main>
      {tabs.map((t) => (
        <ErrorBoundary key={t.key} what={`The table ${t.label}`} hidden={t.key !== activeKey}>
          <TableTab target={t.target} active={t.key === activeKey} />
        </ErrorBoundary>
      ))}
      {sheet && <ShortcutSheet onClose={() => setSheet(false)} />}
    </div>
  );
}
