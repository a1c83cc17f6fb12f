/**
 * `npm run web`'s command line (host/main.ts): one that does not make sense is said in words with exit code 2,
 * before anything starts (no data folder is made, no port opened).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tabledesk-web-args-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function web(...args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'host/main.ts', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, stderr };
}

describe('npm run web, given a command line that does not make sense', () => {
  it.each([
    [['--rate-limit', 'fast'], '--rate-limit takes a positive number or "off", not "fast".'],
    [['--port', '70000'], '--port takes a port number, not "70000".'],
  ])('%j: says what is wrong, exits 2, and starts nothing', async (args, message) => {
    const data = join(dir, 'data');
    const { code, stderr } = await web(...args, '--data', data);
    expect(code).toBe(2);
    expect(stderr.trim()).toBe(message);
    expect(existsSync(data)).toBe(false);
  });
});
