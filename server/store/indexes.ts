import type { Db } from './db';

/**
 * The expression indexes over `records` that reads and writes make on first use (a sort's order, an upsert's
 * merge key): one maker, so each is made once per process, outside any write's transaction (whose rollback
 * would take it back), and an index it replaces goes before the new one is built.
 */
export class ExpressionIndexes {
  private readonly made = new Set<string>();

  constructor(private readonly db: Db) {}

  /** Whether index `name` exists, made by this process or found in the file. */
  has(name: string): boolean {
    if (this.made.has(name)) return true;
    if (!this.exists(name)) return false;
    this.made.add(name);
    return true;
  }

  /** Makes `name` over records(table_id, columns) unless it exists, dropping the indexes `stale()` names first. */
  ensure(name: string, columns: string, stale: () => Iterable<string> = () => []): string {
    if (this.made.has(name)) return name;
    for (const s of new Set(stale())) {
      if (s === name) continue;
      this.db.exec(`DROP INDEX IF EXISTS ${s}`);
      this.made.delete(s);
    }
    this.db.exec(`CREATE INDEX IF NOT EXISTS ${name} ON records(table_id, ${columns})`);
    this.made.add(name);
    return name;
  }

  /** The names of existing indexes matching a GLOB pattern, oldest first. */
  named(glob: string): string[] {
    return this.db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name GLOB ? ORDER BY rowid")
      .pluck()
      .all(glob) as string[];
  }

  private exists(name: string): boolean {
    return (
      this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?").get(name) !== undefined
    );
  }
}
