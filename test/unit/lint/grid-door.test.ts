/**
 * build/lint/grid-door.ts: outside renderer/src/grid/, no renderer file names ag-grid's classes, custom
 * properties or attributes, or loads ag-grid, in a stylesheet as much as in a script; and the project's own
 * renderer has none (grid/grid.css holds the grid's styles).
 */
import { describe, expect, it } from 'vitest';
import { checkRenderer, gridDoorProblems } from '../../../build/lint/grid-door';

describe('the grid door, in the files ESLint does not read', () => {
  it.each([
    ['renderer/src/styles.css', '.td-grid .ag-row.td-row-arrived {\n  color: red;\n}\n'],
    ['renderer/src/table/find/find.css', '.td-table .ag-cell.td-find-hit { background: gold; }'],
    ['renderer/src/a/b/c/d/deep.css', ':is(.ag-header-cell:hover) .x { opacity: 1; }'],
    ['renderer/src/table/x.css', '.x { background-color: var(--ag-data-background-color); }'],
    ['renderer/src/table/x.css', '.x { --ag-row-height: 40px; }'],
    ['renderer/src/table/x.css', ".td-table [row-index='3'] { color: red; }"],
    ['renderer/src/table/x.css', '.td-table [col-id="Name"] { color: red; }'],
    ['renderer/src/table/x.css', '[aria-rowindex] { color: red; }'],
    ['renderer/src/x.css', "[data-ag-theme-mode='dark'] .x { color: red; }"],
    ['renderer/src/x.css', "[class*='ag-'] { color: red; }"],
    ['renderer/src/x.css', "@import 'ag-grid-community/styles/ag-grid.css';"],
    ['renderer/src/x.css', "@import url('../../node_modules/ag-grid-community/styles/ag-theme-quartz.css');"],
    [
      'renderer/src/rows/probe.ts',
      "export const rows = (root: Element) => root.querySelectorAll('.ag-row');",
    ],
    ['renderer/src/rows/probe.ts', '// reads .ag-cell-value under the cursor\nexport const x = 1;'],
    ['renderer/src/rows/probe.tsx', "export const s = { '--ag-row-height': '40px' };"],
    ['renderer/src/rows/probe.ts', "import type { GridApi } from 'ag-grid-community';"],
    ['renderer/src/rows/probe.ts', "const m = await import('@ag-grid-community/core');"],
    ['renderer/src/rows/probe.ts', "import '../../../node_modules/ag-grid-react/dist/index.mjs';"],
    ['renderer/index.html', '<link rel="stylesheet" href="ag-grid-community/styles/ag-grid.css" />'],
  ])('%s may not: %s', (path, text) => {
    expect(gridDoorProblems(path, text)).toEqual([
      expect.stringContaining('only renderer/src/grid/ knows ag-grid'),
    ]);
  });

  it('lets the grid itself, other folders and the port’s own words pass', () => {
    expect(
      gridDoorProblems('renderer/src/grid/grid.css', '.td-grid .ag-row > .ag-grid-pinned-left-cells {}'),
    ).toEqual([]);
    expect(gridDoorProblems('renderer/src/grid/deep/x.ts', "import 'ag-grid-community';")).toEqual([]);
    expect(gridDoorProblems('test/e2e/find.spec.ts', "page.locator('.ag-cell.td-find-hit')")).toEqual([]);
    for (const [path, text] of [
      ['renderer/src/table/find/find.css', '.td-table .td-grid .td-find-hit { background: gold; }'],
      ['renderer/src/table/x.css', '.td-col-menu-button { opacity: var(--td-grid-header-hot, 0.5); }'],
      ['renderer/src/table/x.css', '.td-flag-ag-x, .tag-list { color: red; }'],
      ['renderer/src/ui/x.tsx', '// ag-grid Community has no context menu, so this one is ours.\nexport {};'],
    ] as const)
      expect(gridDoorProblems(path, text), text).toEqual([]);
  });

  it('finds nothing in the project’s own renderer', () => {
    expect(checkRenderer()).toEqual([]);
  });
});
