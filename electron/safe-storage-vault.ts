/**
 * The desktop KeyVault: keys encrypted with Electron's safeStorage (Keychain, DPAPI, libsecret/kwallet) in
 * a 0600 file in userData. Where Linux has no secret store, safeStorage falls back to `basic_text`, a
 * hard-coded password: the vault still works but says so, and the UI offers "don't remember".
 */
import { join } from 'node:path';
import { safeStorage } from 'electron';
import type { KeyStorageInfo, KeyVault } from '../services/keys/key-vault';
import { createFileVault } from '../services/keys/file-vault';

const BASIC_TEXT_WARNING =
  'This system has no secret store (such as GNOME Keyring or KWallet), so saved API keys are only ' +
  'obfuscated on disk. Choose "Don\'t remember" to keep a key for this session only.';

function storageInfo(): KeyStorageInfo {
  if (process.platform === 'darwin') return { backend: 'keychain', persistent: true };
  if (process.platform === 'win32') return { backend: 'dpapi', persistent: true };
  const backend = safeStorage.getSelectedStorageBackend();
  return backend === 'basic_text'
    ? { backend, persistent: false, warning: BASIC_TEXT_WARNING }
    : { backend, persistent: true };
}

/** Call after the app's `ready` event: before it, the Linux backend is `unknown`. */
export function createSafeStorageVault(userDataDir: string): KeyVault {
  return createFileVault(join(userDataDir, 'keys.electron.json'), {
    info: storageInfo,
    seal: async (plain) => {
      if (!(await safeStorage.isAsyncEncryptionAvailable())) {
        throw new Error(
          'The system refuses to encrypt keys right now; choose "Don\'t remember" for this key.',
        );
      }
      return (await safeStorage.encryptStringAsync(plain)).toString('base64');
    },
    // `shouldReEncrypt` (a rotated OS key) is left to the next save of that key: the old ciphertext still opens.
    open: async (sealed) => (await safeStorage.decryptStringAsync(Buffer.from(sealed, 'base64'))).result,
  });
}
