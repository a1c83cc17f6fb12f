import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { LONE_SURROGATE } from '../../core/records/attachments';

/** What an attachment URL names: a stored file (or one of its thumbnails), its name and its content type. */
export interface FileRef {
  hash: string;
  variant: Variant;
  filename: string;
  type: string;
}

export const VARIANTS = ['file', 'small', 'large', 'full'] as const;
export type Variant = (typeof VARIANTS)[number];

export type Verdict = { ok: true; ref: FileRef; expires: number } | { ok: false; why: 'forged' | 'expired' };

const HASH = /^[0-9a-f]{64}$/;

/**
 * Attachment URLs as Airtable makes them: signed and time-limited, so a URL is the only credential a
 * download needs (an <img> cannot send the API key) and a leaked one stops working. The HMAC covers the
 * path, the content type and the expiry, with a secret made per server start: URLs from before a restart
 * no longer open, as expired ones do not.
 */
export class UrlSigner {
  private readonly secret = randomBytes(32);

  constructor(private readonly ttlMs: number) {}

  /** The path and query of a URL to `ref`, valid until now + ttl. */
  sign(ref: FileRef, now = Date.now()): string {
    const path = pathOf(ref);
    const expires = now + this.ttlMs;
    return `${path}?type=${encodeURIComponent(ref.type)}&expires=${expires}&signature=${this.mac(path, ref.type, expires)}`;
  }

  /**
   * Checks a URL's parts. `ignoreExpiry` is for writes that name a file by a URL this server made: the
   * signature proves the writer was given it, and a record read two hours ago must still be writable back.
   */
  verify(
    parts: {
      hash: string;
      variant: string;
      filename: string;
      type?: unknown;
      expires?: unknown;
      signature?: unknown;
    },
    opts: { now?: number; ignoreExpiry?: boolean } = {},
  ): Verdict {
    const { hash, variant, filename, type, expires, signature } = parts;
    if (!HASH.test(hash) || !(VARIANTS as readonly string[]).includes(variant))
      return { ok: false, why: 'forged' };
    if (typeof type !== 'string' || typeof expires !== 'string' || typeof signature !== 'string')
      return { ok: false, why: 'forged' };
    const at = /^\d{1,16}$/.test(expires) ? Number(expires) : NaN;
    const ref: FileRef = { hash, variant: variant as Variant, filename, type };
    const expected = Buffer.from(this.mac(pathOf(ref), type, at));
    const given = Buffer.from(signature);
    if (!Number.isFinite(at) || given.length !== expected.length || !timingSafeEqual(given, expected))
      return { ok: false, why: 'forged' };
    if (!opts.ignoreExpiry && at < (opts.now ?? Date.now())) return { ok: false, why: 'expired' };
    return { ok: true, ref, expires: at };
  }

  private mac(path: string, type: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`${path}\n${type}\n${expires}`).digest('base64url');
  }
}

export const FILES_PREFIX = '/files/';

/**
 * A lone surrogate is refused in every name written now (core/records/attachments.ts), but a data folder may
 * hold one from before: it is signed as U+FFFD, the character the file route reads its encoding back as, since
 * encoding it would throw and make every read of its record a 500.
 */
const loneSurrogates = new RegExp(LONE_SURROGATE.source, 'g');

function pathOf(ref: FileRef): string {
  const name = ref.filename.replace(loneSurrogates, '\uFFFD');
  return `${FILES_PREFIX}${ref.hash}/${ref.variant}/${encodeURIComponent(name)}`;
}
