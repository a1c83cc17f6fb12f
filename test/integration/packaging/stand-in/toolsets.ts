/**
 * What electron-builder would download from GitHub, made from what this machine has: Electron's Linux dist
 * (a stand-in binary that carries Electron's fuse wire, so electron-builder's fuse flipping runs on it as on
 * the real one), the AppImage toolset (Debian's mksquashfs and desktop-file-validate, a stand-in runtime), fpm
 * (stand-in/fpm.ts over dpkg-deb) and 7-Zip (Debian's). The environment returned points electron-builder at
 * them, and every download it might still try at a closed port, so a download fails at once instead of
 * passing unseen.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Electron's fuse wire marker (@electron/fuses), then wire version 1 and its length. */
export const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
/**
 * Electron 45's fuses as it ships them, in @electron/fuses' order: runAsNode, cookie encryption, NODE_OPTIONS,
 * --inspect, asar integrity, only load app from asar, browser V8 snapshot, file: extra privileges.
 */
const SHIPPED_WIRE = '10110001';

export const STAND_IN_RUNTIME =
  '#!/bin/sh\necho "the AppImage runtime stand-in of the packaging check" >&2\nexit 1\n';

const which = (name: string): string | undefined => {
  try {
    return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
};

function tool(...names: string[]): string {
  for (const name of names) {
    const path = which(name);
    if (path !== undefined) return path;
  }
  throw new Error(`none of ${names.join(', ')} is on PATH (test/integration/packaging/ensure-tools.sh)`);
}

/** An unpacked Electron for Linux x64 as electron-builder expects it (`electronDist`). */
function electronDist(dir: string, version: string): void {
  mkdirSync(join(dir, 'resources'), { recursive: true });
  mkdirSync(join(dir, 'locales'));
  const binary = Buffer.concat([
    Buffer.from(`#!/bin/sh\necho "Electron ${version} stand-in: $0 $*"\nexit 0\n# `),
    Buffer.from(FUSE_SENTINEL),
    Buffer.from([1, SHIPPED_WIRE.length]),
    Buffer.from(SHIPPED_WIRE),
    Buffer.from('\n'),
  ]);
  writeFileSync(join(dir, 'electron'), binary, { mode: 0o755 });
  writeFileSync(join(dir, 'chrome-sandbox'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  writeFileSync(join(dir, 'chrome_crashpad_handler'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  writeFileSync(join(dir, 'libffmpeg.so'), 'stand-in');
  writeFileSync(join(dir, 'resources.pak'), 'stand-in');
  writeFileSync(join(dir, 'locales/en-US.pak'), 'stand-in');
  writeFileSync(join(dir, 'version'), version);
  writeFileSync(join(dir, 'LICENSE'), 'Electron stand-in license');
  writeFileSync(join(dir, 'LICENSES.chromium.html'), '<p>Chromium stand-in licenses</p>');
}

/** APPIMAGE_TOOLS_PATH for toolset 1.0.x (static runtime): tools at the root, runtimes/, lib/<arch>/. */
function appImageTools(dir: string): void {
  mkdirSync(join(dir, 'runtimes'), { recursive: true });
  mkdirSync(join(dir, 'lib/x64'), { recursive: true });
  // At zstd's fastest: its default level takes 20 s here, and the check reads the image, nobody runs it.
  writeFileSync(
    join(dir, 'mksquashfs'),
    `#!/bin/sh\nexec '${tool('mksquashfs')}' "$@" -Xcompression-level 1\n`,
    {
      mode: 0o755,
    },
  );
  symlinkSync(tool('desktop-file-validate'), join(dir, 'desktop-file-validate'));
  writeFileSync(join(dir, 'runtimes/runtime-x64'), STAND_IN_RUNTIME, { mode: 0o755 });
}

/** CUSTOM_FPM_PATH: a script running stand-in/fpm.ts with tsx's loader. */
function fpm(dir: string, root: string): string {
  const tsx = pathToFileURL(createRequire(join(root, 'package.json')).resolve('tsx')).href;
  const script = fileURLToPath(new URL('./fpm.ts', import.meta.url));
  const path = join(dir, 'fpm');
  writeFileSync(path, `#!/bin/sh\nexec '${process.execPath}' --import '${tsx}' '${script}' "$@"\n`);
  chmodSync(path, 0o755);
  return path;
}

/** Lays the stand-ins out in `dir`; returns electronDist and the environment for electron-builder. */
export function standInToolsets(
  dir: string,
  root: string,
  electronVersion: string,
): { electronDist: string; env: NodeJS.ProcessEnv } {
  const dist = join(dir, 'electron-dist');
  electronDist(dist, electronVersion);
  appImageTools(join(dir, 'appimage-tools'));
  const closed = 'http://127.0.0.1:9/';
  return {
    electronDist: dist,
    env: {
      CUSTOM_FPM_PATH: fpm(dir, root),
      APPIMAGE_TOOLS_PATH: join(dir, 'appimage-tools'),
      ELECTRON_BUILDER_7ZIP_PATH: tool('7za', '7zz'),
      // The tar.gz at 7-Zip's fastest (its level 9 takes 90 s here): the check reads it, nobody downloads it.
      ELECTRON_BUILDER_COMPRESSION_LEVEL: '1',
      ELECTRON_BUILDER_CACHE: join(dir, 'cache'),
      ELECTRON_CACHE: join(dir, 'cache'),
      ELECTRON_MIRROR: closed,
      ELECTRON_BUILDER_BINARIES_MIRROR: closed,
      NPM_CONFIG_ELECTRON_BUILDER_BINARIES_MIRROR: closed,
      HTTP_PROXY: closed,
      HTTPS_PROXY: closed,
      http_proxy: closed,
      https_proxy: closed,
      NO_PROXY: '',
      no_proxy: '',
    },
  };
}
