import type { FieldSchema, TableSchema, ViewDetails, ViewSchema } from '../../core/records/types';
import { FIELD_TYPES, READ_ONLY_FIELD_TYPES } from '../../core/records/types';
import { ServiceError, invalidRequest } from '../errors';
import { newId } from '../ids';
import type { Db } from './db';
import { defaultFieldOptions } from './field-options';
import { nameProblem } from './names';
import { RELATIONAL_TYPES, relationalOptions } from './relational';
import type { Base, Field, SortRule, Table, View } from './shapes';

export type { Base, Field, SortRule, Table, View } from './shapes';

export interface FieldSpec {
  name: string;
  type: string;
  description?: string;
  options?: Record<string, unknown> | null;
}

export interface ViewSpec {
  name: string;
  filterByFormula?: string;
  sort?: { field: string; direction?: 'asc' | 'desc' }[];
  hiddenFields?: string[];
}

export interface TableSpec {
  name: string;
  description?: string;
  fields: FieldSpec[];
  views?: ViewSpec[];
}

/** Checks a formula field's text against its table and returns its stored options; set by the formula layer. */
export type FormulaOptionsCheck = (formula: string, table: Table, self: FieldSpec) => Record<string, unknown>;

export const KNOWN_TYPES: ReadonlySet<string> = new Set([...FIELD_TYPES, ...RELATIONAL_TYPES]);
/** Fields added after a new table's others: they name other fields (links may name tables made later). */
const DEFERRED_TYPES: ReadonlySet<string> = new Set(['multipleRecordLinks', 'formula', ...RELATIONAL_TYPES]);
const PRIMARY_REFUSED: ReadonlySet<string> = new Set([
  'checkbox',
  'multipleSelects',
  'multipleRecordLinks',
  'multipleAttachments',
  'singleSelect',
  'rating',
]);

/** A trimmed, non-empty name that no sibling has (names are unique case-insensitively). */
function checkName(kind: 'table' | 'field', raw: unknown, siblings: readonly { name: string }[]): string {
  const name = typeof raw === 'string' ? raw.trim() : '';
  if (!name) throw invalidRequest(`A ${kind} needs a name`);
  const problem = nameProblem(name);
  if (problem) throw invalidRequest(`The ${kind} name ${JSON.stringify(name)} ${problem}`);
  if (siblings.some((s) => s.name.toLowerCase() === name.toLowerCase()))
    throw new ServiceError(
      422,
      kind === 'table' ? 'DUPLICATE_TABLE_NAME' : 'DUPLICATE_OR_EMPTY_FIELD_NAME',
      `A ${kind} named ${JSON.stringify(name)} already exists`,
    );
  return name;
}

/**
 * Bases, tables, fields and views: held in memory (they are small and read on every request) and written
 * through to SQLite.
 */
export class Catalog {
  private readonly bases = new Map<string, Base>();
  formulaCheck: FormulaOptionsCheck = () => {
    throw invalidRequest('Formula fields are not available');
  };

  constructor(private readonly db: Db) {
    this.load();
  }

  private load(): void {
    const bases = this.db.prepare('SELECT id, name FROM bases ORDER BY position').all() as {
      id: string;
      name: string;
    }[];
    for (const b of bases) this.bases.set(b.id, { id: b.id, name: b.name, tables: [] });
    const tables = this.db
      .prepare(
        `SELECT id, base_id, name, description, primary_field_id,
           EXISTS (SELECT 1 FROM outside_tables WHERE table_id = tables.id) AS outside
         FROM tables ORDER BY position`,
      )
      .all() as {
      id: string;
      base_id: string;
      name: string;
      description: string | null;
      primary_field_id: string;
      outside: number;
    }[];
    const byId = new Map<string, Table>();
    for (const t of tables) {
      const table: Table = {
        id: t.id,
        baseId: t.base_id,
        name: t.name,
        primaryFieldId: t.primary_field_id,
        fields: [],
        views: [],
      };
      if (t.description) table.description = t.description;
      if (t.outside) table.outside = true;
      byId.set(t.id, table);
      this.bases.get(t.base_id)?.tables.push(table);
    }
    const fields = this.db
      .prepare('SELECT id, table_id, name, type, description, options FROM fields ORDER BY position')
      .all() as {
      id: string;
      table_id: string;
      name: string;
      type: string;
      description: string | null;
      options: string | null;
    }[];
    for (const f of fields) {
      const field: Field = { id: f.id, name: f.name, type: f.type };
      if (f.description) field.description = f.description;
      if (f.options) field.options = JSON.parse(f.options) as Record<string, unknown>;
      byId.get(f.table_id)?.fields.push(field);
    }
    const views = this.db
      .prepare(
        'SELECT id, table_id, name, type, filter_formula, sort, hidden_field_ids FROM views ORDER BY position',
      )
      .all() as {
      id: string;
      table_id: string;
      name: string;
      type: string;
      filter_formula: string | null;
      sort: string | null;
      hidden_field_ids: string | null;
    }[];
    for (const v of views) {
      const view: View = { id: v.id, name: v.name, type: v.type };
      if (v.filter_formula) view.filterByFormula = v.filter_formula;
      if (v.sort) view.sort = JSON.parse(v.sort) as SortRule[];
      if (v.hidden_field_ids) view.hiddenFieldIds = JSON.parse(v.hidden_field_ids) as string[];
      byId.get(v.table_id)?.views.push(view);
    }
  }

  /** Reads the catalog again from the database, after a write that went around it (store/mirror-writes.ts). */
  reload(): void {
    this.bases.clear();
    this.load();
  }

  /**
   * Runs `fn` in one SQLite transaction. The in-memory catalog is changed as the work goes, so when it
   * fails (and SQLite rolls back) the catalog is read again from the database.
   */
  transaction<T>(fn: () => T): T {
    try {
      return this.db.transaction(fn)();
    } catch (err) {
      this.reload();
      throw err;
    }
  }

  listBases(): Base[] {
    return [...this.bases.values()];
  }

  base(id: string): Base | undefined {
    return this.bases.get(id);
  }

  /** A table by its `tbl…` id or its exact name. */
  table(base: Base, nameOrId: string): Table | undefined {
    return base.tables.find((t) => t.id === nameOrId) ?? base.tables.find((t) => t.name === nameOrId);
  }

  tableById(id: string): Table | undefined {
    for (const b of this.bases.values()) {
      const t = b.tables.find((x) => x.id === id);
      if (t) return t;
    }
    return undefined;
  }

  /** A field by its `fld…` id or its exact name. */
  field(table: Table, nameOrId: string): Field | undefined {
    return table.fields.find((f) => f.id === nameOrId) ?? table.fields.find((f) => f.name === nameOrId);
  }

  view(table: Table, nameOrId: string): View | undefined {
    return table.views.find((v) => v.id === nameOrId) ?? table.views.find((v) => v.name === nameOrId);
  }

  createBase(name: string, tables: TableSpec[]): Base {
    if (!name.trim()) throw invalidRequest('A base needs a name');
    const problem = nameProblem(name);
    if (problem) throw invalidRequest(`The base name ${JSON.stringify(name)} ${problem}`);
    if (tables.length === 0) throw invalidRequest('A base needs at least one table');
    return this.transaction(() => {
      const base: Base = { id: newId('app'), name, tables: [] };
      this.db
        .prepare('INSERT INTO bases (id, name, position) VALUES (?, ?, ?)')
        .run(base.id, name, this.bases.size);
      this.bases.set(base.id, base);
      // Links may point at tables created later in the same request: create them all, then the links.
      const created = tables.map((spec) => this.insertTable(base, spec));
      created.forEach((table, i) => this.addDeferredFields(table, tables[i]!));
      return base;
    });
  }

  createTable(base: Base, spec: TableSpec): Table {
    return this.transaction(() => {
      const table = this.insertTable(base, spec);
      this.addDeferredFields(table, spec);
      return table;
    });
  }

  private insertTable(base: Base, spec: TableSpec): Table {
    const name = checkName('table', spec.name, base.tables);
    const first = spec.fields[0];
    if (!first) throw invalidRequest('A table needs at least one field');
    if (PRIMARY_REFUSED.has(first.type) || DEFERRED_TYPES.has(first.type))
      throw invalidRequest(`A field of type ${first.type} cannot be the primary field`);
    const table: Table = {
      id: newId('tbl'),
      baseId: base.id,
      name,
      primaryFieldId: '',
      fields: [],
      views: [],
    };
    if (spec.description) table.description = spec.description;
    this.db
      .prepare(
        'INSERT INTO tables (id, base_id, name, description, primary_field_id, position) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(table.id, base.id, name, spec.description ?? null, '', base.tables.length);
    base.tables.push(table);
    for (const f of spec.fields) {
      if (DEFERRED_TYPES.has(f.type)) continue;
      this.addField(table, f);
    }
    table.primaryFieldId = table.fields[0]!.id;
    this.db
      .prepare('UPDATE tables SET primary_field_id = ? WHERE id = ?')
      .run(table.primaryFieldId, table.id);
    return table;
  }

  private addDeferredFields(table: Table, spec: TableSpec): void {
    for (const f of spec.fields) if (DEFERRED_TYPES.has(f.type)) this.addField(table, f);
    this.orderFields(
      table,
      spec.fields.map((f) => f.name),
    );
    for (const v of spec.views?.length ? spec.views : [{ name: 'Grid view' }]) this.addView(table, v);
  }

  /**
   * Puts the fields in the order of `names` (fields created in a later pass, such as links, move back in
   * place); fields not named (inverse links added from other tables) stay at the end.
   */
  orderFields(table: Table, names: string[]): void {
    const rank = (f: Field) => {
      const i = names.indexOf(f.name);
      return i === -1 ? names.length + table.fields.indexOf(f) : i;
    };
    const ranks = new Map(table.fields.map((f) => [f, rank(f)]));
    table.fields.sort((a, b) => ranks.get(a)! - ranks.get(b)!);
    const setPos = this.db.prepare('UPDATE fields SET position = ? WHERE id = ?');
    table.fields.forEach((f, i) => setPos.run(i, f.id));
  }

  createField(table: Table, spec: FieldSpec): Field {
    return this.transaction(() => this.addField(table, spec));
  }

  /**
   * A link to another table gets its inverse field there, as on Airtable: named after this table, linking
   * back, each naming the other in `inverseLinkFieldId`. The store keeps both sides in step.
   */
  private addInverseLink(table: Table, field: Field): void {
    const linked = this.tableById(String(field.options?.linkedTableId));
    if (!linked || linked === table) return;
    let name = table.name;
    for (let n = 2; linked.fields.some((f) => f.name.toLowerCase() === name.toLowerCase()); n++)
      name = `${table.name} ${n}`;
    const inverse = this.addField(
      linked,
      { name, type: 'multipleRecordLinks', options: { linkedTableId: table.id } },
      field.id,
    );
    field.options = { ...field.options, inverseLinkFieldId: inverse.id };
    this.saveField(field);
  }

  /** The field on the other side of a link, if it has one. */
  inverseOf(field: Field): { table: Table; field: Field } | undefined {
    const table = this.tableById(String(field.options?.linkedTableId));
    const inverse = table?.fields.find((f) => f.id === field.options?.inverseLinkFieldId);
    return table && inverse ? { table, field: inverse } : undefined;
  }

  /** `inverseOf`: the link field this new link field is the inverse of. */
  private addField(table: Table, spec: FieldSpec, inverseOf?: string): Field {
    const name = checkName('field', spec.name, table.fields);
    if (!KNOWN_TYPES.has(spec.type))
      throw invalidRequest(`Unsupported field type: ${JSON.stringify(spec.type)}`);
    const field: Field = { id: newId('fld'), name, type: spec.type };
    if (spec.description) field.description = spec.description;
    const options =
      spec.type === 'formula'
        ? this.formulaCheck(String(spec.options?.formula ?? ''), table, spec)
        : RELATIONAL_TYPES.has(spec.type)
          ? relationalOptions(spec.type, name, spec.options ?? undefined, table, (id) => this.tableById(id))
          : defaultFieldOptions(spec.type, spec.options ?? undefined, (id) => {
              const linked = this.tableById(id);
              return linked !== undefined && linked.baseId === table.baseId;
            });
    if (options) field.options = inverseOf ? { ...options, inverseLinkFieldId: inverseOf } : options;
    this.db
      .prepare(
        'INSERT INTO fields (id, table_id, name, type, description, options, position) VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        field.id,
        table.id,
        name,
        spec.type,
        spec.description ?? null,
        field.options ? JSON.stringify(field.options) : null,
        table.fields.length,
      );
    table.fields.push(field);
    if (field.type === 'multipleRecordLinks' && !inverseOf) this.addInverseLink(table, field);
    return field;
  }

  addView(table: Table, spec: ViewSpec): View {
    const problem = nameProblem(spec.name);
    if (problem) throw invalidRequest(`The view name ${JSON.stringify(spec.name)} ${problem}`);
    const view: View = { id: newId('viw'), name: spec.name, type: 'grid' };
    const fieldId = (n: string) => {
      const f = this.field(table, n);
      if (!f)
        throw invalidRequest(`Unknown field in view ${JSON.stringify(spec.name)}: ${JSON.stringify(n)}`);
      return f.id;
    };
    if (spec.filterByFormula) view.filterByFormula = spec.filterByFormula;
    if (spec.sort?.length)
      view.sort = spec.sort.map((s) => ({ fieldId: fieldId(s.field), direction: s.direction ?? 'asc' }));
    if (spec.hiddenFields?.length) view.hiddenFieldIds = spec.hiddenFields.map(fieldId);
    this.db
      .prepare(
        'INSERT INTO views (id, table_id, name, type, filter_formula, sort, hidden_field_ids, position) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        view.id,
        table.id,
        view.name,
        view.type,
        view.filterByFormula ?? null,
        view.sort ? JSON.stringify(view.sort) : null,
        view.hiddenFieldIds ? JSON.stringify(view.hiddenFieldIds) : null,
        table.views.length,
      );
    table.views.push(view);
    return view;
  }

  updateTable(table: Table, patch: { name?: string; description?: string }): Table {
    const base = this.bases.get(table.baseId)!;
    if (patch.name !== undefined)
      table.name = checkName(
        'table',
        patch.name,
        base.tables.filter((t) => t !== table),
      );
    if (patch.description !== undefined) table.description = patch.description;
    this.db
      .prepare('UPDATE tables SET name = ?, description = ? WHERE id = ?')
      .run(table.name, table.description ?? null, table.id);
    return table;
  }

  updateField(table: Table, field: Field, patch: { name?: string; description?: string }): Field {
    if (patch.name !== undefined)
      field.name = checkName(
        'field',
        patch.name,
        table.fields.filter((f) => f !== field),
      );
    if (patch.description !== undefined) field.description = patch.description;
    this.saveField(field);
    return field;
  }

  /** Persists a field's options after they changed (a select choice added by typecast). */
  saveField(field: Field): void {
    this.db
      .prepare('UPDATE fields SET name = ?, description = ?, options = ? WHERE id = ?')
      .run(
        field.name,
        field.description ?? null,
        field.options ? JSON.stringify(field.options) : null,
        field.id,
      );
  }

  /** Reserves `count` consecutive autoNumber values for new records of a table. */
  takeAutoNumbers(table: Table, count: number): number {
    const row = this.db
      .prepare(
        'UPDATE tables SET next_auto_number = next_auto_number + ? WHERE id = ? RETURNING next_auto_number',
      )
      .get(count, table.id) as { next_auto_number: number };
    return row.next_auto_number - count;
  }
}

export const isComputed = (field: Field) => READ_ONLY_FIELD_TYPES.has(field.type);

export function tableSchema(table: Table, includeVisibleFieldIds: boolean): TableSchema {
  const views: ViewSchema[] = table.views.map((v) => {
    const view: ViewSchema = { id: v.id, name: v.name, type: v.type };
    if (includeVisibleFieldIds && v.type === 'grid')
      view.visibleFieldIds = table.fields.filter((f) => !v.hiddenFieldIds?.includes(f.id)).map((f) => f.id);
    view.tabledesk = viewDetails(table, v);
    return view;
  });
  const schema: TableSchema = {
    id: table.id,
    name: table.name,
    primaryFieldId: table.primaryFieldId,
    fields: table.fields.map(fieldSchema),
    views,
  };
  if (table.description) schema.description = table.description;
  return schema;
}

/**
 * A view's filter and sort, which Airtable's metadata API does not give: an extra property of every view
 * object of this server (clients of Airtable's wire ignore it), so the app can show what a chosen view does;
 * its absence means a service that does not say.
 */
function viewDetails(table: Table, view: View): ViewDetails {
  const sort = (view.sort ?? [])
    .map((s) => ({ field: table.fields.find((f) => f.id === s.fieldId)?.name, direction: s.direction }))
    .filter((s): s is ViewDetails['sort'][number] => s.field !== undefined);
  return { sort, ...(view.filterByFormula ? { filterByFormula: view.filterByFormula } : {}) };
}

export function fieldSchema(field: Field): FieldSchema {
  const schema: FieldSchema = { id: field.id, name: field.name, type: field.type };
  if (field.description) schema.description = field.description;
  if (field.options) schema.options = field.options;
  return schema;
}
