/**
 * Signed file links: a name no route accepts any more (a lone surrogate, from a data folder written before the
 * check) is still signed, never thrown on, and its link verifies as the file route reads its path back.
 */
import { describe, expect, it } from 'vitest';
import { UrlSigner } from '../../../server/files/signing';

describe('UrlSigner', () => {
  const signer = new UrlSigner(60_000);
  const hash = 'a'.repeat(64);

  for (const filename of ['\uD800.png', 'a\uDFFF', '\uDC00\uD800', 'ok 😀.png'])
    it(`signs ${JSON.stringify(filename)} and verifies the link it made`, () => {
      const link = new URL(signer.sign({ hash, variant: 'file', filename, type: 'image/png' }), 'http://h');
      const [, , h, variant, name] = link.pathname.split('/') as string[];
      const verdict = signer.verify({
        hash: h!,
        variant: variant!,
        filename: decodeURIComponent(name!),
        type: link.searchParams.get('type'),
        expires: link.searchParams.get('expires'),
        signature: link.searchParams.get('signature'),
      });
      expect(verdict.ok).toBe(true);
    });
});
