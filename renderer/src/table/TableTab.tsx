/**
 * One open table: toolbar (view picker, field chooser, go to row, formula bar), the grid, and the status bar.
 * Every change of view, fields, sort or formula asks for a new view on the services side (a new page chain).
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { Column } from '../../../core/contract';
import { useApi } from '../api/ApiProvider';
import { errorMessage, isChannelError } from '../api/call-errors';
import { PreviousRows } from '../grid/datasource';
import { ScreenRows } from '../grid/screen-rows';
import { showViewCount } from '../grid/row-count';
import { TableGrid } from '../grid/TableGrid';
import type { DecorateColumn } from '../grid/columns';
import type { GridOptions } from '../grid/parts';
import type { GridPort } from '../grid/port';
import { FormulaBar } from '../formula/FormulaBar';
import { choiceNames } from '../editing/parse';
import { recentFormulas, rememberFormula } from '../formula/recent';
import { LinksContext } from '../links/context';
import { useLinkedForms } from '../links/useLinkedForms';
import { useLinkCells } from '../links/useLinkCells';
import { LinkCell } from '../links/link-cell';
import { linkedTableId } from '../links/names';
import { MirrorBar } from '../offline/MirrorBar';
import { mirrorServedAs, useMirrors } from '../offline/mirrors';
import { useCommands } from '../commands/dispatch';
import { MAC, shortcutProps } from '../commands/shown';
import { isCommand } from '../commands/match';
import { EditingFrame } from '../rows/EditingFrame';
import { useTableEditing } from '../rows/useTableEditing';
import { StatusBar } from '../status/StatusBar';
import { BudgetFigure } from '../budget/BudgetPanel';
import { LiveStatus } from '../live/LiveStatus';
import type { ViewCount } from '../status/StatusBar';
import { useClientStatus } from '../status/useClientStatus';
import { restoreColumnPlaces } from './column-order';
import { mergeColumns } from './columns-merge';
import { FieldChooser } from './FieldChooser';
import { columnHeader } from './header-menu/column-header';
import { columnItems } from './header-menu/column-actions';
import { HeaderMenu } from './header-menu/HeaderMenu';
import { HeaderMenus } from './header-menu/header-menus';
import { layoutQuery, loadLayout, schemaColumns } from './layout-memory';
import { RowHeightPicker } from './row-height';
import { useLayoutMemory } from './useLayoutMemory';
import { FindBar } from './find/FindBar';
import { useFind } from './find/useFind';
import { GotoProgress } from './goto/GotoProgress';
import { useGoToRow } from './goto/useGoToRow';
import { GroupControl } from './groups/GroupControl';
import { SummaryBar } from './groups/SummaryBar';
import { useGrouping } from './groups/useGrouping';
import { dismissBug, useLastBug } from '../status/last-resort';
import { ViewSession } from './view-session';
import type { OpenedView, TableTarget, ViewQuery } from './view-session';
import { ViewNote, viewDetails } from './view-note';

/** Block size = the service's page size, so one grid block is one request. */
const PAGE_SIZE = 100;

/** A cell's menu offers these of its column's items, about the cell's value. */
const CELL_ITEMS = [
  'column.sortAscending',
  'column.sortDescending',
  'column.filterByValue',
  'column.hide',
] as const;

type BaseQuery = Omit<ViewQuery, 'sort'>;

interface Progress {
  loaded: number;
  total?: number | undefined;
  loadingPage?: number | undefined;
}

export function TableTab({ target, active }: { target: TableTarget; active: boolean }) {
  const api = useApi();
  const { connectionId, baseId, table } = target;
  const tableKey = `${connectionId}/${baseId}/${table}`;
  // The tab's layout as it was left (view, formula, fields, sort, columns, row height, summaries).
  const [layout] = useState(() => loadLayout(tableKey));
  const [query, setQuery] = useState<BaseQuery>(() => layoutQuery(layout, target.schema));
  const [userSorted, setUserSorted] = useState(false);
  const menus = useMemo(() => new HeaderMenus(), []);
  const section = useRef<HTMLElement>(null);
  const [columns, setColumns] = useState(() => (layout.fields ? schemaColumns(target.schema) : []));
  const [viewId, setViewId] = useState<string>();
  const [progress, setProgress] = useState<Progress>({ loaded: 0 });
  const [count, setCount] = useState<ViewCount>();
  const [error, setError] = useState<string>();
  const bug = useLastBug();
  const [formulaError, setFormulaError] = useState<{ formula: string; message: string }>();
  const client = useClientStatus(connectionId);
  const [recent, setRecent] = useState(() => recentFormulas(tableKey));
  const [gotoRow, setGotoRow] = useState('');
  // The grid as the tab speaks to it, once it is ready.
  const port = useRef<GridPort | null>(null);
  const memory = useLayoutMemory(tableKey, layout, query, port);
  const [readyGrid, setReadyGrid] = useState<GridPort>();
  const gotoInput = useRef<HTMLInputElement>(null);
  const { editing, view: editingView, decorate, gridProps, selectedCount } = useTableEditing(target);
  const knownColumns = useRef<Set<string>>(undefined);
  const tableColumns = useRef<readonly Column[]>([]);
  useEffect(() => editing.setColumns(columns), [editing, columns]);
  useEffect(() => editing.showFields(query.fields), [editing, query.fields]);
  const currentGrid = useCallback(() => port.current, []);
  const tabElement = useCallback(() => section.current, []);
  const goto = useGoToRow({
    viewId,
    grid: currentGrid,
    root: tabElement,
    loaded: progress.loaded,
    mapped: count && !count.exact ? count.count : 0,
  });
  const rowNames = useLinkCells(readyGrid, columns, { connectionId, baseId, table });
  useEffect(() => editing.range.onChange((range) => rowNames.choose(range)), [editing, rowNames]);
  const linked = useLinkedForms(connectionId, baseId);
  const mirror = mirrorServedAs(useMirrors().mirrors, connectionId, baseId);

  const onOpened = useCallback((view: OpenedView) => {
    setViewId(view.viewId);
    setColumns((known) => mergeColumns(known, view.columns));
    setProgress({ loaded: 0 });
    setCount(undefined);
  }, []);

  const session = useMemo(
    () => new ViewSession(api, { connectionId, baseId, table }, onOpened),
    [api, connectionId, baseId, table, onOpened],
  );
  useEffect(() => () => session.restart(), [session]);
  const grouping = useGrouping(session, target, columns, port);
  const datasourceFor = grouping.datasource;
  // A grouped grid's rows are headers and records: the layout gives their count, not the view's.
  const groupedGrid = grouping.groupBy.length > 0;
  // While a new query loads, the grid shows the rows it showed before, under "Loading…".
  const [standingIn, setStandingIn] = useState(false);
  const [previousRows] = useState(() => new PreviousRows(setStandingIn));
  const [screenRows] = useState(() => new ScreenRows());

  useEffect(() => {
    const offState = api.on('view.state', (s) => {
      if (s.viewId !== viewId) return;
      setProgress({ loaded: s.loaded, total: s.total, loadingPage: s.loadingPage });
      if (s.columns) setColumns((known) => mergeColumns(known, s.columns ?? []));
      if (s.error) setError(s.error.message);
    });
    const offCount = api.on('view.count', ({ viewId: id, ...c }) => {
      if (id !== viewId) return;
      setCount(c);
      if (port.current && !groupedGrid) showViewCount(port.current, c);
    });
    return () => {
      offState();
      offCount();
    };
  }, [api, viewId, groupedGrid]);

  const datasource = useMemo(
    () =>
      datasourceFor(
        session,
        memory.withRestoredSort(query),
        {
          rows: (rows) => {
            setProgress((p) => ({ ...p, loaded: rows.loaded, total: rows.rowCount ?? p.total }));
            setError(undefined);
            rowNames.soon();
          },
          error: (e) => {
            setError(errorMessage(e));
            if (query.formula && isChannelError(e) && e.status === 422) {
              // Back to the rows shown before (the grid keeps its header sort), with the refusal in the bar.
              setFormulaError({ formula: query.formula, message: e.message });
              const { sort: _sort, ...loaded } = session.lastLoaded;
              setQuery(loaded);
            }
          },
        },
        editing.placements,
        previousRows,
        screenRows,
      ),
    [session, query, memory, editing, rowNames, datasourceFor, previousRows, screenRows],
  );

  const change = (next: BaseQuery) => {
    setError(undefined);
    setFormulaError(undefined);
    setQuery(next);
  };

  const retry = () => {
    session.restart();
    setError(undefined);
    // A new query object builds a new datasource, which opens a fresh view.
    setQuery((q) => ({ ...q }));
  };

  const applyFormula = (formula: string) => {
    const { formula: _old, ...rest } = query;
    change(formula === '' ? rest : { ...rest, formula });
    if (formula !== '') setRecent(rememberFormula(tableKey, formula));
  };

  const shownColumns = useMemo(
    () => (query.fields ? columns.filter((c) => query.fields?.includes(c.name)) : columns),
    [columns, query.fields],
  );
  // Set before the grid (a child, whose own effects run after layout effects) reports its new columns.
  useLayoutEffect(() => {
    tableColumns.current = columns;
  }, [columns]);
  const tabGridProps = useMemo(
    (): GridOptions => ({
      ...gridProps,
      ...memory.gridProps,
      ...grouping.gridProps,
      rowClasses: goto.rowClassRules,
      // A new order starts at its first row: the grid would keep the scroll position, hiding the top.
      onSortChanged: () => {
        editing.viewOrderAsked();
        port.current?.showRow(0, 'top');
        setUserSorted((port.current?.sort().length ?? 0) > 0);
        memory.save();
      },
      onColumnsLoaded: () => {
        const grid = port.current;
        if (!grid) return;
        knownColumns.current = restoreColumnPlaces(grid, tableColumns.current, knownColumns.current);
        memory.columnsLoaded(grid);
      },
    }),
    [gridProps, grouping.gridProps, editing, memory, goto.rowClassRules],
  );
  const tabDecorate = useCallback<DecorateColumn>(
    (field, classes) => ({
      ...decorate(field, classes),
      header: columnHeader(menus),
      ...(linkedTableId(field) === undefined ? {} : { cell: LinkCell }),
    }),
    [decorate, menus],
  );
  useEffect(() => editing.viewOrderAsked(), [editing, datasource]);
  const formulaFields = useMemo(() => columns.map((c) => ({ name: c.name, type: c.type })), [columns]);
  const builderFields = useMemo(
    () => columns.map((c) => ({ name: c.name, type: c.type, choices: choiceNames(c) })),
    [columns],
  );
  const views = target.schema?.views ?? [];
  const chosenView = views.find((v) => v.name === query.view);
  useEffect(() => menus.setViewSort(viewDetails(chosenView)?.sort ?? []), [menus, chosenView]);
  const hideField = (name: string) => {
    const { fields: _old, ...rest } = query;
    change({ ...rest, fields: shownColumns.map((c) => c.name).filter((n) => n !== name) });
  };
  const grid = useCallback(() => port.current, []);
  const formulaInput = () => section.current?.querySelector('textarea') ?? null;
  const grouped = grouping.groupBy.length > 0;
  const find = useFind({
    viewId,
    target: editing.target,
    grid,
    root: tabElement,
    columns: shownColumns,
    active,
    grouped,
  });
  const showFind = find.show;

  // Go to row and Find from anywhere while the tab is in front (focus may be on no element of it, e.g. just opened).
  useCommands(
    {
      'tab.goto': () => {
        gotoInput.current?.focus();
        gotoInput.current?.select();
      },
      'tab.find': showFind,
    },
    active,
  );

  const cancelGoto = () => {
    goto.cancel();
    gotoInput.current?.focus();
  };

  return (
    <section ref={section} className="td-table" hidden={!active} aria-label={table} onClick={linked.onClick}>
      {mirror && <MirrorBar mirror={mirror} onReload={retry} />}
      <div className="td-toolbar">
        {views.length > 0 && (
          <label className="td-view-picker">
            View
            <select
              value={query.view ?? ''}
              onChange={(e) => {
                const { view: _old, ...rest } = query;
                change(e.target.value === '' ? rest : { ...rest, view: e.target.value });
              }}
            >
              <option value="">All records</option>
              {views.map((v) => (
                <option key={v.id} value={v.name}>
                  {v.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <FieldChooser
          columns={columns}
          selected={query.fields}
          onChange={(fields) => {
            const { fields: _old, ...rest } = query;
            change(fields ? { ...rest, fields } : rest);
          }}
        />
        <RowHeightPicker value={memory.rowHeight} onChange={memory.setRowHeight} />
        <GroupControl columns={columns} groupBy={grouping.groupBy} onChange={grouping.change} />
        {grouping.aggregate?.basis === 'loaded' && (
          <span className="td-group-basis">
            Groups of the {grouping.aggregate.total.toLocaleString()} rows loaded{' '}
            <button type="button" onClick={() => grouping.setScope('all')}>
              Group whole view
            </button>
          </span>
        )}
        <button type="button" className="td-find-open" onClick={showFind} {...shortcutProps('tab.find')}>
          Find
        </button>
        <form
          className="td-goto"
          onSubmit={(e) => {
            e.preventDefault();
            void goto.go(Number(gotoRow));
          }}
        >
          <input
            ref={gotoInput}
            type="number"
            min={1}
            placeholder="Row"
            aria-label="Go to row"
            value={gotoRow}
            onChange={(e) => setGotoRow(e.target.value)}
            onKeyDown={(e) => {
              if (isCommand('goto.stop', e, MAC) && goto.walk) cancelGoto();
            }}
          />
          <button type="submit" {...shortcutProps('tab.goto')}>
            Go
          </button>
          {goto.note && (
            <span className="td-goto-note" role="status">
              {goto.note}
            </span>
          )}
        </form>
      </div>
      <FormulaBar
        fields={formulaFields}
        fieldsComplete={!columns.some((c) => c.inferred)}
        applied={query.formula ?? ''}
        serviceError={formulaError}
        recent={recent}
        onApply={applyFormula}
        builderFields={builderFields}
      />
      <ViewNote view={chosenView} userSorted={userSorted} />
      {find.open && <FindBar find={find} grouped={grouped} loaded={progress.loaded} />}
      {goto.walk && (
        <GotoProgress
          walk={goto.walk}
          pageSize={PAGE_SIZE}
          requestsPerSecond={client?.ratePerSecond}
          onCancel={cancelGoto}
        />
      )}
      {standingIn ? (
        <div className="td-grid-loading" role="status">
          Loading…
        </div>
      ) : (
        progress.loadingPage !== undefined &&
        !goto.walk && (
          <div className="td-grid-loading" aria-hidden>
            Loading page {progress.loadingPage}…
          </div>
        )
      )}
      <LinksContext.Provider value={linked.scope}>
        <EditingFrame
          editing={editing}
          view={editingView}
          selectedCount={selectedCount}
          query={query}
          total={progress.total}
          viewId={viewId}
          count={count}
          columnMenu={(colId, value) => {
            const api = grid();
            const field = columns.find((c) => c.name === colId);
            return api
              ? columnItems({ grid: api, colId, field, formulaInput, onHide: hideField }, value, CELL_ITEMS)
              : [];
          }}
        >
          <TableGrid
            columns={shownColumns}
            datasource={datasource}
            blockSize={PAGE_SIZE}
            decorate={tabDecorate}
            options={tabGridProps}
            onReady={(grid) => {
              port.current = grid;
              previousRows.attach(grid);
              screenRows.attach(grid);
              setReadyGrid(grid);
              editing.attach(grid);
            }}
          />
        </EditingFrame>
        {linked.form}
      </LinksContext.Provider>
      <SummaryBar
        grid={readyGrid}
        session={session}
        target={target}
        columns={shownColumns}
        viewId={viewId}
        loaded={progress.loaded}
        summaries={memory.summaries}
        onSummaries={memory.setSummaries}
      />
      <HeaderMenu menus={menus} api={grid} columns={columns} formulaInput={formulaInput} onHide={hideField} />
      <StatusBar
        loaded={progress.loaded}
        total={progress.total}
        loadingPage={progress.loadingPage}
        count={count}
        client={client}
        error={error ?? client?.lastError}
        onRetry={retry}
        bug={bug}
        onDismissBug={dismissBug}
        onCountNow={() => {
          if (viewId !== undefined) void api.call('view.countNow', { viewId });
        }}
      >
        <BudgetFigure connectionId={connectionId} baseId={baseId} />
        <LiveStatus
          connectionId={connectionId}
          baseId={baseId}
          table={table}
          onRefreshed={() => editing.grid?.reload()}
        />
      </StatusBar>
    </section>
  );
}
