/** The port through which every API key is stored: the services never keep keys anywhere else. */

export interface KeyStorageInfo {
  /** e.g. `file`, `gnome_libsecret`, `keychain`, `dpapi`, `basic_text`. */
  backend: string;
  /** false where keys are not protected by the OS (Electron's `basic_text`): the user is warned. */
  persistent: boolean;
  warning?: string;
}

export interface KeyVault {
  info(): KeyStorageInfo;
  get(name: string): Promise<string | undefined>;
  /** The names that hold a key, read at once and without opening any key. */
  names(): Promise<Set<string>>;
  set(name: string, key: string): Promise<void>;
  delete(name: string): Promise<void>;
}
