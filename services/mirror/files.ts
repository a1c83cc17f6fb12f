/**
 * Attachment files of a mirror: the service's files downloaded into the local server's file store (named by
 * hash, as the service's URLs expire within hours), links kept where a download fails and tried again by each
 * sync, and files attached here uploaded to the service before a push's merge.
 */
import type { TableClient } from '../../core/api/index';
import type { FieldSchema, RecordData, TableSchema } from '../../core/records/types';
import { boundedBody } from '../../core/api/bounded-body';
import { StallWatch } from '../../core/api/stall-watch';
import { uploadProblem } from '../../core/records/attachments';
import { readRemote } from './remote-read';
import type { CopyFile, EngineContext, Run } from './run';
import { tick } from './run';
import { writableFields } from './values';
import { FileHosts, Refused } from './file-hosts';
import { fetchFile } from './file-fetch';
import { ServiceError } from '../errors';
import { asError } from '../../core/invariant';

const FILE_TRIES = 3;
/**
 * A download is bounded by its progress (see StallWatch): it ends when a window of FILE_STALL_MS brings no
 * answer or less than FILE_STALL_BYTES (about 1 KB/s), so a big file on a slow line arrives however long it
 * takes, and a host that holds the connection or answers in drips costs one window.
 */
const FILE_STALL_MS = 30_000;
const FILE_STALL_BYTES = 32 * 1024;
/**
 * Stalls of one file host after which its other files in the run wait as links: a host answering every file
 * in drips costs a run two windows, not one per attachment; one endless file (a service other than Airtable
 * serves every file from its one origin) ends at the size limit, and the other files still arrive.
 */
const SLOW_HOST_STALLS = 2;
/** The local server's file route takes up to 100 MB (server/http/mirror-routes.ts). */
const MAX_FILE_BYTES = 100 * 1024 * 1024;

/** An attachment as the service sends it. */
interface RemoteFile {
  id: string;
  url: string;
  filename: string;
  type?: string;
  size?: number;
}

class TooLarge extends ServiceError {
  constructor(message: string) {
    super('network', message);
  }
}

export const cellOf = (r: RecordData, f: FieldSchema): CopyFile[] =>
  Array.isArray(r.fields[f.id]) ? (r.fields[f.id] as CopyFile[]) : [];

export class MirrorFiles {
  private readonly hosts = new Map<string, FileHosts>();

  constructor(private readonly ctx: EngineContext) {}

  /** The file hosts of the run's service (see file-hosts.ts), made once per service. */
  private hostsOf(run: Run): FileHosts {
    const serviceUrl = run.client.baseUrl;
    let hosts = this.hosts.get(serviceUrl);
    if (!hosts) this.hosts.set(serviceUrl, (hosts = new FileHosts(serviceUrl)));
    return hosts;
  }

  /**
   * Remote records in the form the copy stores: attachment files downloaded (once per attachment id) into
   * the local server's file store and named by hash, as Airtable's URLs expire within hours. An attachment
   * whose file cannot be downloaded does not stop the pull: its record is copied with the attachment as a
   * link only (see server/store/mirror-writes.ts), noted as missing, and tried again by the next sync.
   */
  async withFiles(run: Run, table: TableSchema, records: RecordData[]): Promise<RecordData[]> {
    const fields = table.fields.filter((f) => f.type === 'multipleAttachments');
    if (fields.length === 0) return records;
    const out: RecordData[] = [];
    for (const r of records) {
      const copy: RecordData = { ...r, fields: { ...r.fields } };
      for (const f of fields) {
        const list = r.fields[f.id];
        if (!Array.isArray(list)) continue;
        const items: CopyFile[] = [];
        for (const item of list as RemoteFile[]) items.push(await this.fileOf(run, table, r.id, item));
        copy.fields[f.id] = items;
      }
      out.push(copy);
    }
    return out;
  }

  /** One attachment as the copy stores it: by file hash, or (its download failed) a link only. */
  private async fileOf(run: Run, table: TableSchema, recordId: string, item: RemoteFile): Promise<CopyFile> {
    const m = run.mirror;
    let hash = this.ctx.store.fileHash(item.id);
    // A download that failed in this run is not tried again in it (a push's answers name the same files).
    if (hash === undefined && !run.failedFiles.has(item.id)) {
      run.progress.phase = 'files';
      const bytes = await this.download(run, item.url).catch((e: unknown) => {
        if (run.signal.aborted) throw e;
        run.failedFiles.add(item.id);
        return undefined;
      });
      if (bytes) {
        hash = (await this.ctx.local.file(bytes)).hash;
        this.ctx.store.noteFile(item.id, hash);
        run.progress.files++;
      }
      run.report();
    }
    const named = { id: item.id, filename: item.filename, type: item.type ?? '' };
    let form: CopyFile;
    if (hash !== undefined) form = { ...named, blob: hash };
    else {
      form = { ...named, url: item.url, ...(item.size === undefined ? {} : { size: item.size }) };
      this.ctx.store.noteMissing(m.id, table.id, recordId, item.id);
      run.progress.filesMissing = this.ctx.store.missingCount(m.id);
    }
    run.files.set(item.id, form);
    return form;
  }

  /**
   * Attachments copied as links only, once their tables are pulled: those this run has not seen are read
   * again from the service (100 records a request), which gives their URLs freshly signed, and downloaded.
   * The copy and the merge base then take each file (or its newer URL) in place of the old link, item by
   * item: the merge compares attachments by id and name only, so a file arriving is never a change.
   */
  async retryFiles(
    run: Run,
    table: TableSchema,
    remote: TableClient,
    mine?: Map<string, RecordData>,
  ): Promise<void> {
    const m = run.mirror;
    const rows = this.ctx.store.missing(m.id, table.id);
    if (rows.length === 0) return;
    const unseen = [...new Set(rows.filter((r) => !run.files.has(r.attachmentId)).map((r) => r.recordId))];
    if (unseen.length > 0)
      await this.withFiles(run, table, [...(await readRemote(run, remote, unseen)).values()]);
    const copy =
      mine ?? new Map((await this.ctx.local.records(m.sourceBaseId, table.id)).map((r) => [r.id, r]));
    const fields = table.fields.filter((f) => f.type === 'multipleAttachments');
    const patch = (r: RecordData): RecordData | undefined => {
      let changed = false;
      const out: RecordData = { ...r, fields: { ...r.fields } };
      for (const f of fields) {
        const list = r.fields[f.id];
        if (!Array.isArray(list)) continue;
        out.fields[f.id] = (list as CopyFile[]).map((item) => {
          const form = run.files.get(item.id);
          if (!form || (form.blob === undefined ? form.url === item.url : form.blob === item.blob))
            return item;
          changed = true;
          return form;
        });
      }
      return changed ? out : undefined;
    };
    const records = [...new Set(rows.map((r) => r.recordId))];
    const puts = records.flatMap((id) => {
      const r = copy.get(id);
      const patched = r && patch(r);
      return patched ? [patched] : [];
    });
    await this.ctx.local.put(m.sourceBaseId, table.id, puts);
    for (const r of puts) copy.set(r.id, r);
    this.ctx.store.transaction(() => {
      for (const id of records) {
        const base = this.ctx.store.baseRecord(m.id, id);
        const patched = base && patch(base);
        if (patched) this.ctx.store.setBase(m.id, table.id, patched);
      }
      // Downloaded now, or no longer on the service (the pull applies that as any other change).
      for (const r of rows)
        if (run.files.get(r.attachmentId)?.blob !== undefined || !run.files.has(r.attachmentId))
          this.ctx.store.dropMissing(m.id, r.attachmentId);
    });
    run.progress.filesMissing = this.ctx.store.missingCount(m.id);
    run.report();
  }

  /**
   * Attachment URLs are signed links to the service's file host: no key, no throttle (not the API). Each
   * download is bounded in progress (a stall window) and size, and fetched only from the service's file hosts;
   * a refused URL, a 4xx (a 404, a 403 of an expired signature), a stall or a file too large is not tried again
   * in this run, a dropped connection or a 5xx twice more.
   */
  private async download(run: Run, url: string): Promise<Buffer> {
    const limit = this.ctx.deps.maxFileBytes ?? MAX_FILE_BYTES;
    const tooLarge = () => new TooLarge(`The attachment is larger than ${limit} bytes`);
    const origin = URL.canParse(url) ? new URL(url).origin : url;
    if ((run.slowHosts.get(origin) ?? 0) >= SLOW_HOST_STALLS)
      throw new ServiceError('network', `Downloads from ${origin} stalled earlier in this run`);
    const windowMs = this.ctx.deps.fileStallMs ?? FILE_STALL_MS;
    let last: unknown;
    for (let i = 0; i < FILE_TRIES; i++) {
      const watch = new StallWatch(
        { windowMs, minBytes: FILE_STALL_BYTES },
        () =>
          new ServiceError(
            'network',
            `Downloading an attachment stalled (less than ${FILE_STALL_BYTES} bytes in ${windowMs / 1000} s)`,
          ),
        run.signal,
      );
      try {
        const res = await fetchFile(this.hostsOf(run), url, watch.signal);
        watch.answered();
        if (res.ok) {
          const bytes = await boundedBody(res, limit, tooLarge, (n) => watch.moved(n));
          return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        }
        await res.body?.cancel();
        last = new ServiceError('network', `Downloading an attachment failed: ${res.status}`);
        if (res.status < 500) break;
      } catch (e) {
        if (run.signal.aborted) throw e;
        last = watch.error(e);
        if (watch.hasStalled) run.slowHosts.set(origin, (run.slowHosts.get(origin) ?? 0) + 1);
        if (watch.hasStalled || e instanceof TooLarge || e instanceof Refused) break;
      } finally {
        watch.stop();
      }
      await new Promise((r) => setTimeout(r, 500 * (i + 1)));
    }
    throw asError(last);
  }

  /**
   * Files attached here (in the copy, neither at the merge base nor on the service) go to the service before
   * the merge, by uploadAttachment as the app's own uploads go: the bytes, since the service cannot fetch a
   * link to this computer's local server. Each is noted before it is sent. The copy's attachment then takes
   * the service's id, and the merge is shown the service's cell without it, so the cell is mine over an
   * unchanged remote and the PATCH that follows sets it in my order, keeping the file by id; the base then
   * moves to the answer. An upload whose answer was lost is looked for in the service's cell (read after it
   * was sent) as a new attachment of the same name and size, and adopted; only when there is none is it sent
   * again. A file the service cannot take (over 5 MB, a name it refuses) stays here and is not sent.
   */
  async sendFiles(
    run: Run,
    table: TableSchema,
    ids: string[],
    copy: Map<string, RecordData>,
    theirs: Map<string, RecordData>,
  ): Promise<void> {
    const m = run.mirror;
    const fields = writableFields(table).filter((f) => f.type === 'multipleAttachments');
    if (fields.length === 0) return;
    for (const id of ids) {
      const mine = copy.get(id);
      const t = theirs.get(id);
      const base = this.ctx.store.baseRecord(m.id, id);
      if (!mine || !t || !base) continue;
      const next: RecordData = { ...mine, fields: { ...mine.fields } };
      const done: string[] = [];
      for (const f of fields) {
        const items = cellOf(mine, f);
        const known = new Set([...cellOf(base, f), ...cellOf(t, f)].map((a) => a.id));
        const added = items.filter((a) => !known.has(a.id));
        if (added.length === 0) continue;
        const renamed = new Map<string, CopyFile>();
        for (const a of added) {
          const sent = await this.sendFile(run, table, f, id, a, cellOf(base, f), t);
          if (sent) renamed.set(a.id, sent);
        }
        if (renamed.size === 0) continue;
        next.fields[f.id] = items.map((a) => renamed.get(a.id) ?? a);
        const uploaded = new Set([...renamed.values()].map((a) => a.id));
        t.fields[f.id] = cellOf(t, f).filter((a) => !uploaded.has(a.id));
        done.push(...renamed.keys());
      }
      if (done.length === 0) continue;
      await this.ctx.local.put(m.sourceBaseId, table.id, [next]);
      copy.set(id, next);
      for (const localId of done) this.ctx.store.dropUpload(m.id, localId);
    }
  }

  /** One file of the copy sent to the service (see sendFiles): its form under the service's id. */
  private async sendFile(
    run: Run,
    table: TableSchema,
    field: FieldSchema,
    recordId: string,
    a: CopyFile,
    base: CopyFile[],
    theirs: RecordData,
  ): Promise<CopyFile | undefined> {
    const m = run.mirror;
    const file = { name: a.filename, size: a.size ?? 0, type: a.type || 'application/octet-stream' };
    if (a.url === undefined || uploadProblem(file) !== undefined) {
      run.unsentFiles.add(a.id);
      return undefined;
    }
    const bytes = await this.ctx.local.download(a.url);
    const pending = this.ctx.store.upload(m.id, a.id);
    let remoteId = pending?.remoteId;
    if (remoteId === undefined && pending) {
      const had = new Set(base.map((x) => x.id));
      remoteId = cellOf(theirs, field).find(
        (x) => !had.has(x.id) && x.filename === a.filename && x.size === bytes.length,
      )?.id;
    }
    if (remoteId === undefined) {
      this.ctx.store.noteUpload(m.id, table.id, a.id, this.ctx.now());
      const answer = await run.client.uploadAttachment(
        m.sourceBaseId,
        recordId,
        field.id,
        { filename: a.filename, contentType: file.type, bytes },
        { signal: run.signal },
      );
      tick(run);
      const had = new Set(cellOf(theirs, field).map((x) => x.id));
      const cell = (answer.fields[field.id] ?? answer.fields[field.name]) as CopyFile[] | undefined;
      remoteId = (Array.isArray(cell) ? cell : [])
        .filter((x) => !had.has(x.id) && x.filename === a.filename)
        .at(-1)?.id;
      if (remoteId === undefined)
        throw new ServiceError('network', `The service did not attach ${a.filename}`);
      this.ctx.store.uploadedAs(m.id, a.id, remoteId);
    }
    const hash = (await this.ctx.local.file(bytes)).hash;
    this.ctx.store.noteFile(remoteId, hash);
    return { id: remoteId, filename: a.filename, type: a.type, blob: hash };
  }
}
