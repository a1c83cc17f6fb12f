/**
 * Bases and tables of a connection, from the metadata API. Where the service refuses it (403), the user types
 * a base id and a table name instead, and the columns are inferred from the records as they load.
 */
import { useEffect, useState } from 'react';
import type { ConnectionSummary, MirrorInfo } from '../../../core/contract';
import { plural } from '../../../core/records/format';
import type { BaseInfo, TableSchema } from '../../../core/records/types';
import { useApi } from '../api/ApiProvider';
import { errorMessage } from '../api/call-errors';
import { withSchema } from '../tabs/session';
import { mirrorOf, mirrorServedAs, sourceKey, useMirrorStore, useMirrors } from '../offline/mirrors';
import { OfflinePanel } from '../offline/OfflinePanel';
import type { TableTarget } from '../table/view-session';

interface Props {
  connection: ConnectionSummary;
  onOpen: (target: TableTarget) => void;
}

type Listing<T> =
  | { state: 'loading' }
  | { state: 'ready'; items: T[] }
  | { state: 'refused'; message: string }
  | { state: 'failed'; message: string };

export function TablePicker({ connection, onOpen }: Props) {
  const api = useApi();
  const [bases, setBases] = useState<Listing<BaseInfo>>({ state: 'loading' });
  const [baseId, setBaseId] = useState<string>();
  const [tablesOf, setTablesOf] = useState<{ baseId: string; listing: Listing<TableSchema> }>();
  const tables: Listing<TableSchema> =
    tablesOf && tablesOf.baseId === baseId ? tablesOf.listing : { state: 'loading' };
  // The picker is keyed by connection (see App), so the connection never changes under it.
  const connectionId = connection.id;

  useEffect(() => {
    let live = true;
    api.call('meta.bases', { connectionId }).then(
      (r) => {
        if (!live) return;
        if (r.refused) return setBases({ state: 'refused', message: r.message });
        setBases({ state: 'ready', items: r.bases });
        // A connection with one base (the demo) opens straight onto its tables.
        if (r.bases.length === 1) setBaseId(r.bases[0]?.id);
      },
      (e: unknown) => live && setBases({ state: 'failed', message: errorMessage(e) }),
    );
    return () => {
      live = false;
    };
  }, [api, connectionId]);

  useEffect(() => {
    if (baseId === undefined) return;
    let live = true;
    const settle = (listing: Listing<TableSchema>) => live && setTablesOf({ baseId, listing });
    api.call('meta.tables', { connectionId, baseId }).then(
      (r) =>
        settle(r.refused ? { state: 'refused', message: r.message } : { state: 'ready', items: r.tables }),
      (e: unknown) => settle({ state: 'failed', message: errorMessage(e) }),
    );
    return () => {
      live = false;
    };
  }, [api, connectionId, baseId]);

  const open = (base: string, table: string, schema?: TableSchema) =>
    onOpen({ connectionId, baseId: base, table, schema });
  // A hosted base may be copied for offline use; the local server's own bases need no copy.
  const hosted = !connection.builtin;
  const { mirrors, pulls } = useMirrors();
  const mirrorStore = useMirrorStore();
  const mirror = hosted && baseId !== undefined ? mirrorOf(mirrors, connectionId, baseId) : undefined;
  const openOffline = (local: { connectionId: string; baseId: string }, table: string) =>
    void withSchema(api, { ...local, table }).then(onOpen);
  const baseName = bases.state === 'ready' ? bases.items.find((b) => b.id === baseId)?.name : undefined;

  return (
    <div className="td-picker">
      <section aria-label="Bases">
        <h2>Bases of {connection.name}</h2>
        <ListingNote listing={bases} what="bases" />
        {bases.state === 'ready' && (
          <ul className="td-list">
            {bases.items.map((b) => (
              <li key={b.id}>
                <button
                  type="button"
                  className={b.id === baseId ? 'is-selected' : ''}
                  onClick={() => setBaseId(b.id)}
                >
                  {b.name} <span className="td-muted">{b.id}</span>
                  {!hosted && mirrorServedAs(mirrors, connectionId, b.id) && (
                    <span className="td-badge td-mirror-badge">offline copy</span>
                  )}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
      {baseId !== undefined && (
        <section aria-label="Tables">
          <h2>Tables</h2>
          {hosted && (
            <OfflinePanel
              connectionId={connectionId}
              baseId={baseId}
              baseName={baseName ?? baseId}
              onOpen={(m, table) => openOffline(m.local, table)}
            />
          )}
          <ListingNote listing={tables} what="tables" />
          {tables.state === 'ready' && (
            <ul className="td-list">
              {tables.items.map((t) => (
                <li key={t.id}>
                  <button type="button" onClick={() => open(baseId, t.name, t)}>
                    {t.name} <span className="td-muted">{plural(t.fields.length, 'field')}</span>
                  </button>
                  {hosted &&
                    (mirror === undefined || (mirror.state === 'ready' && !offlineHas(mirror, t.id))) && (
                      <button
                        type="button"
                        className="td-offline-table"
                        title="Copy this table, its records and files, to work on without a network"
                        disabled={pulls.get(sourceKey(connectionId, baseId))?.running === true}
                        onClick={() => mirrorStore.pull(connectionId, baseId, [t.id])}
                      >
                        Offline
                      </button>
                    )}
                  {mirror?.state === 'ready' && offlineHas(mirror, t.id) && (
                    <button
                      type="button"
                      className="td-offline-table"
                      title="Open the offline copy of this table, served by the local server"
                      onClick={() => openOffline(mirror.local, t.name)}
                    >
                      Open offline
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
      {(bases.state === 'refused' || tables.state === 'refused') && (
        <ManualTable initialBaseId={baseId} onOpen={(b, t) => open(b, t)} />
      )}
    </div>
  );
}

/** A table joins its base's copy by its own Offline button (the engine adds it to the tables mirrored). */
const offlineHas = (mirror: MirrorInfo, tableId: string) => mirror.tables.some((t) => t.id === tableId);

function ListingNote({ listing, what }: { listing: Listing<unknown>; what: string }) {
  switch (listing.state) {
    case 'loading':
      return <p className="td-muted">Loading {what}…</p>;
    case 'failed':
      return <p className="td-error">{listing.message}</p>;
    case 'refused':
      return <p className="td-warning">{listing.message}</p>;
    default:
      return null;
  }
}

function ManualTable({
  initialBaseId,
  onOpen,
}: {
  initialBaseId?: string | undefined;
  onOpen: (baseId: string, table: string) => void;
}) {
  const [baseId, setBaseId] = useState(initialBaseId ?? '');
  const [table, setTable] = useState('');
  return (
    <form
      className="td-manual-table"
      aria-label="Open a table by name"
      onSubmit={(e) => {
        e.preventDefault();
        if (baseId.trim() && table.trim()) onOpen(baseId.trim(), table.trim());
      }}
    >
      <h2>Open a table by name</h2>
      <label>
        Base id
        <input value={baseId} onChange={(e) => setBaseId(e.target.value)} placeholder="app…" required />
      </label>
      <label>
        Table name or id
        <input value={table} onChange={(e) => setTable(e.target.value)} required />
      </label>
      <button type="submit">Open</button>
    </form>
  );
}
