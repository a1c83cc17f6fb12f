/**
 * A KeyVault over one JSON file readable only by the user (mode 0600, tightened if a copy or restore loosened
 * it: storage/json-file does it for every file it reads). The browser door uses it as is;
 * Electron passes `seal`/`open` (safeStorage) so the file holds only ciphertext.
 */
import { z } from 'zod';
import { readJsonFile, serial, writeJsonFile } from '../storage/json-file';
import type { KeyStorageInfo, KeyVault } from './key-vault';

const fileSchema = z.record(z.string(), z.string());

/** An opened key; `reseal`: the OS asks for it to be sealed again (its key was rotated). */
export interface Opened {
  plain: string;
  reseal?: boolean;
}

export interface FileVaultOptions {
  info?: () => KeyStorageInfo;
  seal?: (plain: string) => Promise<string>;
  open?: (sealed: string) => Promise<Opened>;
}

export function createFileVault(path: string, options: FileVaultOptions = {}): KeyVault {
  const seal = options.seal ?? (async (s: string) => s);
  const open = options.open ?? (async (s: string): Promise<Opened> => ({ plain: s }));
  const info = options.info ?? (() => ({ backend: 'file', persistent: true }));
  const queue = serial();
  const load = (): Promise<Record<string, string>> => readJsonFile(path, fileSchema, {});

  return {
    info,
    get: (name) =>
      queue(async () => {
        const entries = await load();
        const sealed = entries[name];
        if (sealed === undefined) return undefined;
        const { plain, reseal } = await open(sealed);
        if (reseal) {
          // The old ciphertext still opens: a failed re-seal costs nothing but the next try.
          try {
            entries[name] = await seal(plain);
            await writeJsonFile(path, entries);
          } catch (error) {
            console.error(`TableDesk: the key "${name}" could not be sealed again`, error);
          }
        }
        return plain;
      }),
    names: () => queue(async () => new Set(Object.keys(await load()))),
    set: (name, key) =>
      queue(async () => {
        const entries = await load();
        entries[name] = await seal(key);
        await writeJsonFile(path, entries);
      }),
    delete: (name) =>
      queue(async () => {
        const entries = await load();
        if (!(name in entries)) return;
        delete entries[name];
        await writeJsonFile(path, entries);
      }),
  };
}
