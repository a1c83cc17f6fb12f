/**
 * The desktop KeyVault: keys encrypted with Electron's safeStorage (Keychain, DPAPI, libsecret/kwallet) in
 * a 0600 file in userData. Where Linux has no secret store, safeStorage falls back to `basic_text`, a
 * hard-coded password: the vault still works but says so, and the UI offers "don't remember". On Linux the
 * warning is conservative: the backend Electron reports and the one its async encryptor ends up using can
 * differ (a reported secret store that does not answer falls back to the fixed password, silently), so only
 * a named secret store counts as one, and even then the user is told the limit.
 */
import { join } from 'node:path';
import { safeStorage } from 'electron';
import type { KeyStorageInfo, KeyVault } from '../services/keys/key-vault';
import { createFileVault } from '../services/keys/file-vault';
import type { Opened } from '../services/keys/file-vault';
import { ServiceError } from '../services/errors';

const BASIC_TEXT_WARNING =
  'This system has no secret store (such as GNOME Keyring or KWallet), so saved API keys are only ' +
  'obfuscated on disk. Choose "Don\'t remember" to keep a key for this session only.';
const LINUX_LIMIT =
  "Saved API keys are encrypted with the system's secret store when it answers; on Linux, Electron falls " +
  'back to a fixed password without saying so when it does not. Choose "Don\'t remember" for a key that ' +
  'must never rest on disk.';
const LINUX_SECRET_STORES = new Set(['gnome_libsecret', 'kwallet', 'kwallet5', 'kwallet6']);

function storageInfo(): KeyStorageInfo {
  if (process.platform === 'darwin') return { backend: 'keychain', persistent: true };
  if (process.platform === 'win32') return { backend: 'dpapi', persistent: true };
  const backend = safeStorage.getSelectedStorageBackend();
  return LINUX_SECRET_STORES.has(backend)
    ? { backend, persistent: true, warning: LINUX_LIMIT }
    : { backend, persistent: false, warning: BASIC_TEXT_WARNING };
}

/**
 * The OS key that sealed it is gone (a keyring changed, a Keychain prompt denied): the key must be entered
 * again. One the OS opens but asks to re-encrypt (its key was rotated, or a stronger one is available) is
 * sealed again by the vault.
 */
async function open(sealed: string): Promise<Opened> {
  try {
    const { result, shouldReEncrypt } = await safeStorage.decryptStringAsync(Buffer.from(sealed, 'base64'));
    return { plain: result, reseal: shouldReEncrypt };
  } catch (error) {
    throw new ServiceError(
      'storage',
      "A saved API key can no longer be decrypted (the system's keyring or Keychain access changed): enter it again.",
      { cause: error },
    );
  }
}

/** Call after the app's `ready` event: before it, the Linux backend is `unknown`. */
export function createSafeStorageVault(userDataDir: string): KeyVault {
  return createFileVault(join(userDataDir, 'keys.electron.json'), {
    info: storageInfo,
    seal: async (plain) => {
      if (!(await safeStorage.isAsyncEncryptionAvailable())) {
        throw new ServiceError(
          'storage',
          'The system refuses to encrypt keys right now; choose "Don\'t remember" for this key.',
        );
      }
      return (await safeStorage.encryptStringAsync(plain)).toString('base64');
    },
    open,
  });
}
