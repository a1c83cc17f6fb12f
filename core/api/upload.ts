/** Airtable's uploadAttachment: a file of at most 5 MB, sent in base64, appended to an attachment field. */
import { uploadProblem } from '../records/attachments';
import type { RecordData } from '../records/types';
import type { RequestOptions } from './options';
import { encodeSegment, requireId } from './query';
import type { Requester } from './requester';
import { asRecord } from './responses';
import { invariant } from '../invariant';

export interface UploadFile {
  filename: string;
  contentType: string;
  bytes: Uint8Array;
}

export interface UploadOptions extends RequestOptions {
  /** Bytes of the request handed to the connection so far (base64 makes it about 4/3 of the file). */
  onProgress?: (sent: number, total: number) => void;
}

/**
 * Where uploads go: Airtable takes them on its content host (content.airtable.com), with the same token;
 * every other service (the local one included) on its own origin.
 */
export function uploadOrigin(baseUrl: string): string {
  const url = new URL(baseUrl);
  return url.hostname === 'api.airtable.com'
    ? `${url.protocol}//content.airtable.com`
    : url.href.replace(/\/+$/, '');
}

/** Base64 without node:buffer (core runs in browsers too), in pieces so no call gets millions of arguments. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export async function uploadAttachment(
  requester: Requester,
  baseUrl: string,
  baseId: string,
  recordId: string,
  field: string,
  file: UploadFile,
  opts: UploadOptions = {},
): Promise<RecordData> {
  requireId('base id', baseId);
  requireId('record id', recordId);
  requireId('attachment field', field);
  // Checked before anything is queued: the service would refuse it, after the whole file had been sent. The
  // services check each file before they call (services/attachments/uploads.ts), so a problem here is a bug.
  const problem = uploadProblem({ name: file.filename, size: file.bytes.length, type: file.contentType });
  invariant(problem === undefined, problem ?? '');

  const body = await requester.send<unknown>({
    method: 'POST',
    origin: uploadOrigin(baseUrl),
    path: `/v0/${encodeSegment(baseId)}/${encodeSegment(recordId)}/${encodeSegment(field)}/uploadAttachment`,
    body: { contentType: file.contentType, file: toBase64(file.bytes), filename: file.filename },
    // Each upload appends a file: sent twice, it would be attached twice.
    creates: true,
    unknownOutcome: `${file.filename} may or may not have been attached`,
    baseId,
    signal: opts.signal,
    priority: opts.priority,
    purpose: opts.purpose,
    onProgress: opts.onProgress,
  });
  return asRecord(body);
}
