/**
 * When a process started, as the OS tells it: with its pid, it names one process for good, where a pid alone
 * is handed to another program once its process ends (after a reboot, the same low pids come back at once).
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';

export interface ProcessStart {
  /** The same text for the same process every time it is asked, and different for any other. */
  id: string;
  /** About when it started (ms since the epoch), to compare with a file's time. */
  ms: number;
}

/** The start of process `pid`, or undefined when it is not running or the OS does not say. */
export async function processStart(pid: number): Promise<ProcessStart | undefined> {
  try {
    if (process.platform === 'linux') return await linuxStart(pid);
    if (process.platform === 'darwin' || process.platform.endsWith('bsd')) return await psStart(pid);
    if (process.platform === 'win32') return await windowsStart(pid);
  } catch {
    return undefined;
  }
  return undefined;
}

/** Linux's clock ticks per second (USER_HZ), 100 on every architecture Node runs on. */
const TICKS_PER_SECOND = 100;

async function linuxStart(pid: number): Promise<ProcessStart | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) is in parentheses and may hold spaces; field 22, starttime, counts from there.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[19]);
  if (!Number.isInteger(ticks)) return undefined;
  const [bootId, procStat] = await Promise.all([
    readFile('/proc/sys/kernel/random/boot_id', 'utf8'),
    readFile('/proc/stat', 'utf8'),
  ]);
  const btime = Number(/^btime (\d+)$/m.exec(procStat)?.[1]);
  return {
    id: `${bootId.trim()}:${ticks}`,
    ms: btime * 1000 + (ticks * 1000) / TICKS_PER_SECOND,
  };
}

const run = (file: string, args: string[]): Promise<string> =>
  new Promise((resolve, reject) =>
    execFile(file, args, { timeout: 5000, windowsHide: true }, (error, stdout) =>
      error ? reject(error) : resolve(stdout.trim()),
    ),
  );

async function psStart(pid: number): Promise<ProcessStart | undefined> {
  const text = await run('ps', ['-o', 'lstart=', '-p', String(pid)]);
  const ms = Date.parse(text);
  return text === '' || Number.isNaN(ms) ? undefined : { id: text, ms };
}

async function windowsStart(pid: number): Promise<ProcessStart | undefined> {
  const text = await run('powershell.exe', [
    '-NoProfile',
    '-NonInteractive',
    '-Command',
    `(Get-Process -Id ${pid}).StartTime.ToUniversalTime().ToString('o')`,
  ]);
  const ms = Date.parse(text);
  return text === '' || Number.isNaN(ms) ? undefined : { id: text, ms };
}
