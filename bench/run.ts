/**
 * `npm run bench -- <group>...` runs groups (bench/groups/<group>.ts; without a name, all of them) RUNS times
 * each and writes each figure's median, min and max, with the commit measured, to bench/results/<group>.json.
 * `--runs N` changes the count; under MIN_RUNS (a quick check that a group works) nothing is written.
 * `--hosted-latency` adds the client and mirror groups' jobs at the hosted service's latency (BenchOptions).
 * `--help` prints the usage and the groups.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchFigure, BenchFile, BenchGroupModule, BenchResult } from './result';
import { summarize } from './stats';

const MIN_RUNS = 5;
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

/** The commit measured; dirty when the tree differs from it (results written by this run excepted). */
function commit(): { commit: string; dirty: boolean } {
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: join(here, '..'), encoding: 'utf8' }).trim();
  const changed = git('status', '--porcelain', '--', '.', ':(exclude)bench/results');
  return { commit: git('rev-parse', 'HEAD'), dirty: changed !== '' };
}

const fixed = (x: number): string => (Number.isInteger(x) ? String(x) : x.toFixed(3));

function print(group: string, figures: BenchFigure[]): void {
  console.log(`\n== ${group} (median of ${figures[0]?.runs ?? 0} runs [min – max])`);
  for (const f of figures) {
    const ratio = f.ratio === undefined ? '' : `  (ratio ${f.ratio.toFixed(3)})`;
    const range = f.runs > 1 ? `  [${fixed(f.min)} – ${fixed(f.max)}]` : '';
    console.log(`${f.name.padEnd(64)} ${fixed(f.value).padStart(14)} ${f.unit}${range}${ratio}`);
  }
}

const usage = (groups: string[]): string =>
  `Usage: npm run bench -- [group...] [--runs N] [--hosted-latency]\n` +
  `Groups (all without a name): ${groups.join(', ')}. Under ${MIN_RUNS} runs nothing is written.`;

function args(): ReturnType<typeof parse> | undefined {
  try {
    return parse();
  } catch (e) {
    // An unknown option: said in a line with the usage, not as a stack.
    console.error(e instanceof Error ? e.message : String(e));
    return undefined;
  }
}

const parse = () =>
  parseArgs({
    options: {
      runs: { type: 'string', default: String(MIN_RUNS) },
      'hosted-latency': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    allowPositionals: true,
  });

async function main(): Promise<void> {
  const parsed = args();
  if (parsed === undefined || parsed.values.help) {
    const text = usage(await listGroups());
    if (parsed === undefined) {
      console.error(text);
      process.exit(2);
    }
    console.log(text);
    return;
  }
  const { values, positionals } = parsed;
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) {
    console.error(`--runs takes a positive whole number, not "${values.runs}".`);
    process.exit(2);
  }
  const available = await listGroups();
  const unknown = positionals.filter((g) => !available.includes(g));
  if (unknown.length > 0) {
    console.error(`Unknown benchmark group(s): ${unknown.join(', ')}. Available: ${available.join(', ')}`);
    process.exit(2);
  }
  const options = { hostedLatency: values['hosted-latency'] };
  const measured = commit();
  console.log(
    `Measuring ${measured.commit}${measured.dirty ? ' with uncommitted changes' : ''}, ${runs} runs` +
      (options.hostedLatency ? ', with the hosted latency profile' : ''),
  );
  if (runs < MIN_RUNS) console.log(`Fewer than ${MIN_RUNS} runs: bench/results is left as it is.`);
  await mkdir(resultsDir, { recursive: true });
  for (const group of positionals.length > 0 ? positionals : available) {
    const mod = (await import(pathToFileURL(join(groupsDir, `${group}.ts`)).href)) as BenchGroupModule;
    const started = performance.now();
    await mod.prepare?.();
    const samples: BenchResult[][] = [];
    for (let i = 0; i < runs; i++) {
      samples.push(await mod.default(options));
      console.log(`${group}: run ${i + 1} of ${runs} done`);
    }
    const figures = summarize(samples);
    const seconds = (performance.now() - started) / 1000;
    print(group, figures);
    console.log(`${group}: ${seconds.toFixed(0)} s`);
    if (runs < MIN_RUNS) continue;
    const file: BenchFile = {
      group,
      ...measured,
      measuredAt: new Date().toISOString(),
      node: process.version,
      runs,
      ...options,
      seconds,
      figures,
    };
    await writeFile(join(resultsDir, `${group}.json`), JSON.stringify(file, null, 2) + '\n');
  }
}

await main();
