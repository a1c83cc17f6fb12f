/**
 * ag-grid-react alone, set up as the app's grid is (renderer/src/grid/TableGrid.tsx): the app's columns in
 * count, width and pinning, as plain text; its row height, header height, row buffer, rows placed by `top`,
 * browser tooltips; the rows in memory. The app bench bundles it into one script and scrolls it beside the app:
 * the least a scroll frame of the app's grid can cost, since the app is built on this component.
 */
import { createRoot } from 'react-dom/client';
import { AgGridReact } from 'ag-grid-react';
import { AllCommunityModule, ModuleRegistry, themeQuartz } from 'ag-grid-community';
import type { ColDef } from 'ag-grid-community';
import type { BareGridSetup } from './setup';

type Row = Record<string, string>;

ModuleRegistry.registerModules([AllCommunityModule]);

function mountBareGrid(setup: BareGridSetup): void {
  const host = document.createElement('div');
  host.id = 'bare-grid';
  host.style.width = `${setup.width}px`;
  host.style.height = `${setup.height}px`;
  document.body.append(host);
  // Keys by position: a field name with a dot would be read by ag-grid as a path.
  const columnDefs: ColDef<Row>[] = setup.columns.map((c, i) => ({
    field: `c${i}`,
    headerName: c.name,
    width: c.width,
    ...(c.pinned ? { pinned: 'left' as const } : {}),
  }));
  const rowData = Array.from({ length: setup.rows }, (_, r) =>
    Object.fromEntries(setup.columns.map((_c, i) => [`c${i}`, `Row ${r}, field ${i}, some words`])),
  );
  createRoot(host).render(
    <AgGridReact<Row>
      theme={themeQuartz}
      columnDefs={columnDefs}
      rowData={rowData}
      rowHeight={32}
      headerHeight={34}
      rowBuffer={1}
      animateRows={false}
      suppressRowTransform
      enableBrowserTooltips
    />,
  );
}

// The bench calls it by name once the script is in the page.
Object.assign(window, { mountBareGrid });
