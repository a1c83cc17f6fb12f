/**
 * The append-only journal of cell edits, creates and deletes in the user-data folder. An edit is appended and
 * fsynced before the caller hears "saved locally"; later lines record what became of each (edit, field):
 * acknowledged by the service, rejected, sent back to pending, or discarded. Replaying the file gives the
 * edits still owed.
 *
 * Creates are written down before they are sent, and their outcome after; one whose outcome is unknown (its
 * reply was lost, or the app stopped while it was out) stays until it is found on the service or the user
 * dismisses it. Deletes are written down with their ids before they are sent, and each batch once gone, so a
 * delete the app did not finish is resumed on the next start.
 *
 * Two kinds of lines. The user's (an edit, a create or delete about to be sent, a discard, a retry) count only
 * once on disk: a write the disk refuses is cut back off the file and refused to the caller, with the reason
 * in words, and nothing of it is kept. What the service said (acknowledged, rejected, created, gone) is true
 * whatever the disk does: it counts at once, and a line the disk refused is written again before the next one.
 * Should it never reach the disk, the next start only asks the service again (an edit is sent again, a create
 * looked for), and an edit a later acknowledged one superseded is not sent again.
 *
 * Appends are group-committed: lines that arrive while a write is in progress go out together with one fsync,
 * so a burst of edits costs a few syncs, not one each.
 */
import { open, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { editTargetSchema } from '../../core/contract/edits';
import { channelErrorSchema } from '../../core/contract/schemas';
import { ServiceError } from '../errors';
import { notSaved } from '../storage/disk-refusal';
import { lockFolder } from '../storage/folder-lock';
import type { FolderLock } from '../storage/folder-lock';
import { PRIVATE_FILE, privateDir } from '../storage/private-files';
import { readLine, setAside, streamLines, writeAll, writeCopy } from './journal-lines';
import type { JournalFiles, JournalHandle } from './ports';
import type { FailureInfo } from './types';

const id = z.string().min(1).max(200);
const values = z.record(z.string(), z.unknown());
const refs = z.array(z.tuple([id, z.string()]).readonly());

const edit = z.object({
  t: z.literal('edit'),
  id,
  at: z.number(),
  target: editTargetSchema,
  recordId: id,
  fields: values,
  /** The values shown before the edit, for reverting and undo; a field left out had no known value. */
  previous: values.optional(),
  typecast: z.boolean(),
});

const create = z.object({
  t: z.literal('create'),
  id,
  at: z.number(),
  target: editTargetSchema,
  records: z.array(values),
  /** Sent with typecast (the service converted text): its values are compared loosely when looked for. */
  typecast: z.boolean().optional(),
  /** An attachment upload, journaled like a create (services/attachments): the file, not its bytes. */
  upload: z.object({ recordId: id, field: z.string(), filename: z.string(), size: z.number() }).optional(),
});

const del = z.object({
  t: z.literal('delete'),
  id,
  at: z.number(),
  target: editTargetSchema,
  ids: z.array(id),
});

/** Every line the journal holds, checked when read back. */
const lineSchema = z.discriminatedUnion('t', [
  edit,
  z.object({ t: z.literal('ack'), refs }),
  z.object({ t: z.literal('discard'), refs }),
  z.object({ t: z.literal('retry'), refs }),
  z.object({ t: z.literal('fail'), refs, error: channelErrorSchema }),
  create,
  /** Created (with the records' ids, where known), or refused: either way nothing is left in doubt. */
  z.object({ t: z.literal('create-settled'), id, created: z.array(id).optional() }),
  z.object({ t: z.literal('create-unknown'), id, error: channelErrorSchema, until: z.number().optional() }),
  z.object({ t: z.literal('create-dismissed'), id }),
  del,
  /** These ids are gone from the service (deleted now, or found deleted). */
  z.object({ t: z.literal('delete-done'), id, ids: z.array(id) }),
  /** The rest failed: listed with the error until retried or dismissed. */
  z.object({ t: z.literal('delete-failed'), id, error: channelErrorSchema }),
  z.object({ t: z.literal('delete-dismissed'), id }),
]);

export type JournalLine = z.output<typeof lineSchema>;
export type EditLine = z.output<typeof edit>;
export type CreateLine = z.output<typeof create>;
export type DeleteLine = z.output<typeof del>;
/** One (edit, field) pair: the unit the journal tracks. */
export type FieldRef = readonly [editId: string, field: string];

/** Lines that record what the service said: true whatever the disk does (see the top). */
type FactLine = Extract<
  JournalLine,
  { t: 'ack' | 'fail' | 'create-settled' | 'create-unknown' | 'delete-done' | 'delete-failed' }
>;
type IntentLine = Exclude<JournalLine, FactLine>;

/** A create batch whose outcome is not known. */
export interface UncertainCreate {
  line: CreateLine;
  /** Absent while the request is out (or was out when the app stopped). */
  error?: FailureInfo;
  /** When its answer was found lost (the end of the time it may have been created in). */
  until?: number;
}

/** An edit that is still owed, with each of its fields' state. */
export interface LiveEdit {
  line: EditLine;
  /** Fields still to send. */
  pending: Set<string>;
  /** Fields the service rejected, with why. */
  failed: Map<string, FailureInfo>;
}

/** A delete with ids still on the service (or not known to be gone). */
export interface LiveDelete {
  line: DeleteLine;
  left: Set<string>;
  /** Set once it failed: listed until retried or dismissed, not resumed on its own. */
  error?: FailureInfo;
}

/** Damaged lines set aside, and where; reported until the user dismisses them. */
export interface JournalDamage {
  file: string;
  lines: number;
  message: string;
}

const FILE = 'journal.jsonl';
export const DAMAGED_FILE = 'journal.damaged.jsonl';
/**
 * The longest line read back whole (a line of the journal is one edit, create or delete: far smaller). One
 * longer is damage: reported and skipped, never held in memory. An append of one longer is refused.
 */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;
/** Damaged pieces are set aside in batches of about this much text. */
const ASIDE_BATCH_BYTES = 1 << 20;
/** An idle journal larger than this is truncated (everything in it has been settled). */
const TRUNCATE_AT_BYTES = 1 << 20;
/** How soon a line the disk refused, of what the service said, is written again with nothing else to write. */
const REWRITE_MS = 1000;

/** The journal's files on the real disk. */
export const diskFiles: JournalFiles = {
  // The journal holds cell values: its folder is the user's alone, like every file the services write.
  mkdir: async (path) => {
    await privateDir(path);
  },
  open: (path, flags, mode) => open(path, flags, mode),
  lines: (path, maxLineBytes) => streamLines(path, maxLineBytes),
  rename: (from, to) => rename(from, to),
  remove: (path) => rm(path, { force: true }),
  size: async (path) => (await stat(path)).size,
};

interface Waiter {
  /** One call's lines: written in one piece, so all of them or none count. */
  lines: readonly JournalLine[];
  /** What the service said (see the top): kept to write again when refused. */
  fact?: boolean;
  text: string;
  resolve: () => void;
  reject: (e: unknown) => void;
}

/**
 * Damaged pieces on their way to the file beside the journal, set aside a batch at a time (a journal of nothing
 * but damage would otherwise be held whole); `refused`: the pieces the disk would not take.
 */
class DamageAside {
  private batch: string[] = [];
  private bytes = 0;
  refused = 0;

  constructor(
    private readonly files: JournalFiles,
    private readonly path: string,
  ) {}

  async add(piece: string): Promise<void> {
    this.batch.push(piece);
    this.bytes += piece.length;
    if (this.bytes >= ASIDE_BATCH_BYTES) await this.flush();
  }

  async flush(): Promise<void> {
    const batch = this.batch;
    this.batch = [];
    this.bytes = 0;
    await setAside(this.files, this.path, FILE, batch).catch(() => (this.refused += batch.length));
  }
}

export class Journal {
  private readonly live = new Map<string, LiveEdit>();
  private readonly creates = new Map<string, UncertainCreate>();
  private readonly deletes = new Map<string, LiveDelete>();
  private waiting: Waiter[] = [];
  /** Lines of what the service said that the disk refused: written again, first, with the next write. */
  private owed: Waiter[] = [];
  private rewrite: NodeJS.Timeout | undefined;
  private writing = false;
  private idle: (() => void)[] = [];
  /** Bytes of whole lines in the file: a write cut short is cut back to here. */
  private size = 0;
  /** The file may end in a torn piece (it could not be cut back): the next write starts a new line first. */
  private torn = false;
  private closed = false;
  /** Damaged lines the disk would not let be set aside: they stay in the file (it is not rewritten). */
  private damagedInPlace = 0;
  /**
   * The file was renamed into place and its folder not synced since: the rename, and with it every line
   * appended to the new file, may not survive a power cut, so no write counts until the folder is synced.
   */
  private renamedUnsynced = false;

  private constructor(
    private readonly files: JournalFiles,
    private readonly dir: string,
    private handle: JournalHandle,
    private readonly lock: FolderLock | undefined,
  ) {}

  private get path(): string {
    return join(this.dir, FILE);
  }

  /**
   * Opens (creating) the journal in `dir`, compacted to what is still owed. `lock`, when given, is the data
   * folder's lock taken by the caller (released by the caller); else the journal takes it itself.
   */
  static async open(
    dir: string,
    files: JournalFiles = diskFiles,
    lock?: Promise<FolderLock>,
  ): Promise<Journal> {
    await files.mkdir(dir);
    const own = lock === undefined ? await lockFolder(dir) : undefined;
    if (lock !== undefined) await lock;
    try {
      const path = join(dir, FILE);
      const journal = new Journal(files, dir, await files.open(path, 'a', PRIVATE_FILE), own);
      // Read as a stream and tracked line by line: memory holds what is still owed, not the file.
      const aside = new DamageAside(files, join(dir, DAMAGED_FILE));
      try {
        for await (const l of files.lines(path, MAX_LINE_BYTES)) {
          journal.size += l.bytes;
          journal.torn = !l.ended;
          const { line, piece } =
            l.text === undefined
              ? {
                  piece: `${l.head ?? ''}… (a line of ${l.bytes} bytes, over the bound of ${MAX_LINE_BYTES})`,
                }
              : readLine(l.text, lineSchema);
          if (line !== undefined) journal.track(line);
          if (piece !== undefined) await aside.add(piece);
        }
        await aside.flush();
      } catch (e) {
        await journal.handle.close().catch(() => undefined);
        throw e;
      }
      const setAsideFailed = aside.refused > 0;
      if (setAsideFailed) journal.damagedInPlace = aside.refused;
      for (const c of journal.creates.values()) {
        c.error ??= {
          kind: 'outcome-unknown',
          message: c.line.upload
            ? `TableDesk stopped while ${c.line.upload.filename} was being uploaded: it may or may not have been attached.`
            : 'TableDesk stopped while these records were being sent: they may or may not have been created.',
        };
      }
      // Damaged lines that could not be set aside stay where they are rather than be lost in a rewrite; a
      // journal that cannot be rewritten (a full disk) is appended to as it is.
      if (!setAsideFailed) await journal.compact().catch(() => undefined);
      return journal;
    } catch (e) {
      await own?.release();
      throw e;
    }
  }

  /** The edits still owed, oldest first. */
  liveEdits(): LiveEdit[] {
    return [...this.live.values()];
  }

  /** Create batches sent (or being sent) without a known outcome, oldest first. */
  uncertainCreates(): UncertainCreate[] {
    return [...this.creates.values()];
  }

  /** Deletes not finished: interrupted ones (to resume) and failed ones (listed), oldest first. */
  liveDeletes(): LiveDelete[] {
    return [...this.deletes.values()];
  }

  /**
   * Damaged lines set aside beside the journal (this start's, earlier ones', an import journal's), until
   * dismissed; and those the disk would not let be set aside, left in the journal until the next start.
   */
  async damage(): Promise<JournalDamage | undefined> {
    const file = join(this.dir, DAMAGED_FILE);
    let aside = 0;
    try {
      for await (const l of this.files.lines(file, MAX_LINE_BYTES)) if (l.bytes > (l.ended ? 1 : 0)) aside++;
    } catch {
      // A file that cannot be read counts none: the journal's own damage, if any, is still reported.
    }
    const count = aside + this.damagedInPlace;
    if (count === 0) return undefined;
    const unreadable = (n: number) => (n === 1 ? 'An unreadable line' : `${n} unreadable lines`);
    const was = (n: number) => (n === 1 ? 'was' : 'were');
    return {
      file,
      lines: count,
      message:
        (aside > 0
          ? `${unreadable(aside)} of the edit journal (damaged, or cut short when TableDesk stopped while ` +
            `writing) ${was(aside)} set aside in ${file}. `
          : '') +
        (this.damagedInPlace > 0
          ? `${unreadable(this.damagedInPlace)} of the edit journal could not be set aside (the disk refused) and ` +
            `${this.damagedInPlace === 1 ? 'stays' : 'stay'} in it until the next start. `
          : '') +
        'An edit or create written on such a line is not sent or listed; everything else in the journal was read.',
    };
  }

  /** The user has seen the report: the file is kept under a dated name, and no longer reported. */
  async dismissDamage(): Promise<void> {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    await this.files
      .rename(join(this.dir, DAMAGED_FILE), join(this.dir, `journal.damaged-${stamp}.jsonl`))
      .catch((e: NodeJS.ErrnoException) => {
        if (e.code !== 'ENOENT') throw e;
      });
  }

  /**
   * Resolves once the line is on disk (fsynced); rejects, with the reason in words, when the disk refuses it,
   * and then nothing of it counts.
   */
  append(line: IntentLine | readonly IntentLine[]): Promise<void> {
    if (this.closed)
      return Promise.reject(new ServiceError('invalid-request', 'The edit journal is closed.'));
    const lines = Array.isArray(line) ? line : [line as IntentLine];
    if (lines.length === 0) return Promise.resolve();
    const texts = lines.map((l) => JSON.stringify(l) + '\n');
    // A line the next start would not read back whole is never written.
    if (texts.some((t) => Buffer.byteLength(t) > MAX_LINE_BYTES))
      return Promise.reject(
        new ServiceError(
          'invalid-request',
          `This change is too large for the edit journal (over ${MAX_LINE_BYTES / (1024 * 1024)} MB at once): make it in smaller parts.`,
        ),
      );
    return new Promise((resolve, reject) => {
      this.waiting.push({
        lines,
        text: texts.join(''),
        resolve,
        reject,
      });
      void this.drain();
    });
  }

  /** Records what the service said: it counts at once, and is written (again, if refused) until on disk. */
  note(line: FactLine): void {
    this.track(line);
    if (this.closed) return;
    this.waiting.push({
      lines: [line],
      fact: true,
      text: JSON.stringify(line) + '\n',
      resolve: () => undefined,
      reject: () => undefined,
    });
    void this.drain();
  }

  /** Resolves when the lines appended so far have been written (or refused). */
  async flushed(): Promise<void> {
    while (this.writing) await new Promise<void>((resolve) => this.idle.push(resolve));
  }

  /** Waits for the lines already appended to reach the disk, then closes the file, compacted to what is live. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.rewrite);
    await this.flushed();
    try {
      // Damaged lines left in the file are kept for the next start to set aside, not rewritten away.
      if (this.damagedInPlace === 0) await this.compact();
    } catch (e) {
      // A full disk: the file keeps its whole lines, and what the service said since is asked again next time.
      console.error('TableDesk: the edit journal could not be compacted on closing', e);
    } finally {
      await this.handle.close().catch(() => undefined);
      await this.lock?.release();
    }
  }

  private track(line: JournalLine): void {
    switch (line.t) {
      case 'edit':
        this.live.set(line.id, { line, pending: new Set(Object.keys(line.fields)), failed: new Map() });
        return;
      case 'create':
        // A create of no records and no upload would make nothing: there is nothing to look for or list.
        if (line.records.length > 0 || line.upload !== undefined) this.creates.set(line.id, { line });
        return;
      case 'create-unknown': {
        const c = this.creates.get(line.id);
        if (c !== undefined) {
          c.error = line.error;
          if (line.until !== undefined) c.until = line.until;
        }
        return;
      }
      case 'create-settled':
      case 'create-dismissed':
        this.creates.delete(line.id);
        return;
      case 'delete':
        // Nothing to delete, nothing to resume or list (it would stay listed with no rows, for good).
        if (line.ids.length > 0) this.deletes.set(line.id, { line, left: new Set(line.ids) });
        return;
      case 'delete-done': {
        const d = this.deletes.get(line.id);
        for (const gone of line.ids) d?.left.delete(gone);
        if (d?.left.size === 0) this.deletes.delete(line.id);
        return;
      }
      case 'delete-failed': {
        const d = this.deletes.get(line.id);
        if (d !== undefined) d.error = line.error;
        return;
      }
      case 'delete-dismissed':
        this.deletes.delete(line.id);
        return;
    }
    for (const [editId, field] of line.refs) {
      const edit = this.live.get(editId);
      if (edit === undefined) continue;
      if (line.t === 'fail') {
        if (edit.pending.delete(field)) edit.failed.set(field, line.error);
      } else if (line.t === 'retry') {
        if (edit.failed.delete(field)) edit.pending.add(field);
      } else {
        if (line.t === 'ack') this.supersede(edit, field);
        this.settle(edit, field);
      }
    }
  }

  private settle(edit: LiveEdit, field: string): void {
    edit.pending.delete(field);
    edit.failed.delete(field);
    if (edit.pending.size === 0 && edit.failed.size === 0) this.live.delete(edit.line.id);
  }

  /**
   * The service holds a newer value of the cell: older edits of it are owed no more (their own acknowledgement
   * may not have reached the disk, and sending them again would put an older value back).
   */
  private supersede(newer: LiveEdit, field: string): void {
    const { target, recordId } = newer.line;
    for (const older of this.live.values()) {
      if (older === newer) return;
      if (
        older.line.recordId === recordId &&
        older.line.target.connectionId === target.connectionId &&
        older.line.target.baseId === target.baseId &&
        older.line.target.table === target.table
      )
        this.settle(older, field);
    }
  }

  private async drain(): Promise<void> {
    if (this.writing) return;
    this.writing = true;
    try {
      while (this.waiting.length > 0) {
        const batch = [...this.owed, ...this.waiting];
        this.owed = [];
        this.waiting = [];
        const text = (this.torn ? '\n' : '') + batch.map((w) => w.text).join('');
        try {
          await writeAll(this.handle, text);
          await this.handle.datasync();
          if (this.renamedUnsynced) {
            await syncDir(this.files, this.dir);
            this.renamedUnsynced = false;
          }
        } catch (e) {
          const cut = await this.cutBack();
          const error = notSaved(this.dir, e);
          for (const w of batch) {
            if (w.fact === true) this.owed.push(w);
            else {
              w.reject(error);
              // Its lines may be whole in the file still (or again after a power cut): written off before anything
              // else, so no start sends what the user was told was not saved.
              if (!cut) this.owed.push(...w.lines.flatMap(cancelling));
            }
          }
          continue;
        }
        this.size += Buffer.byteLength(text);
        this.torn = false;
        for (const w of batch) {
          if (w.fact !== true) for (const line of w.lines) this.track(line);
          w.resolve();
        }
        if (this.idleJournal() && this.size > TRUNCATE_AT_BYTES) await this.empty();
      }
    } finally {
      this.writing = false;
      for (const resolve of this.idle.splice(0)) resolve();
      this.rewriteLater();
    }
  }

  /**
   * Takes a refused write back off the file, so the next line does not start in the middle of it; false when the
   * disk would not (or did not say it did).
   */
  private async cutBack(): Promise<boolean> {
    try {
      await this.handle.truncate(this.size);
      await this.handle.datasync();
      this.torn = false;
      return true;
    } catch {
      this.torn = true;
      return false;
    }
  }

  private async empty(): Promise<void> {
    try {
      await this.handle.truncate(0);
      await this.handle.datasync();
      this.size = 0;
    } catch {
      // Kept as it is: every line in it is settled, and it is emptied at the next chance.
    }
  }

  /** Lines of what the service said that the disk refused are tried again, though nothing else comes. */
  private rewriteLater(): void {
    if (this.owed.length === 0 || this.rewrite !== undefined || this.closed) return;
    this.rewrite = setTimeout(() => {
      this.rewrite = undefined;
      if (this.owed.length === 0 || this.writing) return;
      this.waiting.unshift(...this.owed.splice(0));
      void this.drain();
    }, REWRITE_MS);
    this.rewrite.unref();
  }

  private idleJournal(): boolean {
    return (
      this.live.size === 0 && this.creates.size === 0 && this.deletes.size === 0 && this.owed.length === 0
    );
  }

  /** The lines that give what is live now. */
  private liveLines(): JournalLine[] {
    const lines: JournalLine[] = [];
    for (const { line, pending, failed } of this.live.values()) {
      const fields = Object.fromEntries(
        Object.entries(line.fields).filter(([f]) => pending.has(f) || failed.has(f)),
      );
      lines.push({ ...line, fields });
      const byError = new Map<string, { error: FailureInfo; refs: [string, string][] }>();
      for (const [field, error] of failed) {
        const key = JSON.stringify(error);
        const group = byError.get(key) ?? { error, refs: [] };
        group.refs.push([line.id, field]);
        byError.set(key, group);
      }
      for (const { error, refs } of byError.values()) lines.push({ t: 'fail', refs, error });
    }
    for (const { line, error, until } of this.creates.values()) {
      lines.push(line);
      if (error !== undefined)
        lines.push({ t: 'create-unknown', id: line.id, error, ...(until === undefined ? {} : { until }) });
    }
    for (const { line, left, error } of this.deletes.values()) {
      lines.push({ ...line, ids: line.ids.filter((x) => left.has(x)) });
      if (error !== undefined) lines.push({ t: 'delete-failed', id: line.id, error });
    }
    return lines;
  }

  /** Rewrites the file as what is still live (write a copy, fsync, rename over), so it does not grow forever. */
  private async compact(): Promise<void> {
    const text = this.liveLines()
      .map((l) => JSON.stringify(l) + '\n')
      .join('');
    const tmp = await writeCopy(this.files, this.path, text);
    // Closed first: Windows does not rename over an open file. Whatever happens, the journal is open again.
    await this.handle.close();
    try {
      await this.files.rename(tmp, this.path);
    } catch (e) {
      await this.files.remove(tmp).catch(() => undefined);
      this.handle = await this.files.open(this.path, 'a', PRIVATE_FILE);
      throw e;
    }
    this.handle = await this.files.open(this.path, 'a', PRIVATE_FILE);
    // The file is the copy from here on, whether or not its folder syncs.
    this.size = Buffer.byteLength(text);
    this.torn = false;
    // Everything the service said is in the rewritten file.
    this.owed = [];
    this.renamedUnsynced = true;
    await syncDir(this.files, this.dir);
    this.renamedUnsynced = false;
  }
}

/** Lines that make a refused line count for nothing when read back (it may be in the file after all). */
function cancelling(line: JournalLine): Waiter[] {
  const cancel: JournalLine | undefined =
    line.t === 'edit'
      ? { t: 'discard', refs: Object.keys(line.fields).map((field) => [line.id, field] as const) }
      : line.t === 'create'
        ? { t: 'create-dismissed', id: line.id }
        : line.t === 'delete'
          ? { t: 'delete-dismissed', id: line.id }
          : undefined;
  if (cancel === undefined) return [];
  return [
    {
      lines: [cancel],
      fact: true,
      text: JSON.stringify(cancel) + '\n',
      resolve: () => undefined,
      reject: () => undefined,
    },
  ];
}

/**
 * Makes a rename in `dir` durable. Windows has no sync of a folder (it cannot be opened as a file); NTFS
 * journals the rename itself.
 */
async function syncDir(files: JournalFiles, dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await files.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
