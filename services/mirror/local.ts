/**
 * The mirror's side of the local server's private write path (server/http/mirror-routes.ts): the copy's
 * schema, records by id, deletions, renames and files. Loopback only, with the server's own key; not
 * throttled (the server does not rate-limit these routes), with a few retries for a server that is busy. Every
 * call is bounded in time by a stall window and in size (LOCAL_STALL_MS, MAX_LOCAL_ANSWER_BYTES).
 * Not the service either, so not metered: the copy is this machine's own server, which has no allowance or
 * per-second limit; every call of a mirror to the service goes through the connection's client (purpose
 * `offline`), whose throttle and request budget see it.
 */
import type { RecordData, TableSchema } from '../../core/records/types';
import { ServiceError } from '../errors';
import { asError } from '../../core/invariant';
import { MAX_FILE_BYTES, MAX_MOVED as MOVE_CHUNK, MAX_RECORDS_BODY } from '../../server/http/mirror-routes';
import { boundedBody } from '../../core/api/bounded-body';
import { StallWatch } from '../../core/api/stall-watch';

export interface LocalTarget {
  url: string;
  apiKey: string;
}

export interface LocalBlob {
  hash: string;
  size: number;
}

/**
 * The local server refused a write of the copy (a 4xx): what the service sent is something the copy cannot
 * hold. Final: sending it again would be refused again.
 */
export class LocalRefusal extends ServiceError {
  /**
   * Of a write of records, those the local server took before it refused (earlier requests of the write;
   * each request is all or nothing): the others are not in the copy as the write had them.
   */
  taken: ReadonlySet<string> = new Set();

  constructor(why: string) {
    super('invalid-request', `The offline copy cannot hold what the service sent (${why})`);
  }
}

const READ_PAGE = 1000;
/** Records per write: a page of the hosted service is 100, so a write is never large. */
const WRITE_CHUNK = 500;
/** Bytes of records a write carries: half the route's bound, which leaves room for the rest of its body. */
const WRITE_BYTES = MAX_RECORDS_BODY / 2;
/** The largest record the route takes, alone in a write: its bound, less room for the rest of the body. */
const RECORD_BYTES = MAX_RECORDS_BODY - 64 * 1024;

/**
 * Records in writes of at most WRITE_CHUNK records and WRITE_BYTES of JSON (a record larger than that alone).
 * A record past RECORD_BYTES refuses the whole write before any of it is sent, naming the record, rather than
 * being left out: a copy said ready holds every record of the service, and the merge would take one left out
 * for made there at each run. The pull ends with this error, as for any cell the copy cannot hold.
 */
function writeChunks(tableId: string, records: RecordData[]): RecordData[][] {
  const sizes = records.map((r) => Buffer.byteLength(JSON.stringify(r.fields)));
  sizes.forEach((size, i) => {
    if (size > RECORD_BYTES)
      throw new LocalRefusal(
        `record ${records[i]!.id} of table ${tableId} is ${size} bytes, over the ${RECORD_BYTES} bytes a record of the copy may hold`,
      );
  });
  const chunks: RecordData[][] = [];
  let chunk: RecordData[] = [];
  let bytes = 0;
  records.forEach((r, i) => {
    if (chunk.length > 0 && (chunk.length >= WRITE_CHUNK || bytes + sizes[i]! > WRITE_BYTES)) {
      chunks.push(chunk);
      chunk = [];
      bytes = 0;
    }
    chunk.push(r);
    bytes += sizes[i]!;
  });
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/**
 * The most of an answer of the local server read: past it the answer is cut as it arrives, so a broken or
 * stand-in server on the local port cannot fill memory.
 */
export const MAX_LOCAL_ANSWER_BYTES = 64 * 1024 * 1024;

/** An answer the mirror cannot read (too large, not JSON): final, as reading it again reads the same. */
class Unreadable extends ServiceError {
  constructor(message: string) {
    super('network', message);
  }
}

/**
 * The local server's stall window (see StallWatch): an answer that has not begun within it (a server that
 * holds the connection, or hangs on a request) or whose body brings less than a MiB in one ends the call,
 * never retried (a write that stalled may have been done). Its writes are bounded to about a second of work,
 * so a window that passes empty means a server that no longer answers.
 */
export const LOCAL_STALL_MS = 30_000;
const LOCAL_STALL_BYTES = 1024 * 1024;

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

export class LocalCopy {
  /** The modification time of each record as read here (a record derived from it is another object). */
  private readonly versions = new WeakMap<RecordData, string>();

  constructor(
    private readonly target: LocalTarget,
    private readonly fetchFn: typeof fetch = (input, init) => globalThis.fetch(input, init),
    private readonly stallMs = LOCAL_STALL_MS,
  ) {}

  /**
   * One request to the local server, bounded by its progress (LOCAL_STALL_MS) and its answer's size: its
   * answer and the answer's bytes.
   */
  private async exchange(
    url: string,
    init: RequestInit,
    what: string,
    limit: number,
  ): Promise<{ res: Response; bytes: Uint8Array }> {
    const watch = new StallWatch(
      { windowMs: this.stallMs, minBytes: LOCAL_STALL_BYTES },
      () =>
        new Unreadable(`The local server stopped answering ${what} (nothing for ${this.stallMs / 1000} s)`),
    );
    try {
      const res = await this.fetchFn(url, { ...init, signal: watch.signal });
      watch.answered();
      const bytes = await boundedBody(
        res,
        limit,
        () => new Unreadable(`The local server answered ${what} with more than ${limit} bytes`),
        (n) => watch.moved(n),
      );
      return { res, bytes };
    } catch (e) {
      throw watch.error(e);
    } finally {
      watch.stop();
    }
  }

  /** An answer and its text, read with MAX_LOCAL_ANSWER_BYTES. */
  private async answer(
    url: string,
    init: RequestInit,
    what: string,
  ): Promise<{ res: Response; text: string }> {
    const { res, bytes } = await this.exchange(url, init, what, MAX_LOCAL_ANSWER_BYTES);
    return { res, text: new TextDecoder().decode(bytes) };
  }

  private async call<T>(method: string, path: string, body?: unknown, raw?: Buffer): Promise<T> {
    let last: unknown;
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const { res, text } = await this.answer(
          `${this.target.url}/_tabledesk/mirror${path}`,
          {
            method,
            headers: {
              authorization: `Bearer ${this.target.apiKey}`,
              ...(raw
                ? { 'content-type': 'application/octet-stream' }
                : body === undefined
                  ? {}
                  : { 'content-type': 'application/json' }),
            },
            // A copy backed by its own ArrayBuffer: the DOM typings (Electron, e2e) refuse a Buffer as a body.
            body: raw ? Uint8Array.from(raw) : body === undefined ? undefined : JSON.stringify(body),
          },
          `${method} ${path}`,
        );
        if (res.ok) {
          const answer = parsed(text);
          if (answer === undefined)
            throw new Unreadable(`The local server answered ${method} ${path} with a body that is not JSON`);
          return answer as T;
        }
        if (res.status < 500)
          throw new LocalRefusal(
            `the local server refused ${method} ${path}: ${res.status} ${text.slice(0, 300)}`,
          );
        last = new ServiceError(
          'network',
          `The local copy refused ${method} ${path}: ${res.status} ${text.slice(0, 300)}`,
        );
      } catch (e) {
        if (e instanceof LocalRefusal || e instanceof Unreadable) throw e;
        last = e;
      }
      await new Promise((r) => setTimeout(r, 200 * (attempt + 1)));
    }
    throw asError(last);
  }

  applySchema(
    baseId: string,
    name: string,
    tables: TableSchema[],
    outside: ReadonlySet<string> = new Set(),
  ): Promise<{ skipped: { id: string; name: string; type: string }[] }> {
    const body = {
      name,
      tables: tables.map((t) => ({
        id: t.id,
        ...(outside.has(t.id) ? { outside: true } : {}),
        name: t.name,
        ...(t.description ? { description: t.description } : {}),
        primaryFieldId: t.primaryFieldId,
        fields: t.fields.map((f) => ({
          id: f.id,
          name: f.name,
          type: f.type,
          ...(f.description ? { description: f.description } : {}),
          ...(f.options ? { options: f.options } : {}),
        })),
        views: t.views.map((v) => {
          const sort = (v.tabledesk?.sort ?? [])
            .map((s) => ({ fieldId: t.fields.find((f) => f.name === s.field)?.id, direction: s.direction }))
            .filter((s): s is { fieldId: string; direction: 'asc' | 'desc' } => s.fieldId !== undefined);
          return {
            id: v.id,
            name: v.name,
            type: v.type,
            ...(v.tabledesk?.filterByFormula ? { filterByFormula: v.tabledesk.filterByFormula } : {}),
            ...(sort.length > 0 ? { sort } : {}),
          };
        }),
      })),
    };
    return this.call('PUT', `/bases/${baseId}`, body);
  }

  /** Removes a copy: its base, tables and records (its files go when the server next starts). */
  async dropBase(baseId: string): Promise<void> {
    await this.call('DELETE', `/bases/${baseId}`);
  }

  /**
   * Writes records whole. With `unchangedSince` (the records as this copy gave them), a record written here since
   * it was read is skipped: answers the ids skipped. The records written count as read at their new time.
   */
  async put(
    baseId: string,
    tableId: string,
    records: RecordData[],
    unchangedSince?: ReadonlyMap<string, RecordData>,
  ): Promise<Set<string>> {
    const skipped = new Set<string>();
    const taken = new Set<string>();
    for (const list of writeChunks(tableId, records)) {
      const chunk = list.map((r) => ({ id: r.id, createdTime: r.createdTime, fields: r.fields }));
      const answer = await this.call<{ skipped?: string[]; modifiedTime?: string }>(
        'POST',
        `/bases/${baseId}/tables/${tableId}/records`,
        {
          records: chunk,
          ...this.expect(
            list.map((r) => r.id),
            unchangedSince,
          ),
        },
      ).catch((e: unknown) => {
        if (e instanceof LocalRefusal) e.taken = taken;
        throw e;
      });
      for (const id of answer.skipped ?? []) skipped.add(id);
      for (const r of list) if (!skipped.has(r.id)) taken.add(r.id);
      if (answer.modifiedTime !== undefined)
        for (const r of list) if (!skipped.has(r.id)) this.versions.set(r, answer.modifiedTime);
    }
    return skipped;
  }

  /** Deletes records; `unchangedSince` as for put (a record written here since it was read is kept). */
  async delete(
    baseId: string,
    tableId: string,
    ids: string[],
    unchangedSince?: ReadonlyMap<string, RecordData>,
  ): Promise<Set<string>> {
    const skipped = new Set<string>();
    for (let i = 0; i < ids.length; i += WRITE_CHUNK) {
      const chunk = ids.slice(i, i + WRITE_CHUNK);
      const answer = await this.call<{ skipped?: string[] }>(
        'POST',
        `/bases/${baseId}/tables/${tableId}/delete`,
        { ids: chunk, ...this.expect(chunk, unchangedSince) },
      );
      for (const id of answer.skipped ?? []) skipped.add(id);
    }
    return skipped;
  }

  /** The modification times, as read, of the records of `ids` that `read` holds. */
  private expect(ids: string[], read?: ReadonlyMap<string, RecordData>): { expect?: Record<string, string> } {
    if (read === undefined) return {};
    const expect: Record<string, string> = {};
    for (const id of ids) {
      const r = read.get(id);
      const version = r && this.versions.get(r);
      if (version !== undefined) expect[id] = version;
    }
    return { expect };
  }

  /** Moves records to the end of the table's order (a list without a sort), in the order given. */
  async moveToEnd(baseId: string, tableId: string, ids: readonly string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += MOVE_CHUNK)
      await this.call('POST', `/bases/${baseId}/tables/${tableId}/move-to-end`, {
        ids: ids.slice(i, i + MOVE_CHUNK),
      });
  }

  async rename(baseId: string, tableId: string, from: string, to: RecordData): Promise<void> {
    const body = { from, to: to.id, createdTime: to.createdTime };
    await this.call('POST', `/bases/${baseId}/tables/${tableId}/rename`, body);
  }

  /** The pages of a keyset walk of the private path (`path` takes the row to go on from). */
  private async *pages<P extends { after?: number }>(path: (after: number) => string): AsyncGenerator<P> {
    let after: number | undefined = 0;
    while (after !== undefined) {
      const page: P = await this.call<P>('GET', path(after));
      yield page;
      after = page.after;
    }
  }

  /** Every record of a table in the copy, by field id (each noted with its modification time, see put). */
  async records(baseId: string, tableId: string): Promise<RecordData[]> {
    const out: RecordData[] = [];
    for await (const page of this.pages<{
      records: (RecordData & { modifiedTime?: string })[];
      after?: number;
    }>((after) => `/bases/${baseId}/tables/${tableId}/records?after=${after}&limit=${READ_PAGE}`))
      for (const { modifiedTime, ...r } of page.records) {
        if (typeof modifiedTime === 'string') this.versions.set(r, modifiedTime);
        out.push(r);
      }
    return out;
  }

  /**
   * A table of the copy as far as local changes go: every id, and the records written here since the mirror
   * wrote them (or made here), without the records nobody touched.
   */
  async touched(baseId: string, tableId: string): Promise<{ ids: string[]; touched: RecordData[] }> {
    const ids: string[] = [];
    const touched: RecordData[] = [];
    for await (const page of this.pages<{ ids: string[]; touched: RecordData[]; after?: number }>(
      (after) => `/bases/${baseId}/tables/${tableId}/touched?after=${after}`,
    )) {
      ids.push(...page.ids);
      touched.push(...page.touched);
    }
    return { ids, touched };
  }

  /**
   * The ids of the local server's bases (its own and the copies), from its Web API. An answer that is not a
   * list of bases (a refusal, a server that is not the local server) is an error, never taken for none.
   */
  async baseIds(): Promise<string[]> {
    const what = 'GET /v0/meta/bases';
    const { res, text } = await this.answer(
      `${this.target.url}/v0/meta/bases`,
      { headers: { authorization: `Bearer ${this.target.apiKey}` } },
      what,
    );
    if (!res.ok) throw new ServiceError('network', `The local server refused ${what}: ${res.status}`);
    const bases = (parsed(text) as { bases?: unknown } | undefined)?.bases;
    if (!Array.isArray(bases) || !bases.every((b) => typeof (b as { id?: unknown })?.id === 'string'))
      throw new ServiceError('network', `The local server answered ${what} with no list of bases`);
    return bases.map((b) => (b as { id: string }).id);
  }

  /** The bytes of a file of the copy, by the signed link the local server gave it. */
  async download(url: string): Promise<Buffer> {
    if (new URL(url).origin !== new URL(this.target.url).origin)
      throw new ServiceError('invalid-request', 'Not a file of the local copy');
    const { res, bytes } = await this.exchange(url, {}, 'a file', MAX_FILE_BYTES);
    if (!res.ok) throw new ServiceError('not-found', `The local copy has no file at ${url}: ${res.status}`);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  file(bytes: Buffer): Promise<LocalBlob> {
    return this.call('POST', '/files', undefined, bytes);
  }
}
