/** The app's page may read the clipboard (the grid menu's Paste); no other page, and no other permission. */
import { describe, expect, it } from 'vitest';
import { grantsPermission } from '../../../electron/permissions';

describe('grantsPermission', () => {
  it("grants clipboard-read to the app's own page, by URL or by origin", () => {
    expect(grantsPermission('clipboard-read', 'app://tabledesk/index.html')).toBe(true);
    expect(grantsPermission('clipboard-read', 'app://tabledesk')).toBe(true);
  });

  it('refuses clipboard-read to any other origin', () => {
    for (const url of [
      'https://tabledesk/index.html',
      'app://tabledesk.evil.example/',
      'app://other/',
      'file:///index.html',
      'http://127.0.0.1:5173/',
      '',
      'not a url',
    ])
      expect(grantsPermission('clipboard-read', url), url).toBe(false);
  });

  it('refuses every other permission, the app page included', () => {
    for (const permission of [
      'clipboard-sanitized-write',
      'notifications',
      'media',
      'geolocation',
      'openExternal',
    ])
      expect(grantsPermission(permission, 'app://tabledesk/index.html'), permission).toBe(false);
  });
});
