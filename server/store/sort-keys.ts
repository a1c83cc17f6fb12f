/**
 * Sort keys for text-like cells. SQLite through better-sqlite3 cannot register a collation, so each value is
 * folded into a key whose binary order approximates Airtable's (see textSortKey). Equal keys fall back to
 * creation order, which keeps the sort stable. Blanks become '' and so come first ascending. The app groups
 * records it has read by the same key, so its groups match the server's.
 */
export { textSortKey, textSortPrefix } from '../../core/records/aggregate';
