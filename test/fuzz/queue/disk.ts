/**
 * The journal's disk as the fuzzer gives it to each app process: the real files, except that the disk can be
 * filling up (a write takes what room is left, then ENOSPC, as write(2) does), writes can be cut short at
 * random, and a killed process's open files refuse everything (its writes never land after it died).
 */
import { diskFiles } from '../../../services/edits/journal';
import type { JournalFiles, JournalHandle } from '../../../services/edits/ports';

const fail = (code: string, message: string) => Object.assign(new Error(message), { code });

export type Fault = 'write' | 'datasync' | 'truncate' | 'rename' | 'dirSync';

export class FuzzDisk {
  /** Bytes the disk takes before it is full (Infinity: room enough). */
  room = Infinity;
  /** When above 0, a write takes at most this many bytes (the journal must go on from where it stopped). */
  shortWrites = 0;
  /** Writes refused for lack of room, and writes cut short: the fuzzer says whether the disk was tried. */
  refused = 0;
  short = 0;
  /**
   * Operations that throw the given code until taken out (a disk failing in one way): a file's writes, syncs
   * and truncation, a folder's sync (`dirSync`), a rename.
   */
  readonly faults = new Map<Fault, string>();
  private epoch = 0;
  /** Files the running process has open: the OS closes them when it dies. */
  private open = new Set<JournalHandle>();

  /** Every file of the processes started before now refuses what it is asked from here on, and is closed. */
  kill(): void {
    this.epoch++;
    for (const handle of this.open) void handle.close().catch(() => undefined);
    this.open.clear();
  }

  /** The file system of one process (started now). */
  files(): JournalFiles {
    const epoch = this.epoch;
    const alive = () => {
      if (this.epoch !== epoch) throw fail('EBADF', 'the process was killed');
    };
    const fault = (op: Fault) => {
      const code = this.faults.get(op);
      if (code !== undefined) throw fail(code, `${code}: the disk failed, ${op}`);
    };
    const wrap = (handle: JournalHandle, dir: boolean): JournalHandle => {
      this.open.add(handle);
      return {
        write: async (data) => {
          alive();
          fault('write');
          let n = Math.min(data.length, this.room);
          if (this.shortWrites > 0 && n > this.shortWrites) {
            n = this.shortWrites;
            this.short++;
          }
          if (n <= 0 && data.length > 0) {
            this.refused++;
            throw fail('ENOSPC', 'ENOSPC: no space left on device, write');
          }
          const out = await handle.write(data.subarray(0, n));
          this.room -= out.bytesWritten;
          return out;
        },
        datasync: async () => {
          alive();
          fault('datasync');
          await handle.datasync();
        },
        sync: async () => {
          alive();
          if (dir) fault('dirSync');
          await handle.sync();
        },
        truncate: async (length) => {
          alive();
          fault('truncate');
          await handle.truncate(length);
        },
        close: async () => {
          this.open.delete(handle);
          await handle.close();
        },
      };
    };
    return {
      mkdir: async (path) => {
        alive();
        await diskFiles.mkdir(path);
      },
      open: async (path, flags, mode) => {
        alive();
        return wrap(await diskFiles.open(path, flags, mode), flags === 'r');
      },
      lines: (path, maxLineBytes) => {
        alive();
        return diskFiles.lines(path, maxLineBytes);
      },
      rename: async (from, to) => {
        alive();
        fault('rename');
        await diskFiles.rename(from, to);
      },
      remove: async (path) => {
        alive();
        await diskFiles.remove(path);
      },
      size: async (path) => {
        alive();
        return diskFiles.size(path);
      },
    };
  }
}
