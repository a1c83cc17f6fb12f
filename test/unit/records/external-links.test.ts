import { describe, expect, it } from 'vitest';
import { opensExternally } from '../../../core/records/external-links';

describe('links the window hands to the system browser', () => {
  it('are https links and a local service’s attachment links', () => {
    expect(opensExternally('https://example.org/a')).toBe(true);
    expect(opensExternally('http://127.0.0.1:4321/files/abc/full/a.png?expires=1&signature=x')).toBe(true);
    expect(opensExternally('http://localhost:4321/files/abc/full/a.pdf')).toBe(true);
  });

  it('are not other http links, other schemes, or text that is no URL', () => {
    expect(opensExternally('http://example.org/files/a')).toBe(false);
    expect(opensExternally('http://127.0.0.1:4321/v0/appX/Tasks')).toBe(false);
    expect(opensExternally('file:///etc/passwd')).toBe(false);
    expect(opensExternally('javascript:alert(1)')).toBe(false);
    expect(opensExternally('not a url')).toBe(false);
  });
});
