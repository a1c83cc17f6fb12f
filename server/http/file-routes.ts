import { createReadStream, existsSync } from 'node:fs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { MAX_UPLOAD_BYTES, formatBytes, isContentType, uploadProblem } from '../../core/records/attachments';
import { ServiceError, recordNotFound } from '../errors';
import type { Service } from '../service';
import type { Table } from '../store/catalog';
import { FILES_PREFIX } from '../files/signing';
import { writeRender, renderRecord } from './render';
import { UploadTurns } from './upload-turns';
import type { User } from '../users';

type UploadParams = { baseId: string; recordId: string; field: string };

const uploadBody = z.object({
  contentType: z.string().max(255),
  file: z.string(),
  filename: z.string().max(1000),
});

/** Base64 of 5 MB plus room for the rest of the body; a larger body is refused before it is parsed. */
export const UPLOAD_BODY_LIMIT = Math.ceil((MAX_UPLOAD_BYTES * 4) / 3) + 64 * 1024;

/**
 * `bytes` decoded from base64 `text` that holds nothing else: Node's decoder skips what is no base64, so any
 * such character leaves fewer bytes than the text's length promises; it also reads base64url's `-` and `_`,
 * looked for natively. (A regex over the text did the same check at 50 ms for 4 MB, on the thread every
 * request waits for.)
 */
function wholeBase64(text: string, bytes: Buffer): boolean {
  if (text.length % 4 !== 0 || text.includes('-') || text.includes('_')) return false;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return bytes.length === (text.length / 4) * 3 - padding;
}

/** Types a browser may show in place: raster images. Everything else (HTML, SVG, PDF, text) downloads. */
const INLINE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

const refused = (status: number, type: string, message: string) => new ServiceError(status, type, message);

function findRecord(service: Service, baseId: string, recordId: string): Table {
  const row = service.db.prepare('SELECT table_id FROM records WHERE id = ?').get(recordId) as
    { table_id: string } | undefined;
  const table = row && service.catalog.tableById(row.table_id);
  if (!table || table.baseId !== baseId) throw recordNotFound();
  return table;
}

/** `filename*` as RFC 6266 has it, with a plain ASCII fallback for old readers. */
function disposition(kind: 'inline' | 'attachment', filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

export function registerFileRoutes(
  app: FastifyInstance,
  service: Service,
  userOf: (req: FastifyRequest) => User,
): void {
  const turns = new UploadTurns();
  /** Each upload's way out of its turn: taken as soon as its body is parsed, or when its client goes. */
  const leaving = new WeakMap<FastifyRequest, () => void>();
  // Airtable's content endpoint (airtable-wire.md §11): a file in base64 appended to an attachment field.
  app.post<{ Params: UploadParams; Body: z.infer<typeof uploadBody> }>(
    '/v0/:baseId/:recordId/:field/uploadAttachment',
    {
      schema: { body: uploadBody },
      bodyLimit: UPLOAD_BODY_LIMIT,
      // Before the body is read: a big upload waits for its user's turn (see upload-turns.ts).
      onRequest: async (req, reply) => {
        const { turn, leave } = turns.enter(userOf(req).id, Number(req.headers['content-length']));
        reply.raw.once('close', leave);
        leaving.set(req, leave);
        await turn;
      },
    },
    async (req) => {
      // The turn bounds reading and parsing bodies, which is done: storing the file (an image's decode, in its
      // own lane by size, see files/thumbnails.ts) must not hold the next upload's body, or a photo waits for
      // the decodes of the huge images sent before it.
      leaving.get(req)?.();
      const { baseId, recordId, field: fieldName } = req.params;
      const table = findRecord(service, baseId, recordId);
      const field = service.catalog.field(table, fieldName);
      if (!field)
        throw refused(422, 'UNKNOWN_FIELD_NAME', `Unknown field name: ${JSON.stringify(fieldName)}`);
      if (field.type !== 'multipleAttachments')
        throw refused(
          422,
          'INVALID_VALUE_FOR_COLUMN',
          `Field ${JSON.stringify(field.name)} is not an attachment field`,
        );
      const { file, filename, contentType } = req.body;
      const bytes = Buffer.from(file, 'base64');
      if (!wholeBase64(file, bytes))
        throw refused(422, 'INVALID_ATTACHMENT_OBJECT', 'file must be the file encoded in base64');
      if (bytes.length > MAX_UPLOAD_BYTES)
        throw refused(
          413,
          'REQUEST_TOO_LARGE',
          `The file is ${formatBytes(bytes.length, 'up')}; an upload may be at most ${formatBytes(MAX_UPLOAD_BYTES)}`,
        );
      const problem = uploadProblem({ name: filename, size: bytes.length, type: contentType });
      if (problem) throw refused(422, 'INVALID_ATTACHMENT_OBJECT', problem);
      const blob = await service.attachments.files.put(bytes);
      // The record is read again after the file is stored: another write may have changed it meanwhile.
      const rec = service.records.get(table, recordId);
      if (!rec) throw recordNotFound();
      const had = Array.isArray(rec.data[field.id]) ? (rec.data[field.id] as { id: string }[]) : [];
      // Named by its own signed URL, the one way a write adds a file (see toAttachments in store/cells.ts).
      const url =
        service.attachments.origin +
        service.attachments.signer.sign({
          hash: blob.hash,
          variant: 'file',
          filename,
          type: contentType.toLowerCase(),
        });
      const [saved] = service.records.update(table, [
        { id: recordId, fields: { [field.id]: [...had.map((a) => ({ id: a.id })), { url, filename }] } },
      ]);
      return renderRecord(table, saved!, writeRender(service, false));
    },
  );

  // Signed links only: no key is asked for (an <img> cannot send one), the signature is the credential.
  app.route<{
    Params: { hash: string; variant: string; filename: string };
    Querystring: Record<string, unknown>;
  }>({
    method: 'GET',
    url: `${FILES_PREFIX}:hash/:variant/:filename`,
    handler: async (req, reply) => {
      // The file, variant and name come from the path alone, the one part the signature covers as served.
      const { type, expires: until, signature } = req.query;
      const verdict = service.attachments.signer.verify({ ...req.params, type, expires: until, signature });
      if (!verdict.ok)
        throw verdict.why === 'expired'
          ? refused(
              403,
              'ATTACHMENT_URL_EXPIRED',
              'This attachment link has expired; read the record again for a new link',
            )
          : refused(403, 'INVALID_ATTACHMENT_URL', 'This attachment link is not valid');
      const { ref, expires } = verdict;
      const path = service.attachments.files.path(ref.hash, ref.variant);
      if (!existsSync(path)) throw refused(404, 'NOT_FOUND', 'This file is no longer stored');
      const inline = INLINE_TYPES.has(ref.type);
      return (
        reply
          // A type stored before its checks (or by a route that missed them) never breaks the header.
          .header('content-type', isContentType(ref.type) ? ref.type : 'application/octet-stream')
          .header('content-disposition', disposition(inline ? 'inline' : 'attachment', ref.filename))
          .header('x-content-type-options', 'nosniff')
          // Even if a browser were to render it, the file runs no script and loads nothing.
          .header('content-security-policy', "default-src 'none'; sandbox")
          .header('cross-origin-resource-policy', 'cross-origin')
          .header(
            'cache-control',
            `private, max-age=${Math.max(0, Math.floor((expires - Date.now()) / 1000))}`,
          )
          .send(createReadStream(path))
      );
    },
  });
}
