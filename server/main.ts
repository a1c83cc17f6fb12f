/**
 * `npm run server -- [--port 8787] [--host 127.0.0.1] [--public-url URL] [--api-key-file FILE] [--data DIR | --memory] [--demo]
 * [--rate-limit 5|off] [--token-rate-limit 50|off] [--penalty-ms 30000] [--extensions on|off] [--monthly-calls N|off] [--ready-json]`: the local Record Table Service on its own. The
 * key comes from the file or from TABLEDESK_API_KEY; without one a key is generated and printed once. `--api-key KEY` is refused: a
 * command line is readable by every user of the machine (`ps`). `--ready-json` is for a parent process (the
 * app's development run): one JSON line `{url, bases}` when listening, and a stop when stdin closes.
 * `--public-url` is the origin clients reach the server at (a reverse proxy in front of it), named in file URLs.
 */
import envPaths from 'env-paths';
import { readFileSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startServer } from './index';
import { publicOrigin } from './public-origin';

/** Ten minutes: a longer pause of every request to a base is no rate limit a client could wait out. */
const MAX_PENALTY_MS = 600_000;

function fail(message: string): never {
  console.error(`tabledesk server: ${message}`);
  process.exit(2);
}

function readArgs() {
  try {
    return parseArgs({
      options: {
        port: { type: 'string', default: '8787' },
        host: { type: 'string', default: '127.0.0.1' },
        'public-url': { type: 'string' },
        'api-key': { type: 'string' },
        'api-key-file': { type: 'string' },
        data: { type: 'string' },
        memory: { type: 'boolean', default: false },
        demo: { type: 'boolean', default: false },
        'rate-limit': { type: 'string', default: '5' },
        'token-rate-limit': { type: 'string' },
        extensions: { type: 'string', default: 'on' },
        'monthly-calls': { type: 'string', default: 'off' },
        'penalty-ms': { type: 'string', default: '30000' },
        'ready-json': { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
      strict: true,
    });
  } catch (err) {
    return fail(`${(err as Error).message}. Try --help.`);
  }
}

const { values } = readArgs();

if (values.help) {
  console.log(
    'Usage: npm run server -- [--port N] [--host H] [--public-url URL] [--api-key-file FILE] [--data DIR | --memory] [--demo] [--rate-limit N|off] [--token-rate-limit N|off] [--penalty-ms N] [--extensions on|off] [--monthly-calls N|off] [--ready-json]\nThe key may also come from TABLEDESK_API_KEY.',
  );
  process.exit(0);
}

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535)
  fail(`--port must be a port number, not ${JSON.stringify(values.port)}`);
const rateText = values['rate-limit'];
const rateLimit = rateText === 'off' ? 'off' : Number(rateText);
if (rateLimit !== 'off' && (!Number.isInteger(rateLimit) || rateLimit < 1))
  fail(`--rate-limit must be a positive integer or off, not ${JSON.stringify(rateText)}`);
const tokenText = values['token-rate-limit'];
const tokenRateLimit = tokenText === undefined || tokenText === 'off' ? tokenText : Number(tokenText);
if (typeof tokenRateLimit === 'number' && (!Number.isInteger(tokenRateLimit) || tokenRateLimit < 1))
  fail(`--token-rate-limit must be a positive integer or off, not ${JSON.stringify(tokenText)}`);
if (values.extensions !== 'on' && values.extensions !== 'off')
  fail(`--extensions must be on or off, not ${JSON.stringify(values.extensions)}`);
const callsText = values['monthly-calls'];
const monthlyCalls = callsText === 'off' ? 'off' : Number(callsText);
if (monthlyCalls !== 'off' && (!Number.isInteger(monthlyCalls) || monthlyCalls < 0))
  fail(`--monthly-calls must be a whole number or off, not ${JSON.stringify(callsText)}`);
const penaltyMs = Number(values['penalty-ms']);
if (!Number.isInteger(penaltyMs) || penaltyMs < 0 || penaltyMs > MAX_PENALTY_MS)
  fail(
    `--penalty-ms must be a whole number of milliseconds up to ${MAX_PENALTY_MS}, not ${JSON.stringify(values['penalty-ms'])}`,
  );
const publicUrl = values['public-url'];
let namedOrigin: string | undefined;
try {
  namedOrigin = publicUrl === undefined ? undefined : publicOrigin(publicUrl);
} catch (err) {
  fail(`--public-url: ${(err as Error).message}`);
}
if (values['api-key'] !== undefined)
  fail(
    '--api-key is refused: a key on the command line can be read by every user of this machine (ps). Put it in TABLEDESK_API_KEY or in a file named by --api-key-file.',
  );

/** The key in a file (its first line); a file other users may read is accepted with a warning. */
function keyFromFile(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
    if ((statSync(path).mode & 0o077) !== 0 && process.platform !== 'win32')
      console.error(`tabledesk server: warning: ${path} can be read by other users; chmod 600 it.`);
  } catch (err) {
    return fail(`cannot read --api-key-file: ${(err as Error).message}`);
  }
  const key = text.split(/\r?\n/)[0]!.trim();
  if (!key) fail(`--api-key-file ${path} holds no key`);
  return key;
}

const keyFile = values['api-key-file'];
const givenKey =
  (keyFile !== undefined ? keyFromFile(keyFile) : undefined) ?? (process.env.TABLEDESK_API_KEY || undefined);
const dataDir = values.memory ? undefined : (values.data ?? envPaths('TableDesk', { suffix: '' }).data);

const server = await startServer({
  port,
  host: values.host,
  ...(namedOrigin === undefined ? {} : { publicOrigin: namedOrigin }),
  apiKey: givenKey,
  dataDir,
  memory: values.memory,
  demo: values.demo,
  rateLimit,
  ...(tokenRateLimit === undefined ? {} : { tokenRateLimit }),
  penaltyMs,
  extensions: values.extensions === 'on',
  monthlyCalls,
}).catch((err: unknown) => fail(`cannot start: ${(err as Error).message}`));

let closing = false;
function stop(): void {
  if (closing) return;
  closing = true;
  server.close().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, stop);

if (values['ready-json']) {
  // stdin is the parent's pipe: its end means the parent closed the server or died (even by SIGKILL).
  console.log(
    JSON.stringify({ url: server.url, bases: server.bases, ...(givenKey ? {} : { apiKey: server.apiKey }) }),
  );
  process.stdin.on('end', stop).resume();
} else {
  console.log(`Record Table Service listening on ${server.url}/v0`);
  console.log(`Data: ${dataDir ?? 'in memory'}`);
  if (!givenKey) console.log(`API key (generated, shown once): ${server.apiKey}`);
  for (const b of server.bases) console.log(`Base ${b.id}  ${b.name}`);
}
