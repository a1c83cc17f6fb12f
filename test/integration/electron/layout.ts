/**
 * The installed app's file layout, rebuilt from `npm run build:electron` for the bundle check: package.json,
 * out/main and out/preload, and node_modules holding only the production dependencies (what electron-builder
 * ships) plus the stand-in as the `electron` package. The main bundle is then run by plain Node, with its
 * own ES module loader, from a child process the test drives over the process channel.
 */
import { execFileSync, fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import type { Command } from './stand-in/remote';

export const root = fileURLToPath(new URL('../../..', import.meta.url));
const standInDir = fileURLToPath(new URL('./stand-in', import.meta.url));

export function buildElectron(): void {
  execFileSync('npm', ['run', 'build:electron'], { cwd: root, stdio: 'pipe' });
}

/** The folders npm counts as production dependencies, the set electron-builder packs. */
export function productionPackages(): string[] {
  const out = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], {
    cwd: root,
    encoding: 'utf8',
  });
  const top = join(root, 'node_modules');
  return out
    .split('\n')
    .filter((dir) => dir.startsWith(top))
    .map((dir) => relative(top, dir))
    .filter((name) => !name.includes('node_modules'));
}

function transpile(name: string): string {
  return ts.transpileModule(readFileSync(join(standInDir, `${name}.ts`), 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
}

/** Lays the app out in `dir` (the packaged app.asar's content) and returns the entry the child runs. */
export function layOut(dir: string): string {
  for (const path of ['package.json', 'out/main', 'out/preload', 'build/icon.png'])
    cpSync(join(root, path), join(dir, path), { recursive: true });
  // The renderer has its own build; main only needs a file to serve.
  mkdirSync(join(dir, 'out/renderer'), { recursive: true });
  writeFileSync(join(dir, 'out/renderer/index.html'), '<!doctype html><div id="root"></div>');
  for (const name of productionPackages())
    cpSync(join(root, 'node_modules', name), join(dir, 'node_modules', name), { recursive: true });
  const electron = join(dir, 'node_modules/electron');
  mkdirSync(electron, { recursive: true });
  writeFileSync(
    join(electron, 'package.json'),
    JSON.stringify({ name: 'electron', type: 'module', main: 'electron.js' }),
  );
  writeFileSync(join(electron, 'electron.js'), transpile('electron'));
  writeFileSync(join(electron, 'remote.js'), transpile('remote'));
  const entry = join(dir, 'start.mjs');
  writeFileSync(
    entry,
    "import { serve } from 'electron/remote.js';\nawait serve(new URL('./out/main/index.js', import.meta.url).href);\n",
  );
  return entry;
}

export interface RunningMain {
  child: ChildProcess;
  stderr: () => string;
  send<T = unknown>(command: Command): Promise<T>;
  stop(): Promise<void>;
}

/** Starts the laid-out app; resolves once the bundle has loaded and the app is ready. */
/** `platform`: the one the app is told it runs on. */
/**
 * `extraEnv`: more of the process's environment (STAND_IN_SWITCHES: Chromium's switches, comma-separated;
 * STAND_IN_CHECK_BOXES=1: the user ticks every dialog's checkbox).
 */
export function runMain(
  entry: string,
  userData: string,
  platform = process.platform,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<RunningMain> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    STAND_IN_APP_PATH: join(entry, '..'),
    STAND_IN_USER_DATA: userData,
    STAND_IN_PLATFORM: platform,
    ...extraEnv,
  };
  delete env.NODE_OPTIONS;
  // No loader of the test runner's: the bundle meets Node's ES module loader alone.
  const child = fork(entry, [], {
    cwd: join(entry, '..'),
    env,
    execArgv: [],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdout?.resume();
  let nextId = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      for (const waiter of pending.values())
        waiter.reject(new Error(`the main bundle stopped (${signal ?? code}):\n${stderr}`));
      resolve();
    }),
  );
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the main bundle stopped (${code}):\n${stderr}`)));
    child.on('message', (message: { loaded?: true; id?: number; result?: unknown; error?: string }) => {
      if (message.loaded) {
        resolve({
          child,
          stderr: () => stderr,
          send: <T>(command: Command) =>
            new Promise<T>((res, rej) => {
              const id = nextId++;
              pending.set(id, { resolve: res as (v: unknown) => void, reject: rej });
              child.send({ ...command, id });
            }),
          async stop() {
            child.kill('SIGTERM');
            await exited;
          },
        });
        return;
      }
      const waiter = pending.get(message.id ?? 0);
      pending.delete(message.id ?? 0);
      if (message.error !== undefined) waiter?.reject(new Error(message.error));
      else waiter?.resolve(message.result);
    });
  });
}
