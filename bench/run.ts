/**
 * `npm run bench -- <group>` runs one group (bench/groups/<group>.ts); without an argument, all of them.
 * Each group prints its figures and writes them to bench/results/<group>.json.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchGroup, BenchResult } from './result';

const here = dirname(fileURLToPath(import.meta.url));
const groupsDir = join(here, 'groups');
const resultsDir = join(here, 'results');

async function listGroups(): Promise<string[]> {
  const files = await readdir(groupsDir);
  return files
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.slice(0, -3))
    .sort();
}

function print(group: string, results: BenchResult[]): void {
  console.log(`\n== ${group}`);
  for (const r of results) {
    const value = Number.isInteger(r.value) ? String(r.value) : r.value.toFixed(3);
    const ratio = r.ratio === undefined ? '' : `  (ratio ${r.ratio.toFixed(3)})`;
    console.log(`${r.name.padEnd(64)} ${value.padStart(14)} ${r.unit}${ratio}`);
  }
}

async function main(): Promise<void> {
  const available = await listGroups();
  const asked = process.argv.slice(2);
  const unknown = asked.filter((g) => !available.includes(g));
  if (unknown.length > 0) {
    console.error(`Unknown benchmark group(s): ${unknown.join(', ')}. Available: ${available.join(', ')}`);
    process.exit(2);
  }
  await mkdir(resultsDir, { recursive: true });
  for (const group of asked.length > 0 ? asked : available) {
    const mod = (await import(pathToFileURL(join(groupsDir, `${group}.ts`)).href)) as { default: BenchGroup };
    const results = await mod.default();
    print(group, results);
    await writeFile(join(resultsDir, `${group}.json`), JSON.stringify(results, null, 2) + '\n');
  }
}

await main();
