/**
 * `npm run dist [-- electron-builder options]`: electron-builder with `--publish never` unless a publish
 * policy is given (under CI=true it would otherwise publish on its own), then node_modules' better-sqlite3
 * given back to Node, whether electron-builder succeeded, failed or was interrupted: its `npmRebuild` builds
 * the module for Electron in place, and `npm start`'s demo server and `npm test` load it in Node. Exits with
 * electron-builder's status.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const root = new URL('..', import.meta.url);

function run(command: string, args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
    child.once('error', (error) => {
      console.error(`dist: ${command} could not run: ${error.message}`);
      resolve(1);
    });
    child.once('close', (code, signal) => resolve(code ?? (signal === null ? 1 : 128)));
  });
}

/** Whether Node can open a database with the better-sqlite3 now in node_modules. */
async function nodeBuildLoads(): Promise<boolean> {
  const probe = "new (require('better-sqlite3'))(':memory:').close()";
  return (await run(process.execPath, ['-e', probe])) === 0;
}

const args = process.argv.slice(2);
const publishGiven = args.some((a) => a === '--publish' || a === '-p' || a.startsWith('--publish='));
// Ctrl+C reaches electron-builder too (one process group); this process stays to restore the module.
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => undefined);

const built = await run(process.execPath, [
  require.resolve('electron-builder/cli.js'),
  ...(publishGiven ? [] : ['--publish', 'never']),
  ...args,
]);
let restored = true;
if (!(await nodeBuildLoads())) {
  console.log('dist: rebuilding better-sqlite3 for Node (electron-builder built it for Electron)');
  restored = (await run('npm', ['rebuild', 'better-sqlite3'])) === 0 && (await nodeBuildLoads());
  if (!restored)
    console.error('dist: better-sqlite3 could not be rebuilt for Node: run `npm rebuild better-sqlite3`');
}
process.exit(built !== 0 ? built : restored ? 0 : 1);
