/**
 * The summary bar under the grid: for each column, the summary the user picks (count, filled, empty, and by
 * type sum, average, min, max), over the whole view where the server computes it (the local server), else
 * over the rows loaded, saying so, with a button to walk the whole view at background priority. The choices
 * are the tab's, remembered with its layout; one for a field the table no longer has, or of a kind its type
 * no longer offers, is kept but not asked for.
 */
import { useEffect, useMemo, useState } from 'react';
import type { Column } from '../../../../core/contract';
import { summaryKinds } from '../../../../core/records/aggregate';
import type { SummaryKind, SummaryValue } from '../../../../core/records/aggregate';
import { plural } from '../../../../core/records/format';
import { useApi } from '../../api/ApiProvider';
import { errorMessage } from '../../api/call-errors';
import { effectiveType, formatCell } from '../../grid/format';
import type { ColumnPlace, GridPort } from '../../grid/port';
import type { SummaryChoice } from '../layout-memory';
import type { TableTarget, ViewSession } from '../view-session';
import type { Aggregate } from './grouped-datasource';

const KIND_NAMES: Readonly<Record<SummaryKind, string>> = {
  count: 'Count',
  filled: 'Filled',
  empty: 'Empty',
  sum: 'Sum',
  average: 'Average',
  min: 'Min',
  max: 'Max',
};

/** A summary as the column's cells show values; counts as plain numbers. */
export function summaryText(kind: SummaryKind, value: SummaryValue, column: Column): string {
  if (value === null) return '—';
  if (kind === 'count' || kind === 'filled' || kind === 'empty')
    return typeof value === 'number' ? value.toLocaleString() : String(value);
  return formatCell(value, column);
}

/** Where the grid draws its columns, and how far its body is scrolled sideways. */
function useColumnPlaces(grid: GridPort | undefined) {
  const [places, setPlaces] = useState<ColumnPlace[]>([]);
  const [scrollLeft, setScrollLeft] = useState(0);
  useEffect(() => {
    if (!grid) return;
    const measure = () => {
      if (!grid.gone()) setPlaces(grid.columnPlaces());
    };
    measure();
    const offs = [
      grid.on('columns', measure),
      grid.on('scroll', (e) => {
        if (e.direction === 'horizontal') setScrollLeft(e.left);
      }),
    ];
    return () => offs.forEach((off) => off());
  }, [grid]);
  return { places, scrollLeft };
}

interface Props {
  grid: GridPort | undefined;
  session: ViewSession;
  target: TableTarget;
  columns: readonly Column[];
  /** The view open now (a new one for each query): its figures are asked when it opens. */
  viewId: string | undefined;
  loaded: number;
  /** The tab's summaries, and where a change of them goes (the tab's layout). */
  summaries: readonly SummaryChoice[];
  onSummaries: (next: SummaryChoice[]) => void;
}

export function SummaryBar(props: Props) {
  const services = useApi();
  const { grid, session, target, columns, viewId, loaded, summaries, onSummaries } = props;
  const [answer, setAnswer] = useState<Aggregate>();
  const [error, setError] = useState<string>();
  /** The view the user asked to walk whole (a hosted view); a new view starts from the rows loaded again. */
  const [wholeView, setWholeView] = useState<string>();
  const scope = wholeView !== undefined && wholeView === viewId ? 'all' : 'loaded';
  const [edits, setEdits] = useState(0);
  const { places, scrollLeft } = useColumnPlaces(grid);
  const byName = useMemo(() => new Map(columns.map((c) => [c.name, c])), [columns]);
  const chosen = useMemo(
    () =>
      new Map(
        summaries.flatMap(({ field, kind }) => {
          const column = byName.get(field);
          return column && summaryKinds(effectiveType(column)).includes(kind) ? [[field, kind] as const] : [];
        }),
      ),
    [summaries, byName],
  );

  // Edits, creates and deletes of this table change the figures; a burst of them asks once.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const changed = (s: { target: { connectionId: string; baseId: string; table: string } }) => {
      const t = s.target;
      if (t.connectionId !== target.connectionId || t.baseId !== target.baseId || t.table !== target.table)
        return;
      clearTimeout(timer);
      timer = setTimeout(() => setEdits((n) => n + 1), 300);
    };
    const offs = [
      services.on('edits.saved', changed),
      services.on('records.created', changed),
      services.on('records.deleted', changed),
    ];
    return () => {
      clearTimeout(timer);
      offs.forEach((off) => off());
    };
  }, [services, target]);

  // Over the whole view the figures do not change as rows load; over the rows loaded they do.
  const loadedKey = answer?.basis === 'loaded' ? loaded : -1;
  useEffect(() => {
    const summaries = [...chosen].map(([field, kind]) => ({ field, kind }));
    if (summaries.length === 0) return;
    let live = true;
    session.aggregate(undefined, { groupBy: [], summaries, scope }).then(
      (a) => {
        if (!live || !a) return;
        setAnswer(a);
        setError(undefined);
        // The whole view's walk was not agreed to (its API calls): back to the rows loaded, asked no more.
        if (a.declined) setWholeView(undefined);
      },
      (e: unknown) => {
        if (live) setError(errorMessage(e));
      },
    );
    return () => {
      live = false;
    };
  }, [chosen, session, scope, viewId, loadedKey, edits]);

  const valueOf = (field: string, kind: SummaryKind) =>
    answer?.summaries.find((s) => s.field === field && s.kind === kind)?.value;

  const cell = (p: ColumnPlace) => {
    const column = byName.get(p.id);
    const kind = chosen.get(p.id);
    const value = kind && valueOf(p.id, kind);
    return (
      <div
        key={p.id}
        className="td-summary-cell"
        style={{ left: p.left, width: p.width }}
        data-field={column?.name}
      >
        {column && (
          <select
            aria-label={`Summary of ${column.name}`}
            value={kind ?? ''}
            onChange={(e) => {
              const next = summaries.filter((s) => s.field !== column.name);
              const picked = e.target.value as SummaryKind | '';
              onSummaries(picked === '' ? next : [...next, { field: column.name, kind: picked }]);
            }}
          >
            <option value="">{kind ? 'None' : 'Summarize'}</option>
            {summaryKinds(effectiveType(column)).map((k) => (
              <option key={k} value={k}>
                {KIND_NAMES[k]}
              </option>
            ))}
          </select>
        )}
        {column && kind && value !== undefined && (
          <output className="td-summary-value">{summaryText(kind, value, column)}</output>
        )}
      </div>
    );
  };

  const pinned = places.filter((p) => p.pinned);
  const pinnedWidth = pinned.reduce((w, p) => Math.max(w, p.left + p.width), 0);
  return (
    <div className="td-summary-bar" role="group" aria-label="Summary">
      <div className="td-summary-pinned" style={{ width: pinnedWidth }}>
        {pinned.map(cell)}
      </div>
      <div className="td-summary-scroll">
        <div style={{ transform: `translateX(${-scrollLeft}px)` }}>
          {places.filter((p) => !p.pinned).map(cell)}
        </div>
      </div>
      {chosen.size > 0 && answer?.basis === 'loaded' && (
        <div className="td-summary-basis">
          of {plural(answer.total, 'row')} loaded
          {answer.declined ? ' (the whole view was not read: its API calls were not agreed to)' : ''}{' '}
          <button type="button" onClick={() => setWholeView(viewId)}>
            Whole view
          </button>
        </div>
      )}
      {error && (
        <div className="td-summary-error" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}
