/**
 * Attachments on the wire (airtable-wire.md §7, §11) and the rules an upload must meet, shared by the local
 * server (which enforces them) and the client (which checks them before anything is sent).
 */

export interface Thumbnail {
  url: string;
  width: number;
  height: number;
}

export interface AttachmentData {
  id: string;
  url: string;
  filename: string;
  size?: number;
  type?: string;
  width?: number;
  height?: number;
  thumbnails?: { small?: Thumbnail; large?: Thumbnail; full?: Thumbnail };
}

/** Airtable's limit for one uploadAttachment request: 5 MB of file, before base64. */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;

/** Longest file name kept; longer ones are refused rather than cut, so what is stored is what was sent. */
export const MAX_FILENAME_LENGTH = 255;

/** `type/subtype` with RFC 6838's characters, no parameters: what a Content-Type header may safely repeat. */
const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/i;

/** Half of a UTF-16 surrogate pair without its other half. */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A content type every route may store and the file route may send as its header: `type/subtype`. */
export function isContentType(type: string): boolean {
  return MIME.test(type);
}

/**
 * Why a file name cannot be kept, whatever route brings it (an upload, a write by URL, a mirror's copy);
 * undefined when it can. Control characters (CR/LF above all) never reach a header or a path.
 */
export function fileNameProblem(name: string): string | undefined {
  if (name === '' || name.length > MAX_FILENAME_LENGTH)
    return `A file name must have 1 to ${MAX_FILENAME_LENGTH} characters.`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name))
    return `${JSON.stringify(name)}: a file name may not hold control characters.`;
  // A lone half of a surrogate pair is no character: it cannot be put in a URL or a header (encoding it throws).
  if (LONE_SURROGATE.test(name)) return `${JSON.stringify(name)}: a file name must be well-formed Unicode.`;
  return undefined;
}

export function isAttachment(value: unknown): value is AttachmentData {
  if (typeof value !== 'object' || value === null) return false;
  const a = value as Record<string, unknown>;
  return typeof a.id === 'string' && typeof a.url === 'string' && typeof a.filename === 'string';
}

/** Why a file cannot be uploaded as it is, in words for the user; undefined when it can. */
export function uploadProblem(file: { name: string; size: number; type: string }): string | undefined {
  if (file.size > MAX_UPLOAD_BYTES)
    return `${file.name} is ${formatBytes(file.size, 'up')}; an upload may be at most ${formatBytes(MAX_UPLOAD_BYTES)}.`;
  if (file.size === 0) return `${file.name} is empty.`;
  const nameProblem = fileNameProblem(file.name);
  if (nameProblem) return nameProblem;
  if (/[/\\]/.test(file.name)) return `${JSON.stringify(file.name)}: a file name may not hold slashes.`;
  if (!isContentType(file.type))
    return `${file.name} has no usable content type (${JSON.stringify(file.type)}); expected type/subtype.`;
  return undefined;
}

/**
 * 1536 → "1.5 KB": sizes as people read them (1 KB = 1024 bytes). `up` rounds up, so a size over a limit
 * never reads as the limit itself.
 */
export function formatBytes(n: number, round: 'nearest' | 'up' = 'nearest'): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  const r = round === 'up' ? Math.ceil : Math.round;
  return `${v >= 10 ? r(v) : r(v * 10) / 10} ${units[i]}`;
}
