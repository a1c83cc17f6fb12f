/** The catalog's shapes: a base, its tables, their fields and views, as the store holds them. */
export interface Field {
  id: string;
  name: string;
  type: string;
  description?: string;
  options?: Record<string, unknown>;
}

export interface SortRule {
  fieldId: string;
  direction: 'asc' | 'desc';
}

export interface View {
  id: string;
  name: string;
  type: string;
  filterByFormula?: string;
  sort?: SortRule[];
  hiddenFieldIds?: string[];
}

export interface Table {
  id: string;
  baseId: string;
  name: string;
  description?: string;
  primaryFieldId: string;
  fields: Field[];
  views: View[];
  /** An offline copy's table whose records only the service holds (see outside_tables in db.ts). */
  outside?: true;
}

export interface Base {
  id: string;
  name: string;
  tables: Table[];
}
