import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileVault } from '../../../services/keys/file-vault';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tabledesk-vault-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('file key vault', () => {
  it('keeps keys in a file only its owner can read', async () => {
    const path = join(dir, 'keys.json');
    const vault = createFileVault(path);
    await vault.set('connection:a', 'patSECRET.a');
    await vault.set('connection:b', 'patSECRET.b');
    expect(await vault.get('connection:a')).toBe('patSECRET.a');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    await vault.delete('connection:a');
    expect(await vault.get('connection:a')).toBeUndefined();
    expect(await createFileVault(path).get('connection:b')).toBe('patSECRET.b');
  });

  it('tightens a key file that others could read', async () => {
    const path = join(dir, 'keys.json');
    await writeFile(path, JSON.stringify({ k: 'v' }));
    await chmod(path, 0o644);
    expect(await createFileVault(path).get('k')).toBe('v');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('sets an unreadable file aside instead of overwriting it', async () => {
    const path = join(dir, 'keys.json');
    await writeFile(path, '{ not json');
    const vault = createFileVault(path);
    expect(await vault.get('k')).toBeUndefined();
    await vault.set('k', 'v');
    const aside = (await readdir(dir)).find((f) => f.startsWith('keys.json.unreadable-'));
    expect(aside).toBeDefined();
    expect(await readFile(join(dir, aside!), 'utf8')).toBe('{ not json');
  });

  it('seals what it writes when given a seal', async () => {
    const path = join(dir, 'keys.json');
    const vault = createFileVault(path, {
      seal: async (s) => Buffer.from(s).toString('base64'),
      open: async (s) => ({ plain: Buffer.from(s, 'base64').toString() }),
    });
    await vault.set('k', 'patPLAIN');
    expect(await readFile(path, 'utf8')).not.toContain('patPLAIN');
    expect(await vault.get('k')).toBe('patPLAIN');
  });
});
