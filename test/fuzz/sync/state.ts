/**
 * One side of the sync (the copy or the service) as the fuzzer's model sees it: records by their Name (a tag
 * given once and never edited, so a record made here is the same record on the service whatever its id), their
 * plain cells, and the link pair as one set of (person, company) edges, with each cell's order kept for the
 * final comparison.
 */
import type { RecordTableClient } from '../../../core/api';

export const TABLES = ['People', 'Companies'] as const;
export type TableName = (typeof TABLES)[number];
/** The cells a person writes, by table (the link pair aside). */
export const CELLS: Record<TableName, readonly string[]> = { People: ['Notes', 'Age'], Companies: ['Notes'] };

export interface Rec {
  tag: string;
  table: TableName;
  id: string;
  cells: Record<string, unknown>;
  /** The link cell's tags, in the cell's order. */
  links: string[];
}

export interface Side {
  recs: Map<string, Rec>;
  /** `person|company` */
  edges: Set<string>;
}

export const edge = (person: string, company: string) => `${person}|${company}`;
export const ends = (e: string) => e.split('|') as [string, string];

/** Field names of the pair: People's link field and the inverse the service made for it on Companies. */
export interface Pair {
  people: string;
  companies: string;
}

const norm = (v: unknown) => (v === undefined || v === '' ? null : v);

/**
 * Reads a side whole; throws when the two cells of the pair disagree (a relation seen two ways). `strict`:
 * a link to a record the side does not have throws too; else it is left out (a sync stopped midway may have
 * written a record's cell before the record it names, which the next sync brings).
 */
export async function readSide(
  client: RecordTableClient,
  baseId: string,
  pair: Pair,
  strict: boolean,
): Promise<Side> {
  const raw = await Promise.all(TABLES.map((t) => client.table(baseId, t).all()));
  const tagOf = new Map<string, string>();
  for (const list of raw) for (const r of list) tagOf.set(r.id, String(r.fields.Name));
  const recs = new Map<string, Rec>();
  const fromPeople = new Set<string>();
  const fromCompanies = new Set<string>();
  TABLES.forEach((table, i) => {
    for (const r of raw[i]!) {
      const tag = String(r.fields.Name);
      if (recs.has(tag)) throw new Error(`two records named ${tag}: a record was made twice`);
      const linkField = table === 'People' ? pair.people : pair.companies;
      const links = ((r.fields[linkField] as string[] | undefined) ?? []).flatMap((id) => {
        const t = tagOf.get(id);
        if (t === undefined && strict)
          throw new Error(`${tag}'s ${linkField} names ${id}, which is not there`);
        return t === undefined ? [] : [t];
      });
      for (const other of links)
        (table === 'People' ? fromPeople : fromCompanies).add(
          table === 'People' ? edge(tag, other) : edge(other, tag),
        );
      recs.set(tag, {
        tag,
        table,
        id: r.id,
        cells: Object.fromEntries(CELLS[table].map((f) => [f, norm(r.fields[f])])),
        links,
      });
    }
  });
  const a = [...fromPeople].sort().join();
  const b = [...fromCompanies].sort().join();
  if (a !== b) throw new Error(`the two cells of the link pair disagree: People [${a}], Companies [${b}]`);
  return { recs, edges: fromPeople };
}

export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(norm(a)) === JSON.stringify(norm(b));
}
