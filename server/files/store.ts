import { randomBytes, webcrypto } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { Variant } from './signing';
import { describeImage } from './thumbnails';

export interface ThumbnailMeta {
  width: number;
  height: number;
  type: string;
}

/** What the server knows of a stored file, whatever name or type it was uploaded under. */
export interface Blob {
  hash: string;
  size: number;
  width?: number;
  height?: number;
  thumbnails?: Record<'small' | 'large' | 'full', ThumbnailMeta>;
}

const SCHEMA = `CREATE TABLE IF NOT EXISTS files (hash TEXT PRIMARY KEY, size INTEGER NOT NULL, meta TEXT NOT NULL)`;

/**
 * Uploaded files, content-addressed: each is kept once under its SHA-256, however many attachments name it,
 * with its thumbnails beside it. The folder is made on the first upload (0700, files 0600, like the
 * database); a server in memory keeps its files in a temporary folder removed when it closes.
 */
export class FileStore {
  private folder: string | undefined;
  private readonly temporary: boolean;
  private readonly sql;

  constructor(
    /** The server's database (store/db.ts opens it), named by the driver's type: files sit beside the store. */
    db: Database.Database,
    private readonly dataDir: string | undefined,
  ) {
    db.exec(SCHEMA);
    this.temporary = dataDir === undefined;
    this.sql = {
      get: db.prepare('SELECT hash, size, meta FROM files WHERE hash = ?'),
      put: db.prepare('INSERT OR IGNORE INTO files (hash, size, meta) VALUES (?, ?, ?)'),
      all: db.prepare('SELECT hash FROM files'),
      drop: db.prepare('DELETE FROM files WHERE hash = ?'),
      // Only records holding an uploaded attachment mention `"blob":`.
      holders: db.prepare(`SELECT data FROM records WHERE instr(data, '"blob":"') > 0`),
    };
  }

  get(hash: string): Blob | undefined {
    const row = this.sql.get.get(hash) as { hash: string; size: number; meta: string } | undefined;
    if (!row) return undefined;
    return { hash: row.hash, size: row.size, ...(JSON.parse(row.meta) as Omit<Blob, 'hash' | 'size'>) };
  }

  /** Stores `bytes` (once: the same bytes again find the stored file) with thumbnails when it is an image. */
  async put(bytes: Buffer): Promise<Blob> {
    // WebCrypto hashes in the thread pool: 20 MB hashed here took 120 ms from every other request.
    const hash = Buffer.from(await webcrypto.subtle.digest('SHA-256', bytes)).toString('hex');
    const known = this.get(hash);
    if (known && existsSync(this.path(hash, 'file'))) return known;
    // Images are decoded in lanes by their size (see thumbnails.ts): a small one never waits behind a big one.
    const image = await describeImage(bytes);
    await this.write(hash, 'file', bytes);
    const blob: Blob = { hash, size: bytes.length };
    if (image) {
      blob.width = image.width;
      blob.height = image.height;
      const thumbs = {} as NonNullable<Blob['thumbnails']>;
      for (const [name, t] of Object.entries(image.thumbnails) as [
        keyof typeof image.thumbnails,
        (typeof image.thumbnails)['small'],
      ][]) {
        await this.write(hash, name, t.bytes);
        thumbs[name] = { width: t.width, height: t.height, type: t.type };
      }
      blob.thumbnails = thumbs;
    }
    const { hash: _h, size, ...meta } = blob;
    this.sql.put.run(hash, size, JSON.stringify(meta));
    return this.get(hash) ?? blob;
  }

  /** Where a file or one of its thumbnails is kept. */
  path(hash: string, variant: Variant): string {
    return join(this.root(), hash.slice(0, 2), variant === 'file' ? hash : `${hash}.${variant}`);
  }

  /**
   * Removes the files no record names any more. Run when the server starts, never while it answers: a file
   * whose last attachment was removed stays until then, so an undo in the same session can still name it.
   */
  collect(): number {
    const named = new Set<string>();
    for (const row of this.sql.holders.iterate() as Iterable<{ data: string }>)
      for (const m of row.data.matchAll(/"blob":"([0-9a-f]{64})"/g)) named.add(m[1]!);
    let removed = 0;
    for (const { hash } of this.sql.all.all() as { hash: string }[]) {
      if (named.has(hash)) continue;
      for (const v of ['file', 'small', 'large', 'full'] as const)
        rmSync(this.path(hash, v), { force: true });
      this.sql.drop.run(hash);
      removed++;
    }
    return removed;
  }

  close(): void {
    if (this.temporary && this.folder) rmSync(this.folder, { recursive: true, force: true });
  }

  private root(): string {
    if (!this.folder) {
      this.folder =
        this.dataDir === undefined
          ? mkdtempSync(join(tmpdir(), 'tabledesk-files-'))
          : join(this.dataDir, 'files');
      mkdirSync(this.folder, { recursive: true, mode: 0o700 });
      chmodSync(this.folder, 0o700);
    }
    return this.folder;
  }

  /**
   * Written under a temporary name and renamed, so a reader never sees half a file; off the thread every
   * request waits for (writing twenty 3 MB uploads there held every other request about 0.6 s).
   */
  private async write(hash: string, variant: Variant, bytes: Buffer): Promise<void> {
    const target = this.path(hash, variant);
    const dir = join(this.root(), hash.slice(0, 2));
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const temp = join(dir, `.${randomBytes(8).toString('hex')}.part`);
    try {
      await writeFile(temp, bytes, { mode: 0o600, flag: 'wx' });
      await rename(temp, target);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  }
}
