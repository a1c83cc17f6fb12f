/**
 * The append-only journal of cell edits in the user-data folder. An edit is appended and fsynced before the
 * caller hears "saved locally"; later lines record what became of each (edit, field): acknowledged by the
 * service, rejected, sent back to pending, or discarded. Replaying the file gives the edits still owed.
 *
 * Creates are journaled too, but never replayed: a create batch is written down before it is sent, and its
 * outcome after. One whose outcome is unknown (its reply was lost, or the app stopped while it was out)
 * stays listed, with its values, until the user has checked the table and dismisses it.
 *
 * Appends are group-committed: lines that arrive while a write is in progress go out together with one fsync,
 * so a burst of edits costs a few syncs, not one each.
 */
import { open, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { JournalFiles, JournalHandle } from './ports';
import type { EditTarget, FailureInfo } from './types';
import { PRIVATE_FILE, privateDir } from '../storage/private-files';

/** One (edit, field) pair: the unit the journal tracks. */
export type FieldRef = readonly [editId: string, field: string];

export interface EditLine {
  t: 'edit';
  id: string;
  at: number;
  target: EditTarget;
  recordId: string;
  fields: Record<string, unknown>;
  /** The values shown before the edit, for reverting and undo; a field left out had no known value. */
  previous?: Record<string, unknown>;
  typecast: boolean;
}

type OutcomeLine =
  | { t: 'ack'; refs: FieldRef[] }
  | { t: 'discard'; refs: FieldRef[] }
  | { t: 'retry'; refs: FieldRef[] }
  | { t: 'fail'; refs: FieldRef[]; error: FailureInfo };

export interface CreateLine {
  t: 'create';
  id: string;
  at: number;
  target: EditTarget;
  records: Record<string, unknown>[];
  /** An attachment upload, journaled like a create (services/attachments): the file, not its bytes. */
  upload?: { recordId: string; field: string; filename: string; size: number };
}

type CreateOutcomeLine =
  /** Created, or refused: either way nothing is left in doubt. */
  | { t: 'create-settled'; id: string }
  | { t: 'create-unknown'; id: string; error: FailureInfo }
  | { t: 'create-dismissed'; id: string };

export type JournalLine = EditLine | OutcomeLine | CreateLine | CreateOutcomeLine;

/** A create batch whose outcome is not known. */
export interface UncertainCreate {
  line: CreateLine;
  /** Absent while the request is out (or was out when the app stopped). */
  error?: FailureInfo;
}

/** An edit that is still owed, with each of its fields' state. */
export interface LiveEdit {
  line: EditLine;
  /** Fields still to send. */
  pending: Set<string>;
  /** Fields the service rejected, with why. */
  failed: Map<string, FailureInfo>;
}

const FILE = 'journal.jsonl';
/** An idle journal larger than this is truncated (everything in it has been settled). */
const TRUNCATE_AT_BYTES = 1 << 20;

/** The journal's files on the real disk. */
export const diskFiles: JournalFiles = {
  // The journal holds cell values: its folder is the user's alone, like every file the services write.
  mkdir: async (path) => {
    await privateDir(path);
  },
  open: (path, flags, mode) => open(path, flags, mode),
  readText: (path) => readFile(path, 'utf8'),
  rename: (from, to) => rename(from, to),
  remove: (path) => rm(path, { force: true }),
  size: async (path) => (await stat(path)).size,
};

interface Waiter {
  text: string;
  resolve: () => void;
  reject: (e: unknown) => void;
}

export class Journal {
  private readonly live = new Map<string, LiveEdit>();
  private readonly creates = new Map<string, UncertainCreate>();
  private waiting: Waiter[] = [];
  private writing = false;
  private idle: (() => void)[] = [];
  private size = 0;

  private constructor(
    private readonly files: JournalFiles,
    private readonly path: string,
    private handle: JournalHandle,
    private readonly unlock: () => Promise<void>,
  ) {}

  /** Opens (creating) the journal in `dir`, compacting it to the edits still owed. */
  static async open(dir: string, files: JournalFiles = diskFiles): Promise<Journal> {
    await files.mkdir(dir);
    const unlock = await lockDir(files, dir);
    const path = join(dir, FILE);
    const text = await files.readText(path).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return '';
      throw e;
    });
    const journal = new Journal(files, path, await files.open(path, 'a', PRIVATE_FILE), unlock);
    for (const line of parseLines(text)) journal.track(line);
    for (const create of journal.creates.values()) {
      create.error ??= {
        kind: 'outcome-unknown',
        message: create.line.upload
          ? `TableDesk stopped while ${create.line.upload.filename} was being uploaded: it may or may not have been attached.`
          : 'TableDesk stopped while these records were being sent: they may or may not have been created.',
      };
    }
    await journal.compact();
    return journal;
  }

  /** The edits still owed, oldest first. */
  liveEdits(): LiveEdit[] {
    return [...this.live.values()];
  }

  /** Create batches sent (or being sent) without a known outcome, oldest first. */
  uncertainCreates(): UncertainCreate[] {
    return [...this.creates.values()];
  }

  /** Resolves once the line is on disk (fsynced). */
  append(line: JournalLine): Promise<void> {
    this.track(line);
    return new Promise((resolve, reject) => {
      this.waiting.push({ text: JSON.stringify(line) + '\n', resolve, reject });
      void this.drain();
    });
  }

  /** Waits for the lines already appended to reach the disk, then closes the file, compacted to what is live. */
  async close(): Promise<void> {
    if (this.writing) await new Promise<void>((resolve) => this.idle.push(resolve));
    await this.compact();
    await this.handle.close();
    await this.unlock();
  }

  private track(line: JournalLine): void {
    switch (line.t) {
      case 'edit':
        this.live.set(line.id, { line, pending: new Set(Object.keys(line.fields)), failed: new Map() });
        return;
      case 'create':
        this.creates.set(line.id, { line });
        return;
      case 'create-unknown': {
        const create = this.creates.get(line.id);
        if (create !== undefined) create.error = line.error;
        return;
      }
      case 'create-settled':
      case 'create-dismissed':
        this.creates.delete(line.id);
        return;
    }
    for (const [id, field] of line.refs) {
      const edit = this.live.get(id);
      if (edit === undefined) continue;
      if (line.t === 'fail') {
        if (edit.pending.delete(field)) edit.failed.set(field, line.error);
      } else if (line.t === 'retry') {
        if (edit.failed.delete(field)) edit.pending.add(field);
      } else {
        edit.pending.delete(field);
        edit.failed.delete(field);
      }
      if (edit.pending.size === 0 && edit.failed.size === 0) this.live.delete(id);
    }
  }

  private async drain(): Promise<void> {
    if (this.writing) return;
    this.writing = true;
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting;
        this.waiting = [];
        try {
          const text = batch.map((w) => w.text).join('');
          await this.handle.write(text);
          await this.handle.datasync();
          this.size += Buffer.byteLength(text);
          if (this.idleJournal() && this.size > TRUNCATE_AT_BYTES) {
            await this.handle.truncate(0);
            await this.handle.datasync();
            this.size = 0;
          }
          for (const w of batch) w.resolve();
        } catch (e) {
          for (const w of batch) w.reject(e);
        }
      }
    } finally {
      this.writing = false;
      for (const resolve of this.idle.splice(0)) resolve();
    }
  }

  private idleJournal(): boolean {
    return this.live.size === 0 && this.creates.size === 0;
  }

  /** Rewrites the file as what is still live (write a copy, fsync, rename over), so it does not grow forever. */
  private async compact(): Promise<void> {
    const lines: string[] = [];
    for (const { line, pending, failed } of this.live.values()) {
      const settled = Object.keys(line.fields).filter((f) => !pending.has(f) && !failed.has(f));
      const fields = Object.fromEntries(Object.entries(line.fields).filter(([f]) => !settled.includes(f)));
      lines.push(JSON.stringify({ ...line, fields }));
      const byError = new Map<string, { error: FailureInfo; refs: FieldRef[] }>();
      for (const [field, error] of failed) {
        const key = JSON.stringify(error);
        const group = byError.get(key) ?? { error, refs: [] };
        group.refs.push([line.id, field]);
        byError.set(key, group);
      }
      for (const { error, refs } of byError.values()) lines.push(JSON.stringify({ t: 'fail', refs, error }));
    }
    for (const { line, error } of this.creates.values()) {
      lines.push(JSON.stringify(line));
      if (error !== undefined) lines.push(JSON.stringify({ t: 'create-unknown', id: line.id, error }));
    }
    const text = lines.map((l) => l + '\n').join('');
    const tmp = `${this.path}.tmp`;
    const copy = await this.files.open(tmp, 'w', PRIVATE_FILE);
    try {
      await copy.write(text);
      await copy.sync();
    } finally {
      await copy.close();
    }
    await this.handle.close();
    await this.files.rename(tmp, this.path);
    await syncDir(this.files, join(this.path, '..'));
    this.handle = await this.files.open(this.path, 'a', PRIVATE_FILE);
    this.size = await this.files.size(this.path);
  }
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * One process at a time per journal: two would replay the same edits and compact each other's lines away.
 * The lock file holds the owner's pid; a lock left by a process that died (killed, crashed) is taken over.
 */
async function lockDir(files: JournalFiles, dir: string): Promise<() => Promise<void>> {
  const path = join(dir, 'journal.lock');
  for (;;) {
    try {
      const handle = await files.open(path, 'wx', PRIVATE_FILE);
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => files.remove(path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const owner = Number(await files.readText(path).catch(() => ''));
    if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) {
      throw new Error(
        `Another TableDesk process (pid ${owner}) is using the edit journal in ${dir}. Close it, then start again.`,
      );
    }
    await files.remove(path);
  }
}

/**
 * Each line is one JSON value. A process killed mid-append leaves a torn last line; it was never
 * acknowledged to anyone, so it is dropped. A damaged line elsewhere is skipped rather than losing the rest.
 */
function parseLines(text: string): JournalLine[] {
  const out: JournalLine[] = [];
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    try {
      const line = JSON.parse(raw) as JournalLine;
      if (typeof line === 'object' && line !== null && typeof line.t === 'string') out.push(line);
    } catch {
      continue;
    }
  }
  return out;
}

async function syncDir(files: JournalFiles, dir: string): Promise<void> {
  const handle = await files.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
