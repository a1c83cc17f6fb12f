import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEditServices, journalDir } from '../../../services/edits';
import { diskFiles, Journal } from '../../../services/edits/journal';
import type { JournalFiles } from '../../../services/edits/ports';
import { startHarness } from './harness';
import { JOURNAL_TARGET, journalEdit } from './journal-edit';
import type { Harness } from './harness';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The disk, except that the journal file's syncs wait while `hold()` is on; `log` tells what happened when. */
class HeldSyncs {
  readonly log: string[] = [];
  private gate: Promise<void> | undefined;
  private open: () => void = () => undefined;
  private requested: () => void = () => undefined;
  /** Resolves when the journal asks for a sync while held. */
  readonly syncRequested = new Promise<void>((resolve) => (this.requested = resolve));

  readonly files: JournalFiles = {
    ...diskFiles,
    open: async (path, flags, mode) => {
      const handle = await diskFiles.open(path, flags, mode);
      if (!path.endsWith('journal.jsonl')) return handle;
      return {
        ...handle,
        write: (text) => {
          this.log.push('write');
          return handle.write(text);
        },
        truncate: (length) => handle.truncate(length),
        sync: () => handle.sync(),
        close: () => handle.close(),
        datasync: async () => {
          if (this.gate !== undefined) {
            this.log.push('sync held');
            this.requested();
            await this.gate;
          }
          await handle.datasync();
          this.log.push('synced');
        },
      };
    },
  };

  hold(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }

  release(): void {
    this.gate = undefined;
    this.open();
  }
}

let h: Harness | undefined;
let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  await h?.close();
  h = undefined;
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

describe('the edit journal on disk', () => {
  it('reports an edit saved, and sends it, only once its line is fsynced', async () => {
    const disk = new HeldSyncs();
    h = await startHarness({ journalFiles: disk.files });
    const [rec] = (await h.reader('Tasks').listPage({ pageSize: 1 })).records;
    disk.hold();
    const saved = h
      .call('edits.edit', {
        target: h.target('Tasks'),
        changes: [{ recordId: rec!.id, fields: { Name: 'held' } }],
        undoable: false,
      })
      .then(() => disk.log.push('reported saved'));
    await Promise.race([disk.syncRequested, saved]);
    await sleep(300);
    expect(disk.log).toEqual(['write', 'sync held']);
    expect(h.patches()).toEqual([]);
    disk.release();
    await saved;
    expect(disk.log.slice(0, 4)).toEqual(['write', 'sync held', 'synced', 'reported saved']);
    await h.parts.queue.whenIdle();
    expect((await h.snapshot('Tasks')).get(rec!.id)?.fields.Name).toBe('held');
  });

  it('is left empty, and unlocked, by a clean quit', async () => {
    h = await startHarness();
    const records = (await h.reader('Tasks').listPage({ pageSize: 3 })).records;
    await h.parts.queue.edit(
      h.target('Tasks'),
      records.map((r, i) => ({ recordId: r.id, fields: { Name: `quit ${i}` } })),
    );
    await h.parts.queue.whenIdle();
    const dir = journalDir(h.userDataDir);
    // The session wrote its edits and their acknowledgements.
    expect(await readFile(join(dir, 'journal.jsonl'), 'utf8')).toContain('"t":"ack"');
    await h.services.close();
    expect(await readFile(join(dir, 'journal.jsonl'), 'utf8')).toBe('');
    expect(existsSync(join(dir, 'journal.lock'))).toBe(false);
  });
});

const child = join(import.meta.dirname, 'fixtures', 'browser-app-child.ts');

/** The browser door's app in another Node process; resolves with its first line of output. */
function openInChild(userDataDir: string, rendererDir: string) {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', child, JSON.stringify({ userDataDir, rendererDir })],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  cleanup.push(async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGKILL');
      await new Promise((resolve) => proc.once('exit', resolve));
    }
  });
  let err = '';
  proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const line = new Promise<string>((resolve, reject) => {
    let out = '';
    proc.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
    });
    proc.on('exit', (code) => reject(new Error(`child exited (${code}) without a line: ${err}`)));
  });
  return { proc, line };
}

describe('one process per data folder', () => {
  async function folders() {
    const userDataDir = await mkdtemp(join(tmpdir(), 'tabledesk-lock-'));
    const rendererDir = await mkdtemp(join(tmpdir(), 'tabledesk-renderer-'));
    await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>TableDesk</title>');
    cleanup.push(async () => {
      await rm(userDataDir, { recursive: true, force: true });
      await rm(rendererDir, { recursive: true, force: true });
    });
    return { userDataDir, rendererDir };
  }

  it('refuses a second process, with a message naming the first, while the first runs', async () => {
    const { userDataDir, rendererDir } = await folders();
    const first = createEditServices({
      userDataDir,
      tableFor: () => {
        throw new Error('not used');
      },
      emit: () => undefined,
    });
    cleanup.push(() => first.close());
    await first.ready;
    const second = openInChild(userDataDir, rendererDir);
    expect(await second.line).toBe(
      `REFUSED Another TableDesk process (pid ${process.pid}) is using the edit journal in ` +
        `${journalDir(userDataDir)}. Close it, then start again.`,
    );
    await new Promise((resolve) => second.proc.once('exit', resolve));
    expect(second.proc.exitCode).toBe(1);
  });

  it('is refused while another process holds the folder, and takes it over once that process is killed', async () => {
    const { userDataDir, rendererDir } = await folders();
    const other = openInChild(userDataDir, rendererDir);
    expect(await other.line).toBe('OPEN');
    const options = {
      userDataDir,
      tableFor: () => {
        throw new Error('not used');
      },
      emit: () => undefined,
    };
    const refused = createEditServices(options);
    await expect(refused.ready).rejects.toThrow(`Another TableDesk process (pid ${other.proc.pid})`);
    other.proc.kill('SIGKILL');
    await new Promise((resolve) => other.proc.once('exit', resolve));
    const after = createEditServices(options);
    cleanup.push(() => after.close());
    await expect(after.ready).resolves.toBeDefined();
  });
});

describe('replaying the journal', () => {
  it('owes no edit older than an acknowledged one of the same cell, and every other edit still', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'td-journal-replay-'));
    const target = JOURNAL_TARGET;
    const edit = journalEdit;
    // The ack of "old" never reached the disk; the service holds "new", which a replay must not undo.
    const lines = [
      edit('old', 'rec1', { Name: 'old' }),
      edit('points', 'rec1', { Points: 3 }),
      edit('other', 'rec2', { Name: 'other record' }),
      { ...edit('elsewhere', 'rec1', { Name: 'other table' }), target: { ...target, table: 'People' } },
      edit('new', 'rec1', { Name: 'new' }),
      edit('newest', 'rec1', { Name: 'newest' }),
      { t: 'ack', refs: [['new', 'Name']] },
    ];
    await writeFile(join(dir, 'journal.jsonl'), lines.map((l) => JSON.stringify(l) + '\n').join(''));
    const journal = await Journal.open(dir);
    try {
      expect(journal.liveEdits().map((e) => e.line.id)).toEqual(['points', 'other', 'elsewhere', 'newest']);
    } finally {
      await journal.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
