/**
 * Every shape a hostile or broken remote service can answer with, as fault-proxy rules drawn by fast-check:
 * refusals of every status (with and without Retry-After), non-JSON, HTML, truncated, huge and deep bodies,
 * stalls and drips, dropped connections, and the service's own answers rewritten: wrong JSON types in records,
 * cells, offsets, ids and times, repeated and cycling offsets, a record id sent twice, attachment URLs that
 * point elsewhere, and metadata with hostile table and field names or duplicate ids.
 */
import fc from 'fast-check';
import { pipeline, Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { Fault, FaultProxy, ProxiedAnswer, ProxiedRequest } from '../../support/fault-proxy';

/** Which requests a drawn fault meets. */
export type RequestKind = 'bases' | 'schema' | 'list' | 'write' | 'file' | 'any';

const KINDS: Record<RequestKind, (r: ProxiedRequest) => boolean> = {
  bases: (r) => r.method === 'GET' && /^\/v0\/meta\/bases(\?|$)/.test(r.path),
  schema: (r) => r.method === 'GET' && /^\/v0\/meta\/bases\/[^/]+\/tables/.test(r.path),
  list: (r) =>
    (r.method === 'GET' && /^\/v0\/app[^/]+\/[^/?]+(\?|$)/.test(r.path)) ||
    (r.method === 'POST' && r.path.includes('/listRecords')),
  write: (r) => r.method !== 'GET' && r.path.startsWith('/v0/app') && !r.path.includes('/listRecords'),
  file: (r) => r.method === 'GET' && r.path.startsWith('/files/'),
  any: () => true,
};

/** What a rewrite may need of the run. */
export interface ShapeContext {
  /** The sentinel's URL, where no download may go. */
  sentinel: string;
}

export interface DrawnFault {
  label: string;
  kind: RequestKind;
  /** The first matching request it meets (0: the first). */
  nth: number;
  /** How many matching requests, from there (Infinity: all). */
  times: number;
  fault(ctx: ShapeContext): Fault;
}

/**
 * Installs drawn faults on the proxy, each on the exact requests it names (the service names its files at the
 * proxy's origin, so faults on files meet downloads too).
 */
export function install(proxy: FaultProxy, faults: DrawnFault[], ctx: ShapeContext): void {
  for (const f of faults) {
    let seen = 0;
    proxy.inject(f.fault(ctx), { match: (r) => KINDS[f.kind](r) && seen++ >= f.nth, times: f.times });
  }
}

type Json = unknown;
type Obj = Record<string, Json>;
const isObj = (v: Json): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A 200 answer's parsed body; undefined for any other answer, or one that is not JSON. */
function jsonOf(answer: ProxiedAnswer): Json {
  if (answer.status !== 200) return undefined;
  try {
    return JSON.parse(answer.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** A rewrite of a JSON answer's parsed body; an answer that is not JSON (or not 2xx) passes unchanged. */
export function rewriteJson(edit: (body: Json, req: ProxiedRequest) => Json): Fault {
  return {
    type: 'rewrite',
    rewrite(answer: ProxiedAnswer, req) {
      const body = jsonOf(answer);
      if (body === undefined) return answer;
      return { ...answer, body: Buffer.from(JSON.stringify(edit(body, req)), 'utf8') };
    },
  };
}

/** Values of every wrong JSON type, and hostile strings. */
const wrongValue = fc.constantFrom<Json>(
  42,
  -1.5e308,
  true,
  null,
  'text',
  [],
  {},
  [1, 'two', null],
  { id: 7 },
  'x'.repeat(100_000),
  '\u0000',
  '../../../../etc/passwd',
);

/** Values no cell of a writable type holds (a string or a number would be a lie of the right type, not a wrong one). */
const wrongCell = fc.constantFrom<Json>({}, { id: 7 }, [1, 'two', null], [[]], { url: 'http://x' });

const hostileName = fc.constantFrom(
  '/',
  '..',
  '../../escape',
  'a/b',
  'a\u0000b',
  'n'.repeat(10_240),
  '',
  ' ',
);

/** Picks an item of a list by a drawn fraction, so one draw fits lists of any length. */
const pick = <T>(list: T[], at: number): T | undefined => list[Math.floor(at * list.length)];
const at = fc.double({ min: 0, max: 0.999, noNaN: true });

/** A rewrite of a list answer's records; `at` picks the record, `v` a wrong value, `cell` a wrong cell. */
export interface RecordEdit {
  label: string;
  edit: (body: Json, at: number, v: Json, cell: Json) => Json;
}

export const RECORD_EDITS: RecordEdit[] = [
  {
    label: 'records not a list',
    edit: (b: Json, _a: number, v: Json) => (isObj(b) ? { ...b, records: v } : b),
  },
  {
    label: 'a record not an object',
    edit: (b: Json, a: number, v: Json) => withRecord(b, a, () => v),
  },
  {
    label: 'a record id of a wrong type',
    edit: (b: Json, a: number, v: Json) => withRecord(b, a, (r) => ({ ...r, id: v })),
  },
  {
    label: 'fields of a wrong type',
    edit: (b: Json, a: number, v: Json) => withRecord(b, a, (r) => ({ ...r, fields: v })),
  },
  {
    label: 'a cell of a wrong type',
    edit: (b: Json, a: number, _v: Json, cell: Json) =>
      withRecord(b, a, (r) => {
        const fields = isObj(r.fields) ? r.fields : {};
        const key = pick(Object.keys(fields), a);
        return key === undefined ? r : { ...r, fields: { ...fields, [key]: cell } };
      }),
  },
  {
    label: 'a createdTime of a wrong type',
    edit: (b: Json, a: number, v: Json) => withRecord(b, a, (r) => ({ ...r, createdTime: v })),
  },
  {
    label: 'a createdTime not a time',
    edit: (b: Json, a: number) =>
      withRecord(b, a, (r) => ({ ...r, createdTime: '2026-13-45T99:99:99.000Z' })),
  },
  {
    label: 'an offset of a wrong type',
    edit: (b: Json, _a: number, v: Json) => (isObj(b) ? { ...b, offset: v } : b),
  },
  {
    label: 'a record id twice in a page',
    edit: (b: Json, a: number) => {
      if (!isObj(b) || !Array.isArray(b.records) || b.records.length < 2) return b;
      const records = [...b.records];
      const i = Math.floor(a * (records.length - 1)) + 1;
      records[i] = { ...(records[i] as Obj), id: (records[0] as Obj).id };
      return { ...b, records };
    },
  },
  {
    label: 'a hostile record id',
    edit: (b: Json, a: number) => withRecord(b, a, (r) => ({ ...r, id: `rec../../${'z'.repeat(20)}\u0000` })),
  },
  {
    label: 'a deep cell',
    edit: (b: Json, a: number) =>
      withRecord(b, a, (r) => ({
        ...r,
        fields: { ...(isObj(r.fields) ? r.fields : {}), Deep: deep(5_000) },
      })),
  },
];
const recordEdits = fc.constantFrom(...RECORD_EDITS);

function withRecord(body: Json, a: number, edit: (r: Obj) => Json): Json {
  if (!isObj(body) || !Array.isArray(body.records) || body.records.length === 0) return body;
  const records = [...body.records];
  const i = Math.floor(a * records.length);
  records[i] = edit(isObj(records[i]) ? (records[i] as Obj) : {});
  return { ...body, records };
}

function deep(n: number): Json {
  let v: Json = 'bottom';
  for (let i = 0; i < n; i++) v = [v];
  return v;
}

/**
 * Offsets that never end: the same offset again, or a cycle of two, across the pages of every chain. The
 * service refuses the offsets forged here, so a page asked by one is answered as the first page of the walk
 * was. With `empty`, every page holds no record, so only the walk's offsets can tell that it goes nowhere.
 */
export function offsetLoop(cycle: boolean, empty = false): Fault {
  const given: string[] = [];
  let first: Obj | undefined;
  return {
    type: 'rewrite',
    rewrite(answer, req) {
      const raw = /[?&]offset=([^&]+)/.exec(req.path)?.[1] ?? /"offset":"([^"]+)"/.exec(req.body)?.[1];
      const asked = raw === undefined ? undefined : decodeURIComponent(raw);
      const i = asked === undefined ? -1 : given.indexOf(asked);
      const body = i >= 0 ? first : jsonOf(answer);
      if (!isObj(body)) return answer;
      first ??= body;
      let offset = asked;
      if (asked === undefined) {
        offset = `itr${given.length}loop/rec${given.length}`;
        given.push(offset);
      } else if (cycle && i >= 0) offset = given[(i + 1) % given.length];
      const page = { ...body, ...(empty ? { records: [] } : {}), offset };
      return { ...answer, status: 200, body: Buffer.from(JSON.stringify(page), 'utf8') };
    },
  };
}

/** The same record ids on every page: each page's first record repeats one a page before sent. */
export function idsAcrossPages(): Fault {
  let first: Obj | undefined;
  return rewriteJson((b) => {
    if (!isObj(b) || !Array.isArray(b.records) || b.records.length === 0) return b;
    const records = [...b.records] as Obj[];
    if (first === undefined) first = records[0];
    else records[records.length - 1] = { ...records[records.length - 1], id: first.id };
    return { ...b, records };
  });
}

/**
 * Attachment URLs that point elsewhere: other hosts, the sentinel (by another name of this machine, and by the
 * service's own host at the sentinel's port), local files, link-local metadata.
 */
export const elsewhere = (sentinel: string) => [
  `${sentinel}/stolen`,
  `http://127.0.0.1:${new URL(sentinel).port}/other-port`,
  'http://169.254.169.254/latest/meta-data/',
  'file:///etc/passwd',
  'http://[::1]:1/x',
  'javascript:alert(1)',
  `http://user:pass@${new URL(sentinel).host}/x`,
  'not a url',
];
const ELSEWHERE = elsewhere('http://x:1').length;

export function attachmentsElsewhere(which: number): (ctx: ShapeContext) => Fault {
  return (ctx) =>
    rewriteJson((b) => {
      if (!isObj(b) || !Array.isArray(b.records)) return b;
      const url = elsewhere(ctx.sentinel)[which % ELSEWHERE]!;
      const records = (b.records as Json[]).map((r) => {
        if (!isObj(r) || !isObj(r.fields)) return r;
        const fields = Object.fromEntries(
          Object.entries(r.fields).map(([k, v]) => [
            k,
            Array.isArray(v) && v.some((x) => isObj(x) && 'url' in x)
              ? v.map((x) =>
                  isObj(x)
                    ? { ...x, url, filename: '../../../escape.png', thumbnails: { small: { url } } }
                    : x,
                )
              : v,
          ]),
        );
        return { ...r, fields };
      });
      return { ...b, records };
    });
}

/** A rewrite of a schema answer; `a` picks the table (and field), `v` a wrong value, `name` a hostile name. */
export interface SchemaEdit {
  label: string;
  edit: (b: Json, a: number, v: Json, name: string) => Json;
}

/** A type of Airtable's shape that the local server does not implement: a copy leaves such a field out. */
export const UNKNOWN_TYPE = 'aiSummaryV9';

export const SCHEMA_EDITS: SchemaEdit[] = [
  {
    label: 'tables not a list',
    edit: (b: Json, _a: number, v: Json) => (isObj(b) ? { ...b, tables: v } : b),
  },
  { label: 'a table not an object', edit: (b: Json, a: number, v: Json) => withTable(b, a, () => v) },
  {
    label: 'a table id of a wrong type',
    edit: (b: Json, a: number, v: Json) => withTable(b, a, (t) => ({ ...t, id: v })),
  },
  {
    label: 'a hostile table name',
    edit: (b: Json, a: number, _v: Json, n: string) => withTable(b, a, (t) => ({ ...t, name: n })),
  },
  {
    label: 'fields of a wrong type',
    edit: (b: Json, a: number, v: Json) => withTable(b, a, (t) => ({ ...t, fields: v })),
  },
  {
    label: 'views of a wrong type',
    edit: (b: Json, a: number, v: Json) => withTable(b, a, (t) => ({ ...t, views: v })),
  },
  {
    label: 'a primary field id of a wrong type',
    edit: (b: Json, a: number, v: Json) => withTable(b, a, (t) => ({ ...t, primaryFieldId: v })),
  },
  {
    label: 'a hostile field name',
    edit: (b: Json, a: number, _v: Json, n: string) => withField(b, a, (f) => ({ ...f, name: n })),
  },
  {
    label: 'a field id of a wrong type',
    edit: (b: Json, a: number, v: Json) => withField(b, a, (f) => ({ ...f, id: v })),
  },
  {
    label: 'a field type of a wrong type',
    edit: (b: Json, a: number, v: Json) => withField(b, a, (f) => ({ ...f, type: v })),
  },
  {
    label: 'a field type this server does not know',
    edit: (b: Json, a: number) => withField(b, a, (f) => ({ ...f, type: UNKNOWN_TYPE })),
  },
  {
    label: 'a primary field type this server does not know',
    edit: (b: Json, a: number) =>
      withTable(b, a, (t) => ({
        ...t,
        fields: Array.isArray(t.fields)
          ? t.fields.map((f: Json) =>
              isObj(f) && f.id === t.primaryFieldId ? { ...f, type: UNKNOWN_TYPE } : f,
            )
          : t.fields,
      })),
  },
  {
    label: 'field options of a wrong type',
    edit: (b: Json, a: number, v: Json) => withField(b, a, (f) => ({ ...f, options: v })),
  },
  {
    label: 'duplicate field ids',
    edit: (b: Json, a: number) =>
      withTable(b, a, (t) => {
        const fields = Array.isArray(t.fields) ? [...(t.fields as Obj[])] : [];
        if (fields.length < 2) return t;
        fields[fields.length - 1] = { ...fields[fields.length - 1], id: fields[0]!.id };
        return { ...t, fields };
      }),
  },
  {
    label: 'duplicate table ids',
    edit: (b: Json) => {
      if (!isObj(b) || !Array.isArray(b.tables) || b.tables.length < 2) return b;
      const tables = [...(b.tables as Obj[])];
      tables[1] = { ...tables[1], id: tables[0]!.id };
      return { ...b, tables };
    },
  },
  {
    label: 'a link to a table that is not there',
    edit: (b: Json, a: number) =>
      withField(b, a, (f) => ({
        ...f,
        type: 'multipleRecordLinks',
        options: { linkedTableId: 'tblNowhere0000000' },
      })),
  },
];
const schemaEdits = fc.constantFrom(...SCHEMA_EDITS);

function withTable(body: Json, a: number, edit: (t: Obj) => Json): Json {
  if (!isObj(body) || !Array.isArray(body.tables) || body.tables.length === 0) return body;
  const tables = [...body.tables];
  const i = Math.floor(a * tables.length);
  tables[i] = edit(isObj(tables[i]) ? (tables[i] as Obj) : {});
  return { ...body, tables };
}

function withField(body: Json, a: number, edit: (f: Obj) => Json): Json {
  return withTable(body, a, (t) => {
    const fields = Array.isArray(t.fields) ? [...t.fields] : [];
    if (fields.length === 0) return t;
    const i = Math.floor(((a * 7919) % 1) * fields.length);
    fields[i] = edit(isObj(fields[i]) ? (fields[i] as Obj) : {});
    return { ...t, fields };
  });
}

const where = fc.constantFrom<RequestKind>('bases', 'schema', 'list', 'list', 'list', 'write', 'file', 'any');
const nth = fc.nat({ max: 4 });
const times = fc.constantFrom(1, 1, 2, 3, Infinity);
const retryAfter = fc.constantFrom<string | undefined>(
  undefined,
  '0',
  '1',
  'soon',
  '3600',
  '99999999',
  'Wed, 21 Oct 2099 07:28:00 GMT',
  '-5',
);

const statusFault: fc.Arbitrary<DrawnFault> = fc
  .record({
    kind: where,
    nth,
    times,
    status: fc.constantFrom(401, 403, 404, 413, 422, 429, 500, 502, 503, 504),
    retryAfter,
    html: fc.boolean(),
  })
  .map(({ kind, nth, times, status, retryAfter, html }) => ({
    label: `${status}${retryAfter === undefined ? '' : ` Retry-After ${retryAfter}`}${html ? ' (HTML)' : ''}`,
    kind,
    nth,
    times,
    fault: () => ({
      type: 'status',
      status,
      ...(retryAfter === undefined ? {} : { retryAfter }),
      ...(html ? { body: `<html><body><h1>${status}</h1>An error page</body></html>` } : {}),
    }),
  }));

/** Answers that are no answer: what each says, and the body (made when sent: some are large). */
export const BODIES: [string, () => string][] = [
  ['not JSON', () => 'hello'],
  ['an empty body', () => ''],
  ['an HTML page', () => '<!doctype html><html><body>Gateway timeout</body></html>'],
  ['truncated JSON', () => '{"records":[{"id":"rec1","fields":{"Na'],
  ['JSON null', () => 'null'],
  ['a JSON string', () => '"records"'],
  ['a deep body', () => '['.repeat(100_000) + ']'.repeat(100_000)],
  ['a huge body', () => `{"records":[],"pad":"${'x'.repeat(33 * 1024 * 1024)}"}`],
];

const bodyFault: fc.Arbitrary<DrawnFault> = fc
  .record({
    kind: where,
    nth,
    times,
    body: fc.constantFrom(...BODIES),
    status: fc.constantFrom(200, 200, 502),
  })
  .map(({ kind, nth, times, body: [what, body], status }) => ({
    label: `${what} (${status})`,
    kind,
    nth,
    times,
    fault: () => ({ type: 'replace-body', status, body: body() }),
  }));

/**
 * A body without end, answered at the service's origin: spaces gzipped (a bomb: small as sent, without bound
 * as decoded), spaces as they are, or a byte every 200 ms (drips that never finish).
 */
export function endless(how: 'gzip' | 'plain' | 'drips', contentType: string): Fault {
  return {
    type: 'answer',
    answer: (res) => {
      res.writeHead(200, {
        'content-type': contentType,
        ...(how === 'gzip' ? { 'content-encoding': 'gzip' } : {}),
      });
      if (how === 'drips') {
        const drip = setInterval(() => res.write(' '), 200);
        res.on('close', () => clearInterval(drip));
        return;
      }
      const spaces = new Readable({ read: () => void spaces.push(Buffer.alloc(64 * 1024, 32)) });
      if (how === 'gzip') pipeline(spaces, createGzip(), res, () => undefined);
      else pipeline(spaces, res, () => undefined);
    },
  };
}

const endlessFault: fc.Arbitrary<DrawnFault> = fc
  .record({
    kind: where,
    nth,
    times,
    how: fc.constantFrom('gzip' as const, 'plain' as const, 'drips' as const),
  })
  .map(({ kind, nth, times, how }) => ({
    label: `a body without end (${how})`,
    kind,
    nth,
    times,
    fault: () => endless(how, kind === 'file' ? 'image/png' : 'application/json'),
  }));

const transportFault: fc.Arbitrary<DrawnFault> = fc
  .record({
    kind: where,
    nth,
    times: fc.constantFrom(1, 2, 3),
    how: fc.oneof(
      fc.constant<Fault>({ type: 'drop-before' }),
      fc.constant<Fault>({ type: 'drop-after' }),
      fc.nat({ max: 1500 }).map<Fault>((ms) => ({ type: 'delay', ms, after: 'response' })),
      fc
        .record({
          chunks: fc.integer({ min: 2, max: 30 }),
          everyMs: fc.integer({ min: 1, max: 50 }),
          cut: fc.boolean(),
        })
        .map<Fault>((d) => ({ type: 'drip', ...d })),
    ),
  })
  .map(({ kind, nth, times, how }) => ({
    label:
      how.type === 'drip'
        ? `drip ${how.chunks}×${how.everyMs} ms${how.cut ? ', cut' : ''}`
        : how.type === 'delay'
          ? `stall ${how.ms} ms`
          : how.type,
    kind,
    nth,
    times,
    fault: () => how,
  }));

const recordFault: fc.Arbitrary<DrawnFault> = fc
  .record({ e: recordEdits, a: at, v: wrongValue, cell: wrongCell, nth, times })
  .map(({ e, a, v, cell, nth, times }) => ({
    label: `list: ${e.label} (${JSON.stringify(e.label.includes('cell') ? cell : v)?.slice(0, 30)})`,
    kind: 'list' as const,
    nth,
    times,
    fault: () => rewriteJson((b) => e.edit(b, a, v, cell)),
  }));

const schemaFault: fc.Arbitrary<DrawnFault> = fc
  .record({ e: schemaEdits, a: at, v: wrongValue, name: hostileName, times: fc.constantFrom(1, Infinity) })
  .map(({ e, a, v, name, times }) => ({
    label: `schema: ${e.label} (${JSON.stringify(v)?.slice(0, 30)}, ${JSON.stringify(name).slice(0, 30)})`,
    kind: 'schema' as const,
    nth: 0,
    times,
    fault: () => rewriteJson((b) => e.edit(b, a, v, name)),
  }));

const basesFault: fc.Arbitrary<DrawnFault> = fc
  .record({ v: wrongValue, name: hostileName, how: fc.constantFrom('bases', 'name', 'loop') })
  .map(({ v, name, how }) => ({
    label: `bases: ${how}`,
    kind: 'bases' as const,
    nth: 0,
    times: Infinity,
    fault: () =>
      how === 'loop'
        ? offsetLoop(false)
        : rewriteJson((b) =>
            !isObj(b)
              ? b
              : how === 'bases'
                ? { ...b, bases: v }
                : {
                    ...b,
                    bases: Array.isArray(b.bases)
                      ? (b.bases as Obj[]).map((x) => ({ ...x, name, id: v }))
                      : b.bases,
                  },
          ),
  }));

const walkFault: fc.Arbitrary<DrawnFault> = fc.constantFrom(
  {
    label: 'list: the same offset again',
    kind: 'list' as const,
    nth: 0,
    times: Infinity,
    fault: () => offsetLoop(false),
  },
  {
    label: 'list: offsets in a cycle',
    kind: 'list' as const,
    nth: 0,
    times: Infinity,
    fault: () => offsetLoop(true),
  },
  {
    label: 'list: a record id on every page',
    kind: 'list' as const,
    nth: 0,
    times: Infinity,
    fault: idsAcrossPages,
  },
);

/** A file answered with a redirect to a place no download may go. */
export function redirectElsewhere(which: number): (ctx: ShapeContext) => Fault {
  return (ctx) => ({
    type: 'rewrite',
    rewrite: (): ProxiedAnswer => ({
      status: 302,
      headers: { location: elsewhere(ctx.sentinel)[which]! },
      body: Buffer.alloc(0),
    }),
  });
}

const fileFault: fc.Arbitrary<DrawnFault> = fc
  .record({ which: fc.nat({ max: ELSEWHERE - 1 }), redirect: fc.boolean() })
  .map(({ which, redirect }) =>
    redirect
      ? {
          label: 'file: a redirect elsewhere',
          kind: 'file' as const,
          nth: 0,
          times: Infinity,
          fault: redirectElsewhere(which),
        }
      : {
          label: `list: attachment URLs elsewhere (${which})`,
          kind: 'list' as const,
          nth: 0,
          times: Infinity,
          fault: attachmentsElsewhere(which),
        },
  );

/** One fault of any shape. */
export const anyFault: fc.Arbitrary<DrawnFault> = fc.oneof(
  statusFault,
  bodyFault,
  endlessFault,
  transportFault,
  recordFault,
  schemaFault,
  basesFault,
  walkFault,
  fileFault,
);
