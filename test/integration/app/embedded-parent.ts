/**
 * A parent process for embedded-child.test.ts: starts the demo server in a child on this Node, prints the
 * child's pid and url as one JSON line, and stays alive until it is killed.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbeddedServer } from '../../../services/embedded-server';
import { createFileVault } from '../../../services/keys/file-vault';

const userDataDir = process.argv[2];
if (userDataDir === undefined) throw new Error('usage: embedded-parent.ts USER_DATA_DIR');
const server = await startEmbeddedServer({
  userDataDir,
  vault: createFileVault(join(userDataDir, 'keys.json')),
  memory: true,
  rateLimit: 'off',
  runner: { nodePath: process.execPath, appDir: fileURLToPath(new URL('../../..', import.meta.url)) },
});
console.log(JSON.stringify({ pid: server.pid, url: server.url }));
