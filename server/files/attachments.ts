import type { AttachmentData, Thumbnail } from '../../core/records/attachments';
import { newId } from '../ids';
import type { Blob, FileStore } from './store';
import { FILES_PREFIX, UrlSigner } from './signing';

/**
 * An uploaded attachment as a record keeps it: the file by hash, never a URL (URLs are signed when a record
 * is read, so each read gives links that work for the next two hours).
 */
export interface StoredAttachment {
  id: string;
  filename: string;
  type: string;
  size: number;
  blob: string;
  width?: number;
  height?: number;
  thumbnails?: Blob['thumbnails'];
}

const isStored = (v: unknown): v is StoredAttachment =>
  typeof v === 'object' && v !== null && typeof (v as { blob?: unknown }).blob === 'string';

/** Airtable's attachment URLs last about two hours (airtable-wire.md §11). */
export const DEFAULT_URL_TTL_MS = 2 * 60 * 60 * 1000;

/** The server's attachments: stored files, their signed URLs, and attachments named by those URLs. */
export class Attachments {
  readonly signer: UrlSigner;
  /**
   * The origin the server's file URLs name, known once it listens: its own (`http://127.0.0.1:PORT`) or the
   * public one it was given (ServerOptions.publicOrigin). A write naming a URL is matched against it too.
   */
  origin = '';

  constructor(
    readonly files: FileStore,
    ttlMs: number,
  ) {
    this.signer = new UrlSigner(ttlMs);
  }

  /** A new attachment of a stored file. */
  attach(blob: Blob, filename: string, type: string): StoredAttachment {
    const out: StoredAttachment = { id: newId('att'), filename, type, size: blob.size, blob: blob.hash };
    if (blob.width && blob.height) {
      out.width = blob.width;
      out.height = blob.height;
    }
    if (blob.thumbnails) out.thumbnails = blob.thumbnails;
    return out;
  }

  /** A cell of attachments as the wire has it: stored files get fresh signed URLs; others pass as stored. */
  wire(value: unknown): unknown {
    if (!Array.isArray(value)) return value;
    return value.map((a: unknown) => (isStored(a) ? this.wireOne(a) : a));
  }

  /**
   * The attachment a write names by URL, when the URL is one this server signed (an expired one too: see
   * UrlSigner.verify). Undefined for any other URL.
   */
  fromUrl(url: URL, filename: string | undefined): StoredAttachment | undefined {
    if (url.origin !== this.origin || !url.pathname.startsWith(FILES_PREFIX)) return undefined;
    const [hash = '', variant = '', name = ''] = url.pathname.slice(FILES_PREFIX.length).split('/');
    let decoded: string;
    try {
      decoded = decodeURIComponent(name);
    } catch {
      return undefined;
    }
    const q = url.searchParams;
    const verdict = this.signer.verify(
      {
        hash,
        variant,
        filename: decoded,
        type: q.get('type') ?? undefined,
        expires: q.get('expires') ?? undefined,
        signature: q.get('signature') ?? undefined,
      },
      { ignoreExpiry: true },
    );
    const blob = verdict.ok && verdict.ref.variant === 'file' ? this.files.get(hash) : undefined;
    return blob && verdict.ok ? this.attach(blob, filename ?? decoded, verdict.ref.type) : undefined;
  }

  private wireOne(a: StoredAttachment): AttachmentData {
    const url = (variant: 'file' | 'small' | 'large' | 'full', type: string) =>
      this.origin + this.signer.sign({ hash: a.blob, variant, filename: a.filename, type });
    const out: AttachmentData = {
      id: a.id,
      url: url('file', a.type),
      filename: a.filename,
      size: a.size,
      type: a.type,
    };
    if (a.width && a.height) {
      out.width = a.width;
      out.height = a.height;
    }
    if (a.thumbnails) {
      const thumbs: Record<string, Thumbnail> = {};
      for (const [name, t] of Object.entries(a.thumbnails))
        thumbs[name] = { url: url(name as 'small', t.type), width: t.width, height: t.height };
      out.thumbnails = thumbs;
    }
    return out;
  }
}
