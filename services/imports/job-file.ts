/**
 * The journal of one import job: `imports/<id>.jsonl` beside the edit journal (inside the folder its lock
 * guards, so only one TableDesk writes it). The first line is the job with all its typed rows, fsynced before
 * any request; then a line before each batch is sent and one with its outcome. Replaying the file tells, per
 * batch, whether it was answered, refused, or left in doubt (sent, no answer), so a run killed midway can
 * resume from the first batch never sent without sending a create twice.
 */
import { open, readdir, readFile, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { ImportRow } from '../../core/contract/imports';
import { PRIVATE_FILE, privateDir } from '../storage/private-files';
import type { EditTarget, FailureInfo } from '../edits/types';

export interface JobLine {
  t: 'job';
  id: string;
  at: number;
  target: EditTarget;
  mode: 'create' | 'upsert';
  mergeOn: string[];
  fields: string[];
  rows: ImportRow[];
}

/**
 * A unit is a batch (`"3"`: rows 30–39) or, once a batch was refused as a whole, one of its rows (`"3.4"`),
 * each sent alone so the report names the row the service refused and why.
 */
export type UnitLine =
  | { t: 'sent'; unit: string }
  /** Ids in the order of the unit's rows; `created[i]` is set where row i made a new record. */
  | { t: 'ack'; unit: string; ids: string[]; created: string[] }
  | { t: 'refused'; unit: string; error: FailureInfo }
  | { t: 'split'; unit: string }
  | { t: 'unknown'; unit: string; error: FailureInfo }
  /** The request provably did nothing (the service refused the request itself): the unit is unsent again. */
  | { t: 'back'; unit: string }
  | { t: 'end'; state: 'done' | 'cancelled' | 'failed' };

export type ImportLine = JobLine | UnitLine;

const FILE = /^[A-Za-z0-9-]{1,100}\.jsonl$/;

export const importsDir = (editsDir: string): string => join(editsDir, 'imports');

interface Waiter {
  text: string;
  resolve: () => void;
  reject: (e: unknown) => void;
}

export class JobFile {
  private waiting: Waiter[] = [];
  private writing = false;
  private idle: (() => void)[] = [];
  /** A failed write: later lines are refused, so none is on disk without the lines before it. */
  private failed: unknown;

  private constructor(
    private readonly path: string,
    private readonly handle: FileHandle,
  ) {}

  /**
   * Creates the job's file with the job line waiting to be written with the first line appended (the first
   * batch's), in one sync: that line, on disk before its batch is sent, implies the job is.
   */
  static async create(dir: string, job: JobLine): Promise<JobFile> {
    await privateDir(dir);
    const path = join(dir, `${job.id}.jsonl`);
    const file = new JobFile(path, await open(path, 'wx', PRIVATE_FILE));
    file.waiting.push({
      text: JSON.stringify(job) + '\n',
      resolve: () => undefined,
      reject: () => undefined,
    });
    return file;
  }

  static async reopen(dir: string, id: string): Promise<JobFile> {
    const path = join(dir, `${id}.jsonl`);
    return new JobFile(path, await open(path, 'a', PRIVATE_FILE));
  }

  /**
   * Resolves once the line is on disk; lines keep their order. Group-committed: lines that arrive while a
   * write is under way go out together with one sync (the batches out at once each write a line).
   */
  append(line: ImportLine): Promise<void> {
    if (this.failed !== undefined) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => {
      this.waiting.push({ text: JSON.stringify(line) + '\n', resolve, reject });
      void this.drain();
    });
  }

  private async drain(): Promise<void> {
    if (this.writing) return;
    this.writing = true;
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting.splice(0);
        try {
          await this.handle.write(batch.map((w) => w.text).join(''));
          await this.handle.datasync();
          for (const w of batch) w.resolve();
        } catch (e) {
          this.failed = e;
          for (const w of [...batch, ...this.waiting.splice(0)]) w.reject(e);
        }
      }
    } finally {
      this.writing = false;
      for (const resolve of this.idle.splice(0)) resolve();
    }
  }

  async close(): Promise<void> {
    void this.drain();
    if (this.writing) await new Promise<void>((resolve) => this.idle.push(resolve));
    await this.handle.close();
  }

  async remove(): Promise<void> {
    await this.close();
    await rm(this.path, { force: true });
  }
}

/** Every job file in the folder, parsed; a torn last line (killed mid-append) was never acted on and is dropped. */
export async function readJobs(dir: string): Promise<{ job: JobLine; lines: UnitLine[] }[]> {
  const names = await readdir(dir).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return [];
    throw e;
  });
  const out: { job: JobLine; lines: UnitLine[] }[] = [];
  for (const name of names.filter((n) => FILE.test(n)).sort()) {
    const parsed: ImportLine[] = [];
    for (const raw of (await readFile(join(dir, name), 'utf8')).split('\n')) {
      if (raw.trim() === '') continue;
      try {
        const line = JSON.parse(raw) as ImportLine;
        if (typeof line === 'object' && line !== null && typeof line.t === 'string') parsed.push(line);
      } catch {
        continue;
      }
    }
    const [job, ...lines] = parsed;
    // A file whose job line never reached the disk held no request: nothing was sent for it.
    if (job?.t !== 'job' || `${job.id}.jsonl` !== name) {
      await rm(join(dir, name), { force: true });
      continue;
    }
    out.push({ job, lines: lines.filter((l): l is UnitLine => l.t !== 'job') });
  }
  return out;
}
