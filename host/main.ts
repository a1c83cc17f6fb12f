/**
 * `npm run web`: the app in a browser tab. Prints the 127.0.0.1 address with this launch's token.
 * Options: --port N, --data DIR (user-data folder), --rate-limit N|off (the embedded server's limit).
 */
import { parseArgs } from 'node:util';
import { defaultUserDataDir, launchBrowserApp } from './launch';

function options(): { port: string; data?: string; 'rate-limit': string } {
  try {
    return parseArgs({
      options: {
        port: { type: 'string', default: '0' },
        data: { type: 'string' },
        'rate-limit': { type: 'string', default: '5' },
      },
    }).values;
  } catch (error) {
    console.error(
      `${error instanceof Error ? error.message : String(error)} (options: --port N, --data DIR, --rate-limit N|off)`,
    );
    process.exit(2);
  }
}

const values = options();

/** A command line that does not make sense: said, with exit code 2, before anything starts. */
function misuse(message: string): never {
  console.error(message);
  process.exit(2);
}

function rateLimit(text: string): number | 'off' {
  if (text === 'off') return 'off';
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) misuse(`--rate-limit takes a positive number or "off", not "${text}".`);
  return n;
}

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535)
  misuse(`--port takes a port number, not "${values.port}".`);
const limit = rateLimit(values['rate-limit']);

try {
  const app = await launchBrowserApp({
    userDataDir: values.data ?? defaultUserDataDir(),
    port,
    embedded: { rateLimit: limit },
  });
  console.log(`TableDesk is open at ${app.url}`);
  const stop = (): void => {
    void app.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  console.error(`TableDesk could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
