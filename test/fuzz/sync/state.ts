/**
 * One side of the sync (the copy or the service) as the fuzzer's model sees it: records by their Name (a tag
 * given once and never edited, so a record made here is the same record on the service whatever its id), their
 * plain cells, the one-way link cell People.Manager (a self-link: no field back) as a cell of tags, and the
 * link pair as one set of (person, company) edges, with each cell's order kept for the final comparison.
 */
import type { RecordTableClient } from '../../../core/api';

export const TABLES = ['People', 'Companies'] as const;
export type TableName = (typeof TABLES)[number];
/** The one-way link field (People to People, no field back): its cell is the tags it names, in order. */
export const ONE_WAY = 'Manager';
/**
 * The cells a person writes, by table (the link pair aside): the plain ones an edit draws first, then the
 * one-way link cell, which commands of its own set.
 */
export const CELLS: Record<TableName, readonly string[]> = {
  People: ['Notes', 'Age', ONE_WAY],
  Companies: ['Notes'],
};
/** The plain cells of a table, which an edit draws from. */
export const PLAIN: Record<TableName, readonly string[]> = { People: ['Notes', 'Age'], Companies: ['Notes'] };

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

const norm = (v: unknown) => (v === undefined || v === '' || (Array.isArray(v) && v.length === 0) ? null : v);

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
      const tags = (field: string) =>
        ((r.fields[field] as string[] | undefined) ?? []).flatMap((id) => {
          const t = tagOf.get(id);
          if (t === undefined && strict) throw new Error(`${tag}'s ${field} names ${id}, which is not there`);
          return t === undefined ? [] : [t];
        });
      const links = tags(table === 'People' ? pair.people : pair.companies);
      for (const other of links)
        (table === 'People' ? fromPeople : fromCompanies).add(
          table === 'People' ? edge(tag, other) : edge(other, tag),
        );
      recs.set(tag, {
        tag,
        table,
        id: r.id,
        cells: Object.fromEntries(
          CELLS[table].map((f) => [f, f === ONE_WAY ? norm(tags(f)) : norm(r.fields[f])]),
        ),
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

/** A one-way cell's tags (a blank cell names none). */
export const tagsOf = (v: unknown): string[] => (Array.isArray(v) ? (v as string[]) : []);

/** A one-way cell as a side that has only the records `has` holds it (a record deleted there leaves every cell). */
export const linksOn = (v: unknown, has: (tag: string) => boolean): unknown => norm(tagsOf(v).filter(has));

/** `list` with each of `extra` put back after the nearest tag that comes before it in `reference`. */
export function putBack(
  list: readonly string[],
  extra: readonly string[],
  reference: readonly string[],
): string[] {
  const out = [...list];
  for (const t of extra) {
    const before = reference
      .slice(0, reference.indexOf(t))
      .reverse()
      .find((x) => out.includes(x));
    out.splice(before === undefined ? 0 : out.indexOf(before) + 1, 0, t);
  }
  return out;
}
