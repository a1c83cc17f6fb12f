/**
 * `npm run server -- [--port 8787] [--host 127.0.0.1] [--api-key KEY] [--data DIR | --memory] [--demo]
 * [--rate-limit 5|off] [--ready-json]`: the local Record Table Service on its own. The key may also come from
 * TABLEDESK_API_KEY; without one a key is generated and printed once. `--ready-json` is for a parent process
 * (the app's development run): one JSON line `{url, bases}` when listening, and a stop when stdin closes.
 */
import envPaths from 'env-paths';
import { parseArgs } from 'node:util';
import { startServer } from './index';

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
        'api-key': { type: 'string' },
        data: { type: 'string' },
        memory: { type: 'boolean', default: false },
        demo: { type: 'boolean', default: false },
        'rate-limit': { type: 'string', default: '5' },
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
    'Usage: npm run server -- [--port N] [--host H] [--api-key K] [--data DIR | --memory] [--demo] [--rate-limit N|off] [--ready-json]',
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
const givenKey = values['api-key'] ?? process.env.TABLEDESK_API_KEY;
const dataDir = values.memory ? undefined : (values.data ?? envPaths('TableDesk', { suffix: '' }).data);

const server = await startServer({
  port,
  host: values.host,
  apiKey: givenKey,
  dataDir,
  memory: values.memory,
  demo: values.demo,
  rateLimit,
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
