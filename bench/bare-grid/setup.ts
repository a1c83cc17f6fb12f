/** What the app bench hands the bare ag-grid-react page (page.tsx): the app's grid as measured in the run. */
export interface BareGridSetup {
  /** The app's columns in order: their header, width in px, and whether pinned to the left. */
  columns: { name: string; width: number; pinned: boolean }[];
  rows: number;
  /** The size of the app's grid, so as many rows and columns are drawn. */
  width: number;
  height: number;
}
