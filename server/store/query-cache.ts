/**
 * What a filtered query found (the records that pass its filter, their order), kept while the database is
 * unchanged so that a count, a seek or the next page of the same query does not evaluate the filter over the
 * table again. An entry is made once however many requests ask for it at the same time; one made while the
 * database changed under it serves the requests that waited for it and no other.
 */

interface Entry {
  version: number;
  madeAt: number;
  value: Promise<unknown>;
  /** Set once made. */
  made?: { value: unknown };
  /** Values held (seqs: the bound on memory); 0 until made. */
  size: number;
}

/** How long an entry serves at most: a filter may read the clock (TODAY(), NOW()). */
export const QUERY_CACHE_TTL_MS = 60_000;

/** Entries kept at most, and values (seqs) over all of them. */
const MAX_ENTRIES = 16;
const MAX_VALUES = 2_000_000;

export class QueryCache {
  private readonly entries = new Map<string, Entry>();
  private values = 0;

  /**
   * @param version a number that changes with every write to the database (SQLite's total_changes()).
   * @param ttlMs how long an entry serves at most.
   */
  constructor(
    private readonly version: () => number,
    private readonly ttlMs = QUERY_CACHE_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The value under `key` if it is fresh (or being made), else the one `make` makes. */
  get<T>(key: string, make: () => Promise<T>, size: (value: T) => number): Promise<T> {
    const fresh = this.fresh(key);
    if (fresh) return fresh.value as Promise<T>;
    // Its version is the one it started at: if a write lands while it is made, it is never fresh again.
    const entry: Entry = { version: this.version(), madeAt: this.now(), value: Promise.resolve(), size: 0 };
    const value = make().then(
      (v) => {
        if (this.entries.get(key) === entry) {
          entry.made = { value: v };
          entry.size = size(v);
          this.values += entry.size;
          this.evict();
        }
        return v;
      },
      (e: unknown) => {
        if (this.entries.get(key) === entry) this.drop(key);
        throw e;
      },
    );
    entry.value = value;
    this.drop(key);
    this.entries.set(key, entry);
    return value;
  }

  /**
   * The value under `key` if it is made and fresh now; nothing is made. Synchronous, so that what the caller
   * reads next in the database is what the value describes.
   */
  peek<T>(key: string): T | undefined {
    return this.fresh(key)?.made?.value as T | undefined;
  }

  private fresh(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.version !== this.version() || this.now() - entry.madeAt > this.ttlMs) {
      this.drop(key);
      return undefined;
    }
    // Most recently used last: eviction takes the first.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.values -= entry.size;
    this.entries.delete(key);
  }

  private evict(): void {
    for (const key of this.entries.keys()) {
      if (this.entries.size <= MAX_ENTRIES && this.values <= MAX_VALUES) return;
      this.drop(key);
    }
  }
}
