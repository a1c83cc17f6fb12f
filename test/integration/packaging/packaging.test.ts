/**
 * The packaging check: electron-builder runs on the project's own configuration (package.json and
 * electron-builder.json, the Linux targets: deb, AppImage, tar.gz) with stand-ins for what it downloads from
 * GitHub (stand-in/toolsets.ts: Electron's dist, fpm, the AppImage tools, 7-Zip), and what comes out is read
 * back with Debian's own tools: the deb's control fields, dependencies, files, maintainer scripts and .desktop
 * entry; the AppImage's runtime, launcher and contents; the tar.gz; the app.asar and what is unpacked beside
 * it; the update metadata. Native modules are not rebuilt (`npmRebuild` off: that needs Electron's headers
 * from the network), so node_modules keeps Node's build for the rest of the suite.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractFile, listPackage } from '@electron/asar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUSE_SENTINEL, STAND_IN_RUNTIME, standInToolsets } from './stand-in/toolsets';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string;
  productName: string;
  version: string;
  main: string;
  homepage: string;
  license: string;
  desktopName: string;
  author: { name: string; email: string };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const electronVersion = (
  JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8')) as { version: string }
).version;

/** Debian's tools, installed when root with apt-get; otherwise the check says what is missing. */
function toolsReady(): { ok: true } | { ok: false; message: string } {
  const result = spawnSync('sh', [fileURLToPath(new URL('./ensure-tools.sh', import.meta.url))], {
    encoding: 'utf8',
  });
  if (result.status === 0) return { ok: true };
  const message = result.stderr.trim() || `ensure-tools.sh ended with ${result.status}`;
  // CI has root and apt (and .ci/run installs the packages): there a missing tool fails the check.
  if (result.status !== 2 || process.env.CI) throw new Error(message);
  return { ok: false, message };
}
const tools = toolsReady();
if (!tools.ok) console.warn(`Packaging check skipped: ${tools.message}`);

const dir = mkdtempSync(join(tmpdir(), 'tabledesk-packaging-'));
const release = join(dir, 'release');
const deb = join(release, `${pkg.name}_${pkg.version}_amd64.deb`);
const appImage = join(release, `${pkg.productName}-${pkg.version}.AppImage`);
const tarball = join(release, `${pkg.name}-${pkg.version}.tar.gz`);
const installDir = `opt/${pkg.productName}`;

const run = (command: string, args: string[], cwd = dir): string =>
  execFileSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

/** A .desktop file's [Desktop Entry] keys. */
function desktopEntry(text: string): Record<string, string> {
  const entry: Record<string, string> = {};
  for (const line of text.split('\n').slice(1)) {
    if (line.startsWith('[')) break;
    const at = line.indexOf('=');
    if (at > 0) entry[line.slice(0, at)] = line.slice(at + 1);
  }
  return entry;
}

/** A control file's fields (continuation lines joined). */
function controlFields(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  let last = '';
  for (const line of text.split('\n')) {
    if (line.startsWith(' ') && last !== '') fields[last] += `\n${line.slice(1)}`;
    else if (line.includes(':')) {
      last = line.slice(0, line.indexOf(':'));
      fields[last] = line.slice(line.indexOf(':') + 1).trim();
    }
  }
  return fields;
}

let builderLog = '';
const debRoot = join(dir, 'deb');
const debControl = join(dir, 'deb-control');
const appImageRoot = join(dir, 'appimage');

beforeAll(() => {
  if (!tools.ok) return;
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'pipe' });
  const { electronDist, env } = standInToolsets(join(dir, 'toolsets'), root, electronVersion);
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  // electron-builder logs nothing but errors under Vitest (VITEST set); the check reads its log.
  for (const name of Object.keys(childEnv)) if (name.startsWith('VITEST')) delete childEnv[name];
  delete childEnv.NODE_OPTIONS;
  const builder = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules/electron-builder/cli.js'),
      '--linux',
      '--x64',
      '--publish',
      'never',
      `-c.electronDist=${electronDist}`,
      '-c.npmRebuild=false',
      `-c.directories.output=${release}`,
    ],
    { cwd: root, env: childEnv, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  builderLog = `${builder.stdout}\n${builder.stderr}`;
  if (builder.status !== 0) throw new Error(`electron-builder failed (${builder.status}):\n${builderLog}`);
  run('dpkg-deb', ['-x', deb, debRoot]);
  run('dpkg-deb', ['-e', deb, debControl]);
  const offset = String(Buffer.byteLength(STAND_IN_RUNTIME));
  run('unsquashfs', ['-o', offset, '-d', appImageRoot, '-no-progress', appImage]);
}, 600_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!tools.ok)('the Linux installers electron-builder makes from this project', () => {
  it('downloads nothing: every toolset came from the stand-ins', () => {
    expect(builderLog).toContain('using custom unpacked Electron distribution');
    expect(builderLog).toContain('resolved CUSTOM_FPM_PATH from environment variable');
    expect(builderLog).toContain('resolved APPIMAGE_TOOLS_PATH from environment variable');
    expect(builderLog).not.toMatch(/download/i);
    expect(readdirSync(release).sort()).toEqual(
      expect.arrayContaining([
        `${pkg.name}_${pkg.version}_amd64.deb`,
        `${pkg.productName}-${pkg.version}.AppImage`,
        `${pkg.name}-${pkg.version}.tar.gz`,
        'latest-linux.yml',
      ]),
    );
  });

  it("the deb's control: package.json's name, version, author and homepage, and Depends a minimal system needs", () => {
    const control = controlFields(run('dpkg-deb', ['-f', deb]));
    expect(control).toMatchObject({
      Package: pkg.name,
      Version: pkg.version,
      Architecture: 'amd64',
      Maintainer: `${pkg.author.name} <${pkg.author.email}>`,
      Homepage: pkg.homepage,
      License: pkg.license,
      Priority: 'optional',
    });
    expect(control.Section).not.toBe('default');
    expect(control.Description?.split('\n')[0]).toMatch(/^Spreadsheet-style client/);
    const depends = (control.Depends ?? '').split(', ');
    // What Electron's binary links to and a minimal Debian 12 lacks (electron-builder's defaults leave out
    // libasound2 and libgbm1); the t64 name beside each library Ubuntu 24.04 and Debian 13 renamed.
    for (const needed of [
      'libasound2 | libasound2t64',
      'libgbm1',
      'libnss3',
      'libgtk-3-0 | libgtk-3-0t64',
      'libatspi2.0-0 | libatspi2.0-0t64',
      'libcups2 | libcups2t64',
      'libdrm2',
      'libxkbcommon0',
      'libsecret-1-0',
      'xdg-utils',
    ])
      expect(depends, needed).toContain(needed);
  });

  it('the deb installs the app under /opt with its launcher entry, icon, AppArmor profile and sandbox set-up', () => {
    const files = run('dpkg-deb', ['-c', deb]);
    for (const path of [
      `./${installDir}/${pkg.name}`,
      `./${installDir}/chrome-sandbox`,
      `./${installDir}/resources/app.asar`,
      `./${installDir}/resources/apparmor-profile`,
      `./usr/share/applications/${pkg.name}.desktop`,
      `./usr/share/icons/hicolor/512x512/apps/${pkg.name}.png`,
    ])
      expect(files, path).toContain(path);
    expect(files.split('\n')[0]).toMatch(/^drwxr-xr-x root\/root .* \.\/$/);

    const desktop = readFileSync(join(debRoot, `usr/share/applications/${pkg.name}.desktop`), 'utf8');
    expect(desktopEntry(desktop)).toMatchObject({
      Name: pkg.productName,
      Exec: `/${installDir}/${pkg.name} %U`,
      Icon: pkg.name,
      Type: 'Application',
      Categories: 'Office;',
      // Electron 45 names its window after package.json's desktopName (GNOME matches it case-sensitively).
      StartupWMClass: pkg.desktopName.replace(/\.desktop$/, ''),
    });
    run('desktop-file-validate', [join(debRoot, `usr/share/applications/${pkg.name}.desktop`)]);

    // Ubuntu 24.04 restricts unprivileged user namespaces: the profile lets this binary have Chromium's sandbox.
    const profile = readFileSync(join(debRoot, installDir, 'resources/apparmor-profile'), 'utf8');
    expect(profile).toContain(`profile "${pkg.name}" "/${installDir}/${pkg.name}"`);
    expect(profile).toContain('userns,');
    const postinst = readFileSync(join(debControl, 'postinst'), 'utf8');
    expect(postinst).toContain(`/${installDir}/resources/apparmor-profile`);
    expect(postinst).toContain(`/etc/apparmor.d/${pkg.name}`);
    expect(postinst).toContain(`chmod 4755 '/${installDir}/chrome-sandbox'`);
    expect(statSync(join(debControl, 'postinst')).mode & 0o111).not.toBe(0);
  });

  it('the AppImage: the runtime, then a squashfs with a launcher that drops the sandbox only where it cannot work', () => {
    const head = readFileSync(appImage).subarray(0, Buffer.byteLength(STAND_IN_RUNTIME)).toString();
    expect(head).toBe(STAND_IN_RUNTIME);
    expect(statSync(appImage).mode & 0o111).not.toBe(0);
    for (const path of [
      'AppRun',
      `${pkg.name}`,
      'chrome-sandbox',
      'resources/app.asar',
      'resources/app-update.yml',
      `usr/share/icons/hicolor/512x512/apps/${pkg.name}.png`,
    ])
      expect(statSync(join(appImageRoot, path)).isFile(), path).toBe(true);
    const appRun = readFileSync(join(appImageRoot, 'AppRun'), 'utf8');
    expect(appRun).toContain('unshare -Ur true');
    expect(appRun).toContain('NO_SANDBOX=(--no-sandbox)');
    const entry = desktopEntry(readFileSync(join(appImageRoot, `${pkg.name}.desktop`), 'utf8'));
    // The static runtime needs no libfuse2 (Ubuntu 22.04 and later ship none), and its entry keeps the sandbox.
    expect(entry).toMatchObject({
      Exec: 'AppRun %U',
      StartupWMClass: pkg.desktopName.replace(/\.desktop$/, ''),
      'X-AppImage-Version': pkg.version,
    });
    run('desktop-file-validate', [join(appImageRoot, `${pkg.name}.desktop`)]);
  });

  it('the tar.gz holds the same app in one folder', () => {
    const listing = run('tar', ['-tzf', tarball]);
    const top = `${pkg.name}-${pkg.version}`;
    for (const path of [`${top}/${pkg.name}`, `${top}/resources/app.asar`, `${top}/chrome-sandbox`])
      expect(listing, path).toContain(path);
  });

  it('app.asar holds the built app and only production packages; native files are unpacked beside it', () => {
    const resources = join(debRoot, installDir, 'resources');
    const asar = join(resources, 'app.asar');
    const files = new Set(listPackage(asar, { isPack: false }).map((p) => p.slice(1)));
    const packaged = JSON.parse(extractFile(asar, 'package.json').toString()) as typeof pkg;
    expect(packaged).toMatchObject({ name: pkg.name, version: pkg.version, main: pkg.main });
    for (const path of [
      packaged.main,
      'out/main/embedded-worker.js',
      'out/preload/index.cjs',
      'out/renderer/index.html',
      'build/icon.png',
    ])
      expect(files, path).toContain(path);
    const packages = new Set(
      [...files]
        .map((p) => /^node_modules\/((?:@[^/]+\/)?[^/]+)$/.exec(p)?.[1])
        .filter((p): p is string => p !== undefined),
    );
    for (const name of Object.keys(pkg.dependencies)) expect(packages, name).toContain(name);
    for (const name of Object.keys(pkg.devDependencies)) expect(packages, name).not.toContain(name);
    for (const folder of ['services', 'electron', 'server', 'core', 'test', 'renderer/src'])
      expect(
        [...files].filter((p) => p.startsWith(`${folder}/`)),
        folder,
      ).toEqual([]);
    expect([...files].filter((p) => p.startsWith('node_modules/better-sqlite3/deps/'))).toEqual([]);

    const unpacked = join(resources, 'app.asar.unpacked/node_modules');
    expect(statSync(join(unpacked, 'better-sqlite3/build/Release/better_sqlite3.node')).size).toBeGreaterThan(
      0,
    );
    const sharpNative = readdirSync(join(unpacked, '@img/sharp-linux-x64/lib'));
    expect(sharpNative.some((f) => f.endsWith('.node'))).toBe(true);
    expect(
      readdirSync(join(unpacked, '@img/sharp-libvips-linux-x64/lib')).some((f) =>
        f.startsWith('libvips-cpp.so'),
      ),
    ).toBe(true);
  });

  it('flips the fuses a release needs in the packaged binary', () => {
    const binary = readFileSync(join(debRoot, installDir, pkg.name));
    const at = binary.indexOf(FUSE_SENTINEL) + FUSE_SENTINEL.length;
    const wire = binary.subarray(at + 2, at + 2 + binary[at + 1]!).toString();
    // runAsNode, NODE_OPTIONS, --inspect and file: privileges off; asar integrity and asar-only loading on.
    expect(wire).toBe('00001100');
  });

  it('carries the update feed: app-update.yml in the app, latest-linux.yml beside the installers', () => {
    const feed = readFileSync(join(debRoot, installDir, 'resources/app-update.yml'), 'utf8');
    expect(feed).toContain('provider: github');
    expect(readFileSync(join(debRoot, installDir, 'resources/package-type'), 'utf8').trim()).toBe('deb');
    const latest = readFileSync(join(release, 'latest-linux.yml'), 'utf8');
    expect(latest).toContain(`version: ${pkg.version}`);
    expect(latest).toContain(`url: ${pkg.productName}-${pkg.version}.AppImage`);
    expect(latest).toContain(`url: ${pkg.name}_${pkg.version}_amd64.deb`);
  });

  it("leaves node_modules' better-sqlite3 built for Node", () => {
    run(process.execPath, ['-e', "new (require('better-sqlite3'))(':memory:').close()"], root);
  });
});
