/**
 * A table tab's attachment uploads: a file is checked (size, type) before anything is sent, handed to the
 * services in parts that fit a WebSocket frame, then sent through the edit services, which journal it like a
 * create. The tracker keeps what the progress bar shows: each upload's bytes sent, its state and its failure.
 */
import type { TableDeskApi } from '../../../../core/contract';
import { UPLOAD_PART_BYTES } from '../../../../core/contract/attachments';
import { toBase64 } from '../../../../core/api/upload';
import { uploadProblem } from '../../../../core/records/attachments';
import { errorMessage } from '../../api/call-errors';
import type { EditTarget } from '../../editing/edit-store';
import { sameTarget } from '../../editing/edit-store';

export interface UploadEntry {
  key: string;
  recordId: string;
  field: string;
  filename: string;
  sent: number;
  total: number;
  state: 'reading' | 'staged' | 'queued' | 'sending' | 'done' | 'failed' | 'refused';
  error?: string;
}

/** What a drop or a file input hands over, where either side is a browser File. */
export interface FileSource {
  name: string;
  size: number;
  type: string;
  slice(start: number, end: number): Blob;
}

export class UploadTracker {
  private entries: UploadEntry[] = [];
  private readonly listeners = new Set<(entries: readonly UploadEntry[]) => void>();
  private readonly off: () => void;
  private seq = 0;
  /** Which door the app came through: Electron picks files with its own dialog. */
  door: 'electron' | 'browser' | undefined;

  constructor(
    private readonly api: TableDeskApi,
    private readonly target: EditTarget,
  ) {
    api.call('app.info', {}).then(
      (info) => (this.door = info.door),
      () => undefined,
    );
    this.off = api.on('attachments.progress', (p) => {
      if (!sameTarget(p.target, target)) return;
      // An upload of unknown outcome is listed by the edit notices, with "I have checked", like a create.
      if (p.state === 'uncertain') return this.dismiss(p.uploadId);
      this.patch(p.uploadId, {
        sent: p.sent,
        total: p.total,
        state: p.state,
        ...(p.error ? { error: p.error.message } : {}),
      });
    });
  }

  list(): readonly UploadEntry[] {
    return this.entries;
  }

  subscribe(fn: (entries: readonly UploadEntry[]) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  dismiss(key: string): void {
    this.set(this.entries.filter((e) => e.key !== key));
  }

  dispose(): void {
    this.off();
    this.listeners.clear();
  }

  /** Uploads each file in turn; a refused or failed one is listed with why, and the others still go. */
  async upload(recordId: string, field: string, files: readonly FileSource[]): Promise<void> {
    for (const file of files) await this.uploadOne(recordId, field, file);
  }

  /** Electron's open dialog, when the door has one: the services read the file the user picked. */
  async pick(recordId: string, field: string): Promise<boolean> {
    const picked = await this.api.call('attachments.pick', { target: this.target, recordId, field });
    if (!picked.supported) return false;
    if (picked.staged) {
      const { uploadId, filename, size } = picked.staged;
      this.add({ key: uploadId, recordId, field, filename, sent: 0, total: size, state: 'staged' });
      await this.send(uploadId);
    }
    return true;
  }

  /**
   * Electron's Save (the save dialog, then the services fetch the file) and Open (the services hand its current
   * link to the system); false where the door has neither, and the page's link does it. Save answers where
   * the file went (none when the dialog was cancelled).
   */
  async save(recordId: string, field: string, attachmentId: string): Promise<{ filePath?: string } | false> {
    const r = await this.api.call('attachments.save', { target: this.target, recordId, field, attachmentId });
    return r.supported && { ...(r.filePath === undefined ? {} : { filePath: r.filePath }) };
  }

  async open(recordId: string, field: string, attachmentId: string): Promise<boolean> {
    const r = await this.api.call('attachments.open', { target: this.target, recordId, field, attachmentId });
    return r.supported;
  }

  private async uploadOne(recordId: string, field: string, file: FileSource): Promise<void> {
    // Files the OS gives no type still go, as bytes; the local server serves them as downloads.
    const type = file.type || 'application/octet-stream';
    const base = { recordId, field, filename: file.name, sent: 0, total: file.size };
    const problem = uploadProblem({ name: file.name, size: file.size, type });
    if (problem) {
      this.add({ ...base, key: `local-${++this.seq}`, state: 'refused', error: problem });
      return;
    }
    let uploadId: string;
    try {
      uploadId = (
        await this.api.call('attachments.stage', {
          target: this.target,
          recordId,
          field,
          filename: file.name,
          contentType: type,
          size: file.size,
        })
      ).uploadId;
    } catch (e) {
      this.add({ ...base, key: `local-${++this.seq}`, state: 'refused', error: errorMessage(e) });
      return;
    }
    this.add({ ...base, key: uploadId, state: 'reading' });
    try {
      for (let offset = 0; offset < file.size; offset += UPLOAD_PART_BYTES) {
        const part = new Uint8Array(await file.slice(offset, offset + UPLOAD_PART_BYTES).arrayBuffer());
        await this.api.call('attachments.part', { uploadId, offset, data: toBase64(part) });
      }
    } catch (e) {
      void this.api.call('attachments.cancel', { uploadId }).catch(() => undefined);
      this.patch(uploadId, { state: 'failed', error: errorMessage(e) });
      return;
    }
    await this.send(uploadId);
  }

  private async send(uploadId: string): Promise<void> {
    try {
      await this.api.call('attachments.send', { uploadId });
      // Done: the cell shows the file; the bar lets it go.
      this.dismiss(uploadId);
    } catch (e) {
      // One of unknown outcome has left the list already (see the constructor); patch finds no entry then.
      this.patch(uploadId, { state: 'failed', error: errorMessage(e) });
    }
  }

  private add(entry: UploadEntry): void {
    this.set([...this.entries, entry]);
  }

  private patch(key: string, patch: Partial<UploadEntry>): void {
    if (!this.entries.some((e) => e.key === key)) return;
    this.set(this.entries.map((e) => (e.key === key ? { ...e, ...patch } : e)));
  }

  private set(entries: UploadEntry[]): void {
    this.entries = entries;
    for (const fn of this.listeners) fn(entries);
  }
}
