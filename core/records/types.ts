/**
 * The wire shapes of the Record Table Service (Airtable Web API v0), shared by the server, the client,
 * the services and the renderer. Cell values are kept as `unknown`: a client must tolerate types it does not
 * know (the service adds field types over time), so code narrows values where it needs them.
 */

export type CellValue = unknown;

/** A record as the service sends it: empty values are absent from `fields`. */
export interface RecordData {
  id: string;
  createdTime: string;
  fields: Record<string, CellValue>;
  /** Present when `recordMetadata[]=commentCount` is asked for. */
  commentCount?: number;
}

/**
 * What any field type's name looks like (Airtable's are camelCase words): one the local server does not
 * implement is still a type, but one of another shape (a path, a control character, an empty string) is a
 * broken or hostile answer.
 */
export const FIELD_TYPE_NAME = /^[A-Za-z][A-Za-z0-9]{0,63}$/;

/** The field types the local server implements; the client accepts any string that names a type. */
export const FIELD_TYPES = [
  'singleLineText',
  'multilineText',
  'email',
  'url',
  'phoneNumber',
  'number',
  'currency',
  'percent',
  'duration',
  'rating',
  'checkbox',
  'date',
  'dateTime',
  'singleSelect',
  'multipleSelects',
  'multipleRecordLinks',
  'multipleAttachments',
  'autoNumber',
  'createdTime',
  'lastModifiedTime',
  'formula',
] as const;

export type KnownFieldType = (typeof FIELD_TYPES)[number];
export type FieldType = KnownFieldType | (string & {});

/** Computed fields refuse writes. */
export const READ_ONLY_FIELD_TYPES: ReadonlySet<string> = new Set([
  'autoNumber',
  'createdTime',
  'lastModifiedTime',
  'formula',
  'rollup',
  'multipleLookupValues',
  'count',
  'createdBy',
  'lastModifiedBy',
  'button',
  'aiText',
  'externalSyncSource',
]);

export interface SelectChoice {
  id: string;
  name: string;
  color?: string;
}

export interface FieldSchema {
  id: string;
  name: string;
  type: FieldType;
  description?: string;
  /** Absent, null or `{}` for many types; contents depend on the type (see airtable-wire.md §8). */
  options?: Record<string, unknown> | null;
}

/**
 * What a view does, given only by TableDesk's local server (an extra property Airtable's metadata API does
 * not have): its filter formula and its sort, by field name.
 */
export interface ViewDetails {
  filterByFormula?: string;
  sort: { field: string; direction: SortDirection }[];
}

export interface ViewSchema {
  id: string;
  name: string;
  type: string;
  visibleFieldIds?: string[];
  /** Only from TableDesk's local server; untrusted like any answer, so checked before use. */
  tabledesk?: ViewDetails;
}

export interface TableSchema {
  id: string;
  name: string;
  primaryFieldId: string;
  description?: string;
  fields: FieldSchema[];
  views: ViewSchema[];
}

export interface BaseInfo {
  id: string;
  name: string;
  permissionLevel: 'none' | 'read' | 'comment' | 'edit' | 'create';
}

export type SortDirection = 'asc' | 'desc';

export interface SortSpec {
  field: string;
  direction?: SortDirection;
}
