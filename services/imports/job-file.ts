/**
 * The journal of one import job: `imports/<id>.jsonl` beside the edit journal (inside the folder its lock
 * guards, so only one TableDesk writes it). The first line is the job with all its typed rows, fsynced before
 * any request; then a line before each batch is sent and one with its outcome. Replaying the file tells, per
 * batch, whether it was answered, refused, or left in doubt (sent, no answer), so a run killed midway can
 * resume from the first batch never sent without sending a create twice.
 */
import { open, readdir, readFile, rename, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { editTargetSchema } from '../../core/contract/edits';
import { importModeSchema, importRowSchema } from '../../core/contract/imports';
import { channelErrorSchema } from '../../core/contract/schemas';
import { DAMAGED_FILE, diskFiles } from '../edits/journal';
import { readLines, setAside, writeAll, writeCopy } from '../edits/journal-lines';
import { PRIVATE_FILE, privateDir } from '../storage/private-files';

const unit = z.string().min(1).max(40);

const jobSchema = z.object({
  t: z.literal('job'),
  id: z.string().min(1).max(100),
  at: z.number(),
  target: editTargetSchema,
  mode: importModeSchema,
  mergeOn: z.array(z.string()),
  fields: z.array(z.string()),
  rows: z.array(importRowSchema),
});

/**
 * A unit is a batch (`"3"`: rows 30–39) or, once a batch was refused as a whole, one of its rows (`"3.4"`),
 * each sent alone so the report names the row the service refused and why.
 */
const unitSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('sent'), unit }),
  /** Ids in the order of the unit's rows; `created[i]` is set where row i made a new record. */
  z.object({ t: z.literal('ack'), unit, ids: z.array(z.string()), created: z.array(z.string()) }),
  z.object({ t: z.literal('refused'), unit, error: channelErrorSchema }),
  z.object({ t: z.literal('split'), unit }),
  z.object({ t: z.literal('unknown'), unit, error: channelErrorSchema }),
  /** The request provably did nothing (the service refused the request itself): the unit is unsent again. */
  z.object({ t: z.literal('back'), unit }),
  z.object({ t: z.literal('end'), state: z.enum(['done', 'cancelled', 'failed']) }),
]);

/** Every line a job file holds, checked when read back (a damaged one is set aside, as the edit journal's). */
const lineSchema = z.union([jobSchema, unitSchema]);

export type JobLine = z.output<typeof jobSchema>;
export type UnitLine = z.output<typeof unitSchema>;
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
          await writeAll(this.handle, batch.map((w) => w.text).join(''));
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

/**
 * Every job file in the folder, read line by line against its schema. A damaged line (a torn last one, killed
 * mid-append, or any that is not a line of a job file) is set aside beside the edit journal and reported
 * with its damage, never fatal; a line glued after a torn piece is read.
 */
export async function readJobs(dir: string): Promise<{ job: JobLine; lines: UnitLine[] }[]> {
  const names = await readdir(dir).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return [];
    throw e;
  });
  const out: { job: JobLine; lines: UnitLine[] }[] = [];
  for (const name of names.filter((n) => FILE.test(n)).sort()) {
    const path = join(dir, name);
    const { lines: parsed, damaged } = readLines(await readFile(path, 'utf8'), lineSchema);
    if (damaged.length > 0) await setAsideDamage(dir, name, parsed, damaged);
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

/**
 * Sets a job file's damaged lines aside, then rewrites the file as its whole lines (so the next line appended
 * starts a line of its own, and the damage is reported once). A disk that refuses either leaves the file as
 * it is: it is read the same way at the next start.
 */
async function setAsideDamage(
  dir: string,
  name: string,
  lines: ImportLine[],
  damaged: string[],
): Promise<void> {
  const path = join(dir, name);
  try {
    await setAside(diskFiles, join(dirname(dir), DAMAGED_FILE), `imports/${name}`, damaged);
    await rename(await writeCopy(diskFiles, path, lines.map((l) => JSON.stringify(l) + '\n').join('')), path);
  } catch {
    await rm(`${path}.tmp`, { force: true });
  }
}
