import { mirrorServedAs, useMirrors } from '../offline/mirrors';
import type { Tab } from './tabs';
import { tabLabel } from './tab-label';
import { isCommand } from '../commands/match';
import { MAC } from '../commands/shown';

interface Props {
  tabs: readonly Tab[];
  activeKey: string | undefined;
  onActivate: (key: string | undefined) => void;
  onClose: (key: string) => void;
}

export function TabBar({ tabs, activeKey, onActivate, onClose }: Props) {
  const { mirrors } = useMirrors();
  return (
    <div className="td-tabs" role="tablist" aria-label="Open tables">
      <button
        type="button"
        role="tab"
        aria-selected={activeKey === undefined}
        className="td-tab td-tab-home"
        onClick={() => onActivate(undefined)}
        title="Connections and tables"
      >
        ☰ Tables
      </button>
      {tabs.map((t) => {
        const copy = mirrorServedAs(mirrors, t.target.connectionId, t.target.baseId);
        const label = tabLabel(t, mirrors);
        return (
          <div key={t.key} className={`td-tab ${t.key === activeKey ? 'is-active' : ''}`}>
            <button
              type="button"
              role="tab"
              aria-selected={t.key === activeKey}
              title={
                copy
                  ? `${t.label}: the offline copy of ${copy.source.baseName}, on this computer`
                  : `${t.label} (${t.target.baseId})`
              }
              onClick={() => onActivate(t.key)}
              onAuxClick={(e) => e.button === 1 && onClose(t.key)}
              onKeyDown={(e) => isCommand('tabBar.close', e, MAC) && onClose(t.key)}
            >
              {label}
            </button>
            {/* A tab list holds only tabs (ARIA): the × is the pointer's way, kept out of the tab order and the
                accessibility tree; by keyboard Delete closes the focused tab, Ctrl+W the active one. */}
            <button
              type="button"
              tabIndex={-1}
              aria-hidden="true"
              className="td-tab-close"
              aria-label={`Close ${label}`}
              onClick={() => onClose(t.key)}
            >
              ×
            </button>
          </div>
        );
      })}
    </div>
  );
}
