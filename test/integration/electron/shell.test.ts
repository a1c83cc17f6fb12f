/**
 * The Electron shell's own logic, in Node, against the Electron stand-in: the IPC sender check
 * (electron/ipc.ts) with the real services behind it, and the safeStorage vault (electron/safe-storage-vault.ts)
 * with the real file vault and the real embedded server, including a key the OS can no longer decrypt.
 */
import { readFile, stat } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BrowserWindow as ElectronWindow } from 'electron';
import { bindIpc } from '../../../electron/ipc';
import { createSafeStorageVault } from '../../../electron/safe-storage-vault';
import { loadWindowState, rememberWindowState } from '../../../electron/window-state';
import { createAppServices } from '../../../services/app';
import type { AppServices } from '../../../services/app';
import { startEmbeddedServer } from '../../../services/embedded-server';
import { createFileVault } from '../../../services/keys/file-vault';
import { BrowserWindow, cancellable, safeStorage, standIn } from './stand-in/electron';
import type { Frame } from './stand-in/electron';

vi.mock('electron', () => import('./stand-in/electron'));

const status = { connectionId: 'demo', queued: 0, inFlight: 0, ratePerSecond: 5 };
const REFUSED = {
  ok: false,
  error: { kind: 'invalid-request', message: 'Refused: the call did not come from the TableDesk window.' },
};

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tabledesk-shell-'));
  Object.assign(safeStorage, {
    backend: 'gnome_libsecret',
    available: true,
    keyId: 'os-key-1',
    rotatedKeyIds: [],
  });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the IPC sender check', () => {
  let services: AppServices;
  let window: BrowserWindow;
  let unbind: () => void;

  beforeEach(async () => {
    services = createAppServices({
      userDataDir: dir,
      vault: createFileVault(join(dir, 'keys.json')),
      door: 'electron',
      version: '1.2.3',
      embedded: false,
    });
    window = new BrowserWindow({ show: false });
    await window.loadURL('app://tabledesk/index.html');
    unbind = bindIpc(services, window as unknown as ElectronWindow);
  });
  afterEach(async () => {
    unbind();
    window.destroy();
    await services.close();
  });

  const call = (frame: Frame | null) =>
    standIn.ipcHandlers.get('tabledesk:call')?.({ senderFrame: frame }, 'app.info', {});

  it('answers the window’s own top frame on app://', async () => {
    expect(await call(window.webContents.mainFrame)).toMatchObject({
      ok: true,
      response: { name: 'TableDesk', version: '1.2.3', door: 'electron' },
    });
  });

  it('refuses a subframe, another renderer process, another page, and a frame that is gone', async () => {
    const main = window.webContents.mainFrame;
    expect(await call({ ...main, routingId: main.routingId + 1 })).toEqual(REFUSED);
    expect(await call({ ...main, processId: main.processId + 1 })).toEqual(REFUSED);
    expect(await call({ ...main, url: 'https://example.com/' })).toEqual(REFUSED);
    expect(await call({ ...main, url: 'app://elsewhere/index.html' })).toEqual(REFUSED);
    expect(await call(null)).toEqual(REFUSED);
  });

  it('refuses the top frame of another window', async () => {
    const other = new BrowserWindow({ show: false });
    await other.loadURL('app://tabledesk/index.html');
    expect(await call(other.webContents.mainFrame)).toEqual(REFUSED);
    other.destroy();
  });

  it('refuses once its window is destroyed, and stops forwarding events when unbound', async () => {
    services.events.emit('client.status', status);
    expect(window.webContents.sent).toHaveLength(1);
    unbind();
    unbind = () => undefined;
    expect(standIn.ipcHandlers.has('tabledesk:call')).toBe(false);
    services.events.emit('client.status', status);
    expect(window.webContents.sent).toHaveLength(1);
    const frame = window.webContents.mainFrame;
    unbind = bindIpc(services, window as unknown as ElectronWindow);
    window.destroy();
    expect(await call(frame)).toEqual(REFUSED);
  });
});

describe('the safeStorage vault', () => {
  it('keeps only ciphertext, in a file only the user can read, and opens it again', async () => {
    const vault = createSafeStorageVault(dir);
    await vault.set('connection:a', 'patSECRET123');
    const file = await readFile(join(dir, 'keys.electron.json'), 'utf8');
    expect(file).not.toContain('patSECRET123');
    expect((await stat(join(dir, 'keys.electron.json'))).mode & 0o777).toBe(0o600);
    expect(await createSafeStorageVault(dir).get('connection:a')).toBe('patSECRET123');
  });

  it('says a key can no longer be decrypted when the OS key changed, and takes the key entered again', async () => {
    const vault = createSafeStorageVault(dir);
    await vault.set('connection:a', 'patSECRET123');
    safeStorage.keyId = 'os-key-2';
    await expect(vault.get('connection:a')).rejects.toThrow(/can no longer be decrypted.*enter it again/);
    await vault.set('connection:a', 'patNEW456');
    expect(await vault.get('connection:a')).toBe('patNEW456');
  });

  it('seals a key again when the OS asks to (its key was rotated), and it still opens', async () => {
    const vault = createSafeStorageVault(dir);
    await vault.set('connection:a', 'patSECRET123');
    safeStorage.rotatedKeyIds = ['os-key-1'];
    safeStorage.keyId = 'os-key-2';
    expect(await vault.get('connection:a')).toBe('patSECRET123');
    const sealed = JSON.parse(await readFile(join(dir, 'keys.electron.json'), 'utf8')) as Record<
      string,
      string
    >;
    expect(Buffer.from(sealed['connection:a']!, 'base64').toString()).toMatch(/^os-key-2:/);
    // Once the old key is gone for good, the key sealed again still opens.
    safeStorage.rotatedKeyIds = [];
    expect(await createSafeStorageVault(dir).get('connection:a')).toBe('patSECRET123');
  });

  it('refuses to save when the OS will not encrypt', async () => {
    safeStorage.available = false;
    await expect(createSafeStorageVault(dir).set('connection:a', 'patX')).rejects.toThrow(
      /refuses to encrypt keys.*Don't remember/,
    );
  });

  it('tells the user, not a bug report, when the OS will not seal a key or no longer opens one', async () => {
    const services = createAppServices({
      userDataDir: dir,
      vault: createSafeStorageVault(dir),
      door: 'electron',
      version: '1.2.3',
      embedded: false,
    });
    try {
      const save = { name: 'Team', baseUrl: 'https://api.example.com', apiKey: 'patSECRET123' };
      const saved = await services.dispatch('connections.save', save);
      expect(saved).toMatchObject({ ok: true });
      const id = (saved as { response: { connection: { id: string } } }).response.connection.id;
      safeStorage.keyId = 'os-key-2';
      expect(await services.dispatch('connections.test', { id })).toEqual({
        ok: false,
        error: {
          kind: 'storage',
          message: expect.stringMatching(/can no longer be decrypted.*enter it again/),
        },
      });
      safeStorage.available = false;
      expect(await services.dispatch('connections.save', { ...save, id })).toEqual({
        ok: false,
        error: { kind: 'storage', message: expect.stringMatching(/refuses to encrypt keys/) },
      });
    } finally {
      await services.close();
    }
  });

  it('on Linux, warns unless a named secret store is in use, and states the limit even then', () => {
    for (const backend of ['basic_text', 'unknown']) {
      safeStorage.backend = backend;
      expect(createSafeStorageVault(dir).info()).toMatchObject({
        backend,
        persistent: false,
        warning: expect.stringContaining('no secret store'),
      });
    }
    for (const backend of ['gnome_libsecret', 'kwallet6']) {
      safeStorage.backend = backend;
      expect(createSafeStorageVault(dir).info()).toMatchObject({
        backend,
        persistent: true,
        warning: expect.stringContaining('falls back to a fixed password'),
      });
    }
  });

  it('gives the demo server a new key when its saved one can no longer be decrypted', async () => {
    const vault = createSafeStorageVault(dir);
    const first = await startEmbeddedServer({ userDataDir: dir, vault, memory: true, largeTableRecords: 10 });
    await first.close();
    safeStorage.keyId = 'os-key-2';
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const second = await startEmbeddedServer({
      userDataDir: dir,
      vault,
      memory: true,
      largeTableRecords: 10,
    });
    errors.mockRestore();
    try {
      expect(second.apiKey).toMatch(/^pat[0-9a-f]{48}$/);
      expect(second.apiKey).not.toBe(first.apiKey);
      expect(await vault.get('embedded-server')).toBe(second.apiKey);
      const response = await fetch(`${second.url}/v0/meta/bases`, {
        headers: { Authorization: `Bearer ${second.apiKey}` },
      });
      expect(response.status).toBe(200);
    } finally {
      await second.close();
    }
  });
});

describe('the window state', () => {
  it('survives closes in quick succession (a cancelled close, then the confirmed one) and reads back', async () => {
    const unhandled: unknown[] = [];
    const collect = (reason: unknown): number => unhandled.push(reason);
    process.on('unhandledRejection', collect);
    const window = new BrowserWindow({ show: false, width: 900, height: 700 });
    rememberWindowState(window as unknown as ElectronWindow, dir);
    window.maximize();
    for (let i = 0; i < 5; i++) window.emit('close', cancellable());
    await vi.waitFor(async () => expect((await loadWindowState(dir)).maximized).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 200));
    process.off('unhandledRejection', collect);
    expect(unhandled).toEqual([]);
    expect(await loadWindowState(dir)).toEqual({
      bounds: { x: 0, y: 0, width: 900, height: 700 },
      maximized: true,
    });
    window.destroy();
  });
});
