/**
 * `npm run fuzz -- [target...] [--seed N] [--runs N] [--minutes M] [--path P [--replay-path R]]`: the
 * model-based fuzzers.
 * Without a target, every one. Without --seed or --runs, rounds of random seeds go on for --minutes
 * (default 10); with either, one round. A failure prints the target, its seed and the shrunk history, with
 * the command that replays it, and exits 1.
 */
import { parseArgs } from 'node:util';
import type { FuzzTarget } from './target';

/** Each target in its own module, loaded only when run. */
const TARGETS: Record<string, () => Promise<{ target: FuzzTarget }>> = {
  hostile: () => import('./hostile/target'),
  queue: () => import('./queue/target'),
  remote: () => import('./remote/target'),
  sync: () => import('./sync/target'),
};

const DEFAULT_RUNS = 25;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

function whole(name: string, text: string | undefined, least: number): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < least)
    fail(`--${name} takes a whole number of at least ${least}, not "${text}".`);
  return n;
}

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        seed: { type: 'string' },
        runs: { type: 'string' },
        minutes: { type: 'string' },
        path: { type: 'string' },
        'replay-path': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
    });
  } catch (e) {
    fail(`${e instanceof Error ? e.message : String(e)}\n${usage()}`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(usage());
    return;
  }
  const unknown = positionals.filter((t) => !(t in TARGETS));
  if (unknown.length > 0) fail(`Unknown fuzz target(s): ${unknown.join(', ')}.\n${usage()}`);
  const names = positionals.length > 0 ? positionals : Object.keys(TARGETS);
  const seed = whole('seed', values.seed, -(2 ** 31));
  const runs = whole('runs', values.runs, 1) ?? DEFAULT_RUNS;
  const minutes = whole('minutes', values.minutes, 1);
  if (values.path !== undefined && seed === undefined) fail('--path replays a failure: give its --seed too.');
  const once = minutes === undefined && (seed !== undefined || values.runs !== undefined);
  const until = Date.now() + (minutes ?? 10) * 60_000;

  const targets = await Promise.all(names.map(async (n) => [n, (await TARGETS[n]!()).target] as const));
  let round = 0;
  do {
    round++;
    for (const [name, target] of targets) {
      const s = seed ?? (Math.random() * 2 ** 31) | 0;
      const started = Date.now();
      console.log(`fuzz ${name}: round ${round}, seed ${s}, ${runs} histories (${target.describe})`);
      try {
        await target.run({
          seed: s,
          runs,
          path: values.path,
          replayPath: values['replay-path'],
          log: (line) => console.log(`  ${line}`),
        });
      } catch (e) {
        console.error(`\nfuzz ${name} FAILED with seed ${s}\n${report(e)}`);
        const text = String(e instanceof Error ? e.message : e);
        const path = /path: "([^"]+)"/.exec(text)?.[1];
        const replay = /replayPath="([^"]+)"/.exec(text)?.[1];
        const how = path ? ` --path ${path}${replay ? ` --replay-path '${replay}'` : ''}` : ` --runs ${runs}`;
        console.error(`\nReplay: npm run fuzz -- ${name} --seed ${s}${how}`);
        process.exit(1);
      }
      console.log(`fuzz ${name}: round ${round} passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      if (!once && Date.now() >= until) break;
    }
  } while (!once && Date.now() < until);
  console.log('fuzz: nothing found');
  // Servers and sockets of the last round may keep the event loop alive a little longer.
  process.exit(0);
}

/** fast-check's report, with the failure it found (its cause) in full. */
function report(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const cause = e.cause instanceof Error ? `\n\nThe failure:\n${e.cause.stack ?? e.cause.message}` : '';
  return `${e.message}${cause}`;
}

function usage(): string {
  return [
    'Usage: npm run fuzz -- [target...] [--seed N] [--runs N] [--minutes M] [--path P [--replay-path R]]',
    `  targets: ${Object.keys(TARGETS).join(', ')} (default: all)`,
    '  --seed N     one round from this seed (replays a failure; with --path, exactly its history)',
    `  --runs N     histories per round (default ${DEFAULT_RUNS}); alone, one round with a random seed`,
    '  --minutes M  rounds of random seeds for M minutes (default 10)',
  ].join('\n');
}

await main();
