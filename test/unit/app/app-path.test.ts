import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAppUrl, rendererFile } from '../../../electron/app-path';

const root = resolve('/opt/tabledesk/renderer');

describe('the app:// protocol serves only the renderer build', () => {
  it('maps app URLs to files inside the build', () => {
    expect(rendererFile(root, 'app://tabledesk/')).toBe(join(root, 'index.html'));
    expect(rendererFile(root, 'app://tabledesk/index.html')).toBe(join(root, 'index.html'));
    expect(rendererFile(root, 'app://tabledesk/assets/index-abc.js?v=1')).toBe(
      join(root, 'assets/index-abc.js'),
    );
    expect(rendererFile(root, 'app://tabledesk/assets/a%20b.css')).toBe(join(root, 'assets/a b.css'));
  });

  it('refuses paths that leave the build, other hosts and other schemes', () => {
    // URL parsing collapses encoded dot segments at the root: what is left still names a file in the build.
    expect(rendererFile(root, 'app://tabledesk/%2e%2e/%2e%2e/etc/passwd')).toBe(join(root, 'etc/passwd'));
    expect(rendererFile(root, 'app://tabledesk/assets/..%2f..%2f..%2fsecret')).toBeUndefined();
    expect(rendererFile(root, 'app://tabledesk/..%5c..%5csecret')).toBeUndefined();
    expect(rendererFile(root, 'app://tabledesk/a%00b')).toBeUndefined();
    expect(rendererFile(root, 'app://tabledesk/%E0%A4%A')).toBeUndefined();
    expect(rendererFile(root, 'app://evil/index.html')).toBeUndefined();
    expect(rendererFile(root, 'file:///etc/passwd')).toBeUndefined();
  });

  it('knows its own origin from look-alikes', () => {
    expect(isAppUrl('app://tabledesk/index.html')).toBe(true);
    expect(isAppUrl('app://tabledesk.evil/index.html')).toBe(false);
    expect(isAppUrl('https://tabledesk/index.html')).toBe(false);
    expect(isAppUrl('not a url')).toBe(false);
  });
});
