/**
 * Everything the services write in the user-data folder is the user's alone: files 0600 and folders 0700,
 * whatever the umask, and a folder or file an older version left readable by others is tightened.
 */
import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppServices } from '../../../services/app';
import type { AppServices } from '../../../services/app';
import { createFileVault } from '../../../services/keys/file-vault';
import { readJsonFile, writeJsonFile } from '../../../services/storage/json-file';
import { z } from 'zod';

let services: AppServices | undefined;
let root: string | undefined;
afterEach(async () => {
  await services?.close();
  if (root !== undefined) await rm(root, { recursive: true, force: true });
  services = root = undefined;
});

/** Every file and folder under `dir`, with its permission bits. */
async function modes(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true })) {
    const s = await stat(join(dir, entry));
    out[`${s.isDirectory() ? 'dir' : 'file'} ${entry}`] = (s.mode & 0o777).toString(8);
  }
  return out;
}

describe('the user-data folder', () => {
  it('holds only owner-only files and folders after the services have written everything they write', async () => {
    const previous = process.umask(0o002);
    try {
      root = await mkdtemp(join(tmpdir(), 'tabledesk-modes-'));
      const userDataDir = join(root, 'TableDesk');
      // An older version's folder and profiles, readable by everyone.
      await mkdir(userDataDir, { mode: 0o775 });
      await chmod(userDataDir, 0o775);
      await writeFile(join(userDataDir, 'connections.json'), '{"connections":[]}\n', { mode: 0o664 });
      await chmod(join(userDataDir, 'connections.json'), 0o664);

      services = createAppServices({
        userDataDir,
        vault: createFileVault(join(userDataDir, 'keys.json')),
        door: 'browser',
        version: 'test',
        embedded: { memory: true, largeTableRecords: 20, rateLimit: 'off' },
      });
      const server = (await services.embedded)!;
      const call = async (channel: string, request: unknown) => {
        const result = await services!.dispatch(channel, request);
        if (!result.ok) throw new Error(result.error.message);
        return result.response;
      };
      await call('connections.list', {});
      await call('connections.save', { name: 'Local', baseUrl: server.url, apiKey: server.apiKey });
      const baseId = server.bases[0]!.id;
      await call('edits.edit', {
        target: { connectionId: 'demo', baseId, table: 'Teams' },
        changes: [{ recordId: 'rec00000000000000', fields: { Name: 'x' } }],
        undoable: false,
      });
      // Window state is written by Electron's main process through the same module.
      await writeJsonFile(join(userDataDir, 'window-state.json'), { maximized: false });

      const found = await modes(userDataDir);
      expect(Object.keys(found)).toEqual(
        expect.arrayContaining([
          'file connections.json',
          'file keys.json',
          'file window-state.json',
          'dir edits',
        ]),
      );
      for (const [entry, mode] of Object.entries(found)) {
        expect(mode, entry).toBe(entry.startsWith('dir') ? '700' : '600');
      }
      expect(((await stat(userDataDir)).mode & 0o777).toString(8)).toBe('700');
    } finally {
      process.umask(previous);
    }
  });

  it('tightens a JSON file found readable by others when it is first read', async () => {
    root = await mkdtemp(join(tmpdir(), 'tabledesk-modes-'));
    const path = join(root, 'restored.json');
    await writeFile(path, '{"a":"b"}', { mode: 0o644 });
    await chmod(path, 0o644);
    expect(await readJsonFile(path, z.record(z.string(), z.string()), {})).toEqual({ a: 'b' });
    expect(((await stat(path)).mode & 0o777).toString(8)).toBe('600');
  });
});
