/**
 * One data folder for both doors: Electron names userData after package.json's productName (else its name),
 * in the platform's appData folder; the browser door must land in the same place on every platform.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultUserDataDir } from '../../../host/launch';

const read = (file: string): { productName?: string } =>
  JSON.parse(readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8')) as { productName?: string };

describe('the user-data folder', () => {
  it('is the appData folder of each platform, named after the product, as Electron names it', () => {
    expect(defaultUserDataDir('linux', {}, '/home/ann')).toBe('/home/ann/.config/TableDesk');
    expect(defaultUserDataDir('linux', { XDG_CONFIG_HOME: '/xdg' }, '/home/ann')).toBe('/xdg/TableDesk');
    expect(defaultUserDataDir('darwin', {}, '/Users/ann')).toBe(
      '/Users/ann/Library/Application Support/TableDesk',
    );
    expect(
      defaultUserDataDir('win32', { APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' }, 'C:\\Users\\ann'),
    ).toBe('C:\\Users\\ann\\AppData\\Roaming\\TableDesk');
  });

  it('takes the name Electron takes: package.json productName, the same as the installer’s', () => {
    expect(read('package.json').productName).toBe('TableDesk');
    expect(read('electron-builder.json').productName).toBe('TableDesk');
  });
});
