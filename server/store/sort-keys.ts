/**
 * Sort keys for text-like cells. Airtable orders text case-insensitively and ignores accents, the way a
 * locale-aware collation does; SQLite through better-sqlite3 cannot register a collation, so each value is
 * folded into a key whose binary order approximates that (NFKD, marks removed, lower case). Equal keys
 * fall back to creation order, which keeps the sort stable. Blanks become '' and so come first ascending.
 */
export function textSortKey(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map((v) => textSortKey(v)).join(', ');
  if (typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return textSortKey(o.name ?? o.filename ?? o.url ?? o.id ?? JSON.stringify(o));
  }
  return String(value).normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}
