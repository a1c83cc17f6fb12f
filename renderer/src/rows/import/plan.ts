/**
 * A CSV file read for import: decoded (UTF-8, with or without BOM; UTF-16 by its BOM; else Windows-1252,
 * said so), parsed with papaparse (quoted cells may hold commas, quotes and line breaks; CRLF or LF), bounded
 * in bytes, rows and columns. Columns are mapped to fields by name (case-insensitive) and every cell is typed
 * by its field's rules in `editing/parse.ts`, the ones typing and pasting use, so the preview shows exactly
 * what will be sent and a cell that does not fit is refused here, with why, before any request. Only select
 * names the field does not have yet go with typecast (the service adds them, as after a paste).
 */
import Papa from 'papaparse';
import type { Column } from '../../../../core/contract';
import {
  IMPORT_MAX_COLUMNS,
  IMPORT_MAX_FILE_BYTES,
  IMPORT_MAX_ROWS,
  MERGE_FIELD_TYPES,
} from '../../../../core/contract/imports';
import type { ImportRow } from '../../../../core/contract/imports';
import { plural } from '../../../../core/records/format';
import { isEditable, parseInput, parseLinks } from '../../editing/parse';

export interface CsvFile {
  header: string[];
  /** Data rows with their row number in the file (the header is row 1). */
  rows: { line: number; cells: string[] }[];
  /** Rows the file itself gets wrong (a missing quote, too many cells): never sent. */
  broken: { line: number; reason: string }[];
  /** How the bytes were read, when it was not UTF-8. */
  note?: string;
}

export type CsvResult = { ok: true; file: CsvFile } | { ok: false; error: string };

const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;

/** Text from the file's bytes: a BOM says the encoding; bytes that are not UTF-8 are read as Windows-1252. */
export function decode(bytes: Uint8Array): { text: string; note?: string } {
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return { text: new TextDecoder('utf-16le').decode(bytes.subarray(2)) };
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return { text: new TextDecoder('utf-16be').decode(bytes.subarray(2)) };
  try {
    // TextDecoder drops a UTF-8 BOM itself.
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return {
      text: new TextDecoder('windows-1252').decode(bytes),
      note: 'The file is not UTF-8: it was read as Windows-1252 (Western European).',
    };
  }
}

export function readCsv(bytes: Uint8Array): CsvResult {
  if (bytes.length > IMPORT_MAX_FILE_BYTES)
    return {
      ok: false,
      error: `The file is ${mib(bytes.length)}; TableDesk imports files of up to ${mib(IMPORT_MAX_FILE_BYTES)}. Split it and import the parts.`,
    };
  const { text, note } = decode(bytes);
  // One row past the limit is enough to tell the file is too long, whatever its size.
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { preview: IMPORT_MAX_ROWS + 2 });
  const [header, ...data] = parsed.data;
  if (header === undefined || header.every((h) => h.trim() === ''))
    return { ok: false, error: 'The file is empty: its first row should name the columns.' };
  if (header.length > IMPORT_MAX_COLUMNS)
    return {
      ok: false,
      error: `The file has ${header.length} columns; TableDesk imports at most ${IMPORT_MAX_COLUMNS}.`,
    };
  const rows: CsvFile['rows'] = [];
  const broken: CsvFile['broken'] = [];
  const errors = new Map<number, string>();
  for (const e of parsed.errors) if (e.row !== undefined) errors.set(e.row, e.message);
  data.forEach((cells, i) => {
    const line = i + 2;
    // A blank line (often the last) is no row.
    if (cells.length === 1 && cells[0]!.trim() === '') return;
    const error = errors.get(i + 1);
    if (error !== undefined) broken.push({ line, reason: error });
    else if (cells.length > header.length)
      broken.push({ line, reason: `${cells.length} cells, but the header names ${header.length} columns` });
    else rows.push({ line, cells });
  });
  if (rows.length + broken.length > IMPORT_MAX_ROWS)
    return {
      ok: false,
      error: `The file has more than ${IMPORT_MAX_ROWS.toLocaleString()} rows; split it and import the parts.`,
    };
  if (rows.length === 0 && broken.length === 0)
    return { ok: false, error: 'The file has no rows under its header.' };
  return { ok: true, file: { header: header.map((h) => h.trim()), rows, broken, ...(note ? { note } : {}) } };
}

/** Fields a column may go to: not computed, and not attachments (which need files, not text). */
export const importable = (fields: readonly Column[]): Column[] => fields.filter(isEditable);

/** Fields an upsert may merge on (as the service allows). */
export const mergeable = (fields: readonly Column[]): Column[] =>
  importable(fields).filter((f) => MERGE_FIELD_TYPES.has(f.type));

/** Each column's field by name (case-insensitive, each field once), or null to skip it. */
export function autoMap(header: readonly string[], fields: readonly Column[]): (string | null)[] {
  const byName = new Map(importable(fields).map((f) => [f.name.trim().toLowerCase(), f.name]));
  const used = new Set<string>();
  return header.map((h) => {
    const name = byName.get(h.toLowerCase());
    if (name === undefined || used.has(name)) return null;
    used.add(name);
    return name;
  });
}

export interface ImportPlan {
  /** The mapped fields, in the order of each row's values. */
  fields: string[];
  rows: ImportRow[];
  /** Rows that will not be sent, with why (cells that do not fit their field, rows the file gets wrong). */
  failing: { line: number; reason: string }[];
}

function typed(
  field: Column,
  raw: string,
): { ok: true; value: unknown; typecast: boolean } | { ok: false; error: string } {
  // An empty cell stays empty: a create leaves the field blank, an upsert keeps the record's value.
  if (raw.trim() === '') return { ok: true, value: null, typecast: false };
  if (field.type === 'multipleRecordLinks') return parseLinks(raw);
  return parseInput(field, raw);
}

export function planImport(
  file: CsvFile,
  mapping: readonly (string | null)[],
  fields: readonly Column[],
): ImportPlan {
  const byName = new Map(importable(fields).map((f) => [f.name, f]));
  const columns = mapping.flatMap((name, i) => {
    const field = name === null ? undefined : byName.get(name);
    return field === undefined ? [] : [{ index: i, field }];
  });
  const failing: ImportPlan['failing'] = file.broken.map((b) => ({ line: b.line, reason: b.reason }));
  const rows: ImportRow[] = [];
  for (const { line, cells } of file.rows) {
    const values: unknown[] = [];
    const problems: string[] = [];
    let typecast = false;
    for (const { index, field } of columns) {
      const parsed = typed(field, cells[index] ?? '');
      if (parsed.ok) {
        values.push(parsed.value);
        typecast ||= parsed.typecast;
      } else problems.push(`${field.name}: ${parsed.error}`);
    }
    if (problems.length > 0) failing.push({ line, reason: problems.join('; ') });
    else rows.push({ line, values, typecast });
  }
  failing.sort((a, b) => a.line - b.line);
  return { fields: columns.map((c) => c.field.name), rows, failing };
}

/** What an upsert's merge fields need of the mapping; undefined when it is fine. */
export function mergeProblem(plan: ImportPlan, mergeOn: readonly string[]): string | undefined {
  if (mergeOn.length === 0) return 'Choose the fields that identify a record (1 to 3).';
  if (mergeOn.length > 3) return 'An upsert merges on at most 3 fields.';
  const missing = mergeOn.filter((f) => !plan.fields.includes(f));
  if (missing.length > 0) return `Map a column to ${missing.join(', ')} to merge on it.`;
  return undefined;
}

export const rowsText = (n: number): string => plural(n, 'row');
