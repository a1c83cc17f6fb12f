/**
 * `npm start`, after the build: opens the Electron app. Where the Electron binary is missing (a machine that
 * could not download it), says so in one line and opens the browser door instead.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The binary electron's own launcher would run, found without letting it try a download. */
function electronBinary(): string | undefined {
  const pkgDir = dirname(join(root, 'node_modules/electron/package.json'));
  const pathFile = join(pkgDir, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const binary = join(override ?? join(pkgDir, 'dist'), readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : undefined;
}

const binary = electronBinary();
if (binary === undefined) {
  console.log(
    'Electron is not installed on this machine (its binary could not be downloaded): opening the browser door instead.',
  );
  await import('./main');
} else {
  const child = spawn(binary, [root], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
}
