/**
 * A stand-in for fpm (electron-builder downloads fpm from GitHub, which this machine cannot reach; Debian has
 * no fpm package): the `-s dir -t deb` subset electron-builder's deb target calls (app-builder-lib's
 * FpmTarget), done as fpm does it, with Debian's dpkg-deb building the package. Every option electron-builder
 * passes becomes the control field fpm would write; an option this stand-in does not know is an error, so a
 * change in what electron-builder asks for is seen, not ignored. One difference: the data is compressed with
 * gzip at its fastest whatever `--deb-compression` asks (xz takes a minute on the build machine), since the
 * check reads the package and nobody installs it.
 *
 * Run as `CUSTOM_FPM_PATH`: node --import tsx fpm.ts ARGS (a wrapper script made by the packaging check).
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { copyFileSync, lstatSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

/** Options that take a value, by the control field (or script) each becomes. */
const VALUED = new Set([
  '-s',
  '-t',
  '-d',
  '--deb-recommends',
  '--deb-compression',
  '--architecture',
  '--after-install',
  '--after-remove',
  '--description',
  '--version',
  '--package',
  '--name',
  '--maintainer',
  '--vendor',
  '--url',
  '--category',
  '--deb-priority',
  '--license',
  '--iteration',
]);
const FLAGS = new Set(['--force']);

interface Parsed {
  values: Map<string, string[]>;
  mappings: { from: string; to: string }[];
}

function parse(args: string[]): Parsed {
  const values = new Map<string, string[]>();
  const mappings: Parsed['mappings'] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (FLAGS.has(arg)) continue;
    if (VALUED.has(arg)) {
      const value = args[++i];
      if (value === undefined) throw new Error(`fpm stand-in: ${arg} needs a value`);
      values.set(arg, [...(values.get(arg) ?? []), value]);
      continue;
    }
    if (arg.startsWith('-')) throw new Error(`fpm stand-in: unknown option ${arg}`);
    const at = arg.lastIndexOf('=');
    if (at <= 0) throw new Error(`fpm stand-in: a path mapping is SOURCE=TARGET, not ${arg}`);
    mappings.push({ from: arg.slice(0, at), to: arg.slice(at + 1) });
  }
  return { values, mappings };
}

const one = (p: Parsed, name: string): string | undefined => p.values.get(name)?.at(-1);
const required = (p: Parsed, name: string): string => {
  const value = one(p, name);
  if (value === undefined) throw new Error(`fpm stand-in: ${name} is required`);
  return value;
};

/** fpm's Description: the first line, then the rest indented one space, an empty line as " .". */
function description(text: string): string {
  const [first = '', ...rest] = text.split('\n');
  return [first.trim(), ...rest.map((line) => (line.trim() === '' ? ' .' : ` ${line.trim()}`))].join('\n');
}

function sizeKiB(dir: string): number {
  let bytes = 0;
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      const stat = lstatSync(path);
      if (stat.isDirectory()) walk(path);
      else bytes += stat.size;
    }
  };
  walk(dir);
  return Math.ceil(bytes / 1024);
}

function md5sums(root: string): string {
  const lines: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      const stat = lstatSync(path);
      if (stat.isDirectory()) {
        if (path !== join(root, 'DEBIAN')) walk(path);
      } else if (stat.isFile()) {
        lines.push(`${createHash('md5').update(readFileSync(path)).digest('hex')}  ${relative(root, path)}`);
      }
    }
  };
  walk(root);
  return lines.join('\n') + '\n';
}

function build(p: Parsed): void {
  if (required(p, '-s') !== 'dir' || required(p, '-t') !== 'deb')
    throw new Error('fpm stand-in: only -s dir -t deb is known');
  const staging = mkdtempSync(join(tmpdir(), 'fpm-stand-in-'));
  // The package's root: mkdtemp made it 0700, and "./" in a deb should read as an ordinary folder.
  chmodSync(staging, 0o755);
  try {
    for (const { from, to } of p.mappings) {
      const target = join(staging, to);
      if (statSync(from).isDirectory()) {
        mkdirSync(target, { recursive: true });
        // "dir/" maps the folder's contents, as fpm does; symlinks stay links (chrome-sandbox's neighbours).
        cpSync(from.endsWith('/') ? from : `${from}/`, target, { recursive: true, verbatimSymlinks: true });
      } else {
        mkdirSync(dirname(target), { recursive: true });
        copyFileSync(from, target);
      }
    }
    const control = join(staging, 'DEBIAN');
    mkdirSync(control, { mode: 0o755 });
    const version = required(p, '--version');
    const iteration = one(p, '--iteration');
    const depends = p.values.get('-d') ?? [];
    const recommends = p.values.get('--deb-recommends') ?? [];
    const fields: [string, string | undefined][] = [
      ['Package', required(p, '--name')],
      ['Version', iteration === undefined ? version : `${version}-${iteration}`],
      ['License', one(p, '--license')],
      ['Vendor', one(p, '--vendor')],
      ['Architecture', required(p, '--architecture')],
      ['Maintainer', required(p, '--maintainer')],
      ['Installed-Size', String(sizeKiB(staging))],
      ['Depends', depends.length > 0 ? depends.join(', ') : undefined],
      ['Recommends', recommends.length > 0 ? recommends.join(', ') : undefined],
      ['Section', one(p, '--category') ?? 'default'],
      ['Priority', one(p, '--deb-priority') ?? 'optional'],
      ['Homepage', one(p, '--url') ?? 'http://nourlgiven.example.com/'],
      ['Description', description(one(p, '--description') ?? 'no description given')],
    ];
    writeFileSync(
      join(control, 'control'),
      fields
        .filter((f): f is [string, string] => f[1] !== undefined)
        .map(([k, v]) => `${k}: ${v}`)
        .join('\n') + '\n',
    );
    for (const [option, script] of [
      ['--after-install', 'postinst'],
      ['--after-remove', 'postrm'],
    ] as const) {
      const source = one(p, option);
      if (source === undefined) continue;
      copyFileSync(source, join(control, script));
      chmodSync(join(control, script), 0o755);
    }
    writeFileSync(join(control, 'md5sums'), md5sums(staging));
    const compression = one(p, '--deb-compression') ?? 'gz';
    if (!['xz', 'gz', 'bzip2', 'zstd', 'none'].includes(compression))
      throw new Error(`fpm stand-in: unknown --deb-compression ${compression}`);
    execFileSync(
      'dpkg-deb',
      ['--root-owner-group', '-Zgzip', '-z1', '--build', staging, required(p, '--package')],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

try {
  build(parse(process.argv.slice(2)));
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
