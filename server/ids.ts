import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export type IdPrefix = 'app' | 'tbl' | 'fld' | 'viw' | 'rec' | 'sel' | 'itr' | 'usr' | 'att' | 'com' | 'ach';

/** Airtable's id shape: a 3-letter prefix and 14 alphanumerics (airtable-wire.md §6). */
export function newId(prefix: IdPrefix): string {
  // One random read per id keeps seeding 50,000 records cheap; the modulo bias is irrelevant for ids.
  const bytes = randomBytes(14);
  let s = prefix;
  for (const b of bytes) s += ALPHABET[b % ALPHABET.length];
  return s;
}
