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

export class JobFile {
  private chain: Promise<void> = Promise.resolve();

  private constructor(
    private readonly path: string,
    private readonly handle: FileHandle,
  ) {}

  /** Creates the job's file with its first line on disk. */
  static async create(dir: string, job: JobLine): Promise<JobFile> {
    await privateDir(dir);
    const path = join(dir, `${job.id}.jsonl`);
    const handle = await open(path, 'wx', PRIVATE_FILE);
    const file = new JobFile(path, handle);
    await file.append(job);
    return file;
  }

  static async reopen(dir: string, id: string): Promise<JobFile> {
    const path = join(dir, `${id}.jsonl`);
    return new JobFile(path, await open(path, 'a', PRIVATE_FILE));
  }

  /** Resolves once the line is on disk; lines keep their order. */
  append(line: ImportLine): Promise<void> {
    const text = JSON.stringify(line) + '\n';
    const next = this.chain.then(async () => {
      await this.handle.write(text);
      await this.handle.datasync();
    });
    this.chain = next.catch(() => undefined);
    return next;
  }

  async close(): Promise<void> {
    await this.chain;
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
