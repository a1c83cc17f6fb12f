/**
 * Hostile requests, drawn by fast-check: the classes of issue 24's findings and their variants. Each attack
 * sends its requests and gives back every answer, and says what else it found wrong (a tampered link serving
 * other bytes than its path names).
 */
import fc from 'fast-check';
import { costlyFormulas, size } from './costly';
import type { HostileWorld } from './world';

export interface Answer {
  what: string;
  status: number;
  text: string;
  headers: string;
}

export interface Attack {
  label: string;
  send(w: HostileWorld): Promise<{ answers: Answer[]; problems: string[] }>;
}

/**
 * How long one answer may take: a read stops its own computing after 10 s (server/cost.ts), so past
 * this the request hangs. A hang that holds the server's thread is caught by the probe (see target.ts).
 */
const ANSWER_MS = 20_000;

/** One request with the server's key (or none), its answer kept whole; no answer in ANSWER_MS throws. */
async function ask(
  w: HostileWorld,
  what: string,
  method: string,
  path: string,
  body?: unknown,
  withKey = true,
): Promise<Answer & { body: unknown; bytes: Buffer }> {
  const signal = AbortSignal.timeout(ANSWER_MS);
  let res: Response;
  let bytes: Buffer;
  try {
    res = await fetch(new URL(path, w.server.url), {
      method,
      signal,
      headers: {
        ...(withKey ? { authorization: `Bearer ${w.server.apiKey}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    bytes = Buffer.from(await res.arrayBuffer());
  } catch (e) {
    if (!signal.aborted) throw e;
    throw new Error(`${what}: ${method} ${path.slice(0, 300)} had no answer in ${ANSWER_MS / 1000} s`, {
      cause: e,
    });
  }
  const text = bytes.toString('latin1');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { what, status: res.status, text, headers: JSON.stringify([...res.headers]), body: parsed, bytes };
}

const one = async (a: Promise<Answer>) => ({ answers: [await a], problems: [] });

/** Regexes whose programs are large (thousands of instructions): a text's length times this is the work. */
const LARGE_PROGRAMS = ['(?:a?){1000}a{1000}[0-9]', '(?:(?:a*)*){500}b', '[a-z]{1,1000}[0-9]{1,1000}'];
/** Regexes that backtrack in engines other than RE2, with small programs. */
const BACKTRACKERS = ['(a+)+$', '(x|xx)+y', '.*.*.*.*.*.*='];

const regexFormula = (full: boolean) =>
  fc
    .record({
      fn: fc.constantFrom('REGEX_MATCH', 'REGEX_EXTRACT', 'REGEX_REPLACE'),
      times: size(300, full),
      pattern: fc.constantFrom(...LARGE_PROGRAMS, ...(full ? [] : BACKTRACKERS)),
    })
    .map(({ fn, times, pattern: p }) => {
      const call = `${fn}(REPT({Name}, ${times}), "${p}"${fn === 'REGEX_REPLACE' ? ', "z"' : ''})`;
      return fn === 'REGEX_MATCH' ? call : `LEN(${call}) > 0`;
    });

const q = encodeURIComponent;
let fieldCount = 0;

const listWith = (f: string): Attack => ({
  label: `list ${f}`,
  send: (w) => one(ask(w, 'list', 'GET', `/v0/${w.server.baseId}/Tasks?filterByFormula=${q(f)}`)),
});
const regexThroughList = (full: boolean) => regexFormula(full).map(listWith);
const countWith = (f: string): Attack => ({
  label: `count ${f}`,
  send: (w) =>
    one(ask(w, 'count', 'GET', `/_tabledesk/v1/${w.server.baseId}/Tasks/count?filterByFormula=${q(f)}`)),
});
const regexThroughCount = (full: boolean) => regexFormula(full).map(countWith);
const aggregateWith = (f: string): Attack => ({
  label: `aggregate ${f}`,
  send: (w) =>
    one(
      ask(w, 'aggregate', 'POST', `/_tabledesk/v1/${w.server.baseId}/Tasks/aggregate`, {
        filterByFormula: f,
        summaries: [{ field: 'Points', kind: 'sum' }],
      }),
    ),
});
const regexThroughAggregate = (full: boolean) => regexFormula(full).map(aggregateWith);
const fieldWith = (f: string): Attack => ({
  label: `formula field ${f}`,
  send: async (w) => {
    const name = `Costly ${++fieldCount}`;
    const made = await ask(
      w,
      'formula field',
      'POST',
      `/v0/meta/bases/${w.server.baseId}/tables/Tasks/fields`,
      {
        name,
        type: 'formula',
        options: { formula: f },
      },
    );
    if (made.status !== 200) return { answers: [made], problems: [] };
    const read = await ask(
      w,
      'read formula field',
      'GET',
      `/v0/${w.server.baseId}/Tasks?fields[]=${q(name)}`,
    );
    return { answers: [made, read], problems: [] };
  },
});
const regexThroughField = (full: boolean) => regexFormula(full).map(fieldWith);

/** A costly formula of every shape (./costly), each through a route drawn of list, count, aggregate, field. */
const costlyThroughAnyRoute = (full: boolean) =>
  costlyFormulas(full).map((formula) =>
    fc
      .tuple(formula, fc.constantFrom(listWith, countWith, aggregateWith, fieldWith))
      .map(([f, route]) => route(f)),
  );

/**
 * Each sent attack's own mark: an attack sent again (the warm-up, a shrink) still writes something new, where
 * a repeat would find its link names made and its values already written, and cost nothing.
 */
let sent = 0;

const typecastOf = (n: number): Attack => ({
  label: `typecast ${n} new link names`,
  send: (w) => {
    const mark = ++sent;
    return one(
      ask(w, 'typecast', 'POST', `/v0/${w.server.baseId}/Tasks`, {
        typecast: true,
        records: [
          {
            fields: {
              Name: 'flood',
              Assignee: Array.from({ length: n }, (_, i) => `n${mark}.${i}`).join(', '),
            },
          },
        ],
      }),
    );
  },
});
const typecastFlood = (full: boolean) => size(20_000, full).map(typecastOf);

const renameOf = ({ person, name }: { person: number; name: string }): Attack => ({
  label: `rename person ${person}`,
  send: (w) =>
    one(
      ask(w, 'rename', 'PATCH', `/v0/${w.server.baseId}/People/${w.people[person % w.people.length]}`, {
        fields: { Name: `${name} ${++sent}` },
      }),
    ),
});
const renameLinked = fc.record({ person: fc.nat(19), name: fc.string({ maxLength: 40 }) }).map(renameOf);

const chainWriteOf = ({ record, n }: { record: number; n: number }): Attack => ({
  label: `chain bottom ${record} = ${n}`,
  send: (w) =>
    one(
      ask(w, 'chain write', 'PATCH', `/v0/${w.chain.base}/${w.chain.bottom}/${w.chain.records[record]}`, {
        fields: { N: n + ++sent },
      }),
    ),
});
const chainWrite = fc.record({ record: fc.nat(3), n: fc.integer({ min: -1e6, max: 1e6 }) }).map(chainWriteOf);

/** Bytes after the PNG's end make it another file (stored files are shared by their bytes), decoded again. */
const heavyOf = ({ person, nonce }: { person: number; nonce: number }): Attack => ({
  label: `heavy PNG ${nonce} to person ${person}`,
  send: (w) =>
    one(
      ask(
        w,
        'upload',
        'POST',
        `/v0/${w.server.baseId}/${w.people[person % w.people.length]}/Photo/uploadAttachment`,
        {
          contentType: 'image/png',
          file: Buffer.concat([w.heavyPng, Buffer.from(`${nonce} ${Math.random()}`)]).toString('base64'),
          filename: 'heavy.png',
        },
      ),
    ),
});
const heavyDecode = fc.record({ person: fc.nat(19), nonce: fc.nat() }).map(heavyOf);

/**
 * A signed link changed in its path or query: refused, or serving exactly the file its path names. OTHER
 * stands for another stored file's hash.
 */
const tamperOf = ({ part, value }: { part: string; value: string }): Attack => ({
  label: `signed link: ${part}=${JSON.stringify(value)}`,
  send: async (w) => {
    const original = new URL(w.file.url);
    const url = new URL(w.file.url);
    const v = value === 'OTHER' ? w.file.otherHash : value;
    const parts = url.pathname.split('/');
    const at = ({ 'path-hash': 2, 'path-variant': 3, 'path-name': 4 } as Record<string, number>)[part];
    if (at === undefined) url.searchParams.set(part, v);
    else {
      parts[at] = encodeURIComponent(v);
      url.pathname = parts.join('/');
    }
    const answer = await ask(w, 'signed link', 'GET', url.pathname + url.search, undefined, false);
    const same = url.pathname === original.pathname && url.search === original.search;
    const problems =
      answer.status === 200 && !same && !answer.bytes.equals(w.file.bytes)
        ? [`${url.pathname}${url.search} answered 200 with other bytes (${answer.bytes.length})`]
        : [];
    return { answers: [answer], problems };
  },
});
const tamper = fc
  .record({
    part: fc.constantFrom(
      'hash',
      'variant',
      'filename',
      'type',
      'signature',
      'expires',
      'path-hash',
      'path-variant',
      'path-name',
    ),
    value: fc.oneof(
      fc.constantFrom(
        'OTHER',
        'small',
        'large',
        'full',
        '..',
        '%0d%0a',
        'x.html',
        'text/html',
        '9999999999999',
      ),
      fc.string({ maxLength: 20 }),
    ),
  })
  .map(tamperOf);

/** What a written name or type may hide: line breaks, a header after them, lone surrogates. */
const UNSAFE_TEXT = ['\r\n', '\r', '\n', '\r\nContent-Type: text/html\r\n\r\n', '\uD800', '\uDFFF'];

/**
 * Text with CR/LF (sometimes a header after it), or half of a surrogate pair (no character: encoding it for a
 * URL or a header throws).
 */
const crlf = fc
  .tuple(fc.string({ maxLength: 8 }), fc.constantFrom(...UNSAFE_TEXT), fc.string({ maxLength: 8 }))
  .map(([a, b, c]) => `${a}${b}${c}`);

/** A written value with CR/LF, then every file link of the record it reached fetched. */
async function thenFiles(w: HostileWorld, written: Answer & { body: unknown }): Promise<Answer[]> {
  const answers: Answer[] = [written];
  const fields = (written.body as { fields?: Record<string, unknown> } | undefined)?.fields ?? {};
  for (const v of Object.values(fields))
    if (Array.isArray(v))
      for (const item of v as { url?: unknown }[])
        if (typeof item?.url === 'string' && item.url.startsWith(w.server.url))
          answers.push(
            await ask(
              w,
              'file link',
              'GET',
              new URL(item.url).pathname + new URL(item.url).search,
              undefined,
              false,
            ),
          );
  return answers;
}

let mirrorRecords = 0;
const crlfOf = ({ route, text, person }: { route: string; text: string; person: number }): Attack => ({
  label: `CR/LF through ${route}: ${JSON.stringify(text)}`,
  send: async (w) => {
    const who = w.people[person % w.people.length]!;
    const b = w.server.baseId;
    let written;
    if (route === 'create')
      written = await ask(w, route, 'POST', `/v0/${b}/Tasks`, { fields: { Name: text, Notes: text } });
    else if (route === 'patch name')
      written = await ask(w, route, 'PATCH', `/v0/${b}/People/${who}`, { fields: { Name: text } });
    else if (route === 'attachment name')
      written = await ask(w, route, 'PATCH', `/v0/${b}/People/${who}`, {
        fields: { Photo: [{ url: w.file.url, filename: text }] },
      });
    else if (route === 'upload name')
      written = await ask(w, route, 'POST', `/v0/${b}/${who}/Photo/uploadAttachment`, {
        contentType: 'image/png',
        file: w.file.bytes.toString('base64'),
        filename: text,
      });
    else {
      const id = `rec${String(++mirrorRecords).padStart(14, '0')}`;
      const put = await ask(
        w,
        route,
        'POST',
        `/_tabledesk/mirror/bases/${w.mirror.base}/tables/${w.mirror.table}/records`,
        {
          records: [
            {
              id,
              createdTime: '2024-01-01T00:00:00.000Z',
              fields: {
                [w.mirror.name]: 'mirrored',
                [w.mirror.photo]: [
                  {
                    id: `att${String(mirrorRecords).padStart(14, '0')}`,
                    blob: w.file.hash,
                    filename: route === 'mirror name' ? text : 'a.png',
                    type: route === 'mirror type' ? `image/png${text}` : 'image/png',
                  },
                ],
              },
            },
          ],
        },
      );
      if (put.status !== 200) return { answers: [put], problems: [] };
      written = await ask(w, 'read mirrored', 'GET', `/v0/${w.mirror.base}/${w.mirror.table}/${id}`);
      return { answers: [put, ...(await thenFiles(w, written))], problems: [] };
    }
    return { answers: await thenFiles(w, written), problems: [] };
  },
});
/** Every route a value with CR/LF can be written through. */
const CRLF_ROUTES = ['create', 'patch name', 'attachment name', 'upload name', 'mirror type', 'mirror name'];

const crlfWrite = fc
  .record({
    route: fc.constantFrom(...CRLF_ROUTES),
    text: crlf,
    person: fc.nat(19),
  })
  .map(crlfOf);

/**
 * One arbitrary of every class, its sizes drawn in their range or (`full`) at their top, where a guard removed
 * shows as a stall: a drawn round has one attack of every class at full size (see everyClass), so it too
 * catches a removed guard.
 */
const classes = (full: boolean) => [
  regexThroughList(full),
  regexThroughCount(full),
  regexThroughAggregate(full),
  regexThroughField(full),
  typecastFlood(full),
  renameLinked,
  chainWrite,
  heavyDecode,
  tamper,
  crlfWrite,
  ...costlyThroughAnyRoute(full),
];

/** Any one attack, of any size. */
export const attack: fc.Arbitrary<Attack> = fc.oneof(...classes(false));

/** One attack of every class, at full size. */
export const everyClass: fc.Arbitrary<Attack[]> = fc.tuple(...classes(true));

/** Issue 24's regex: a program of 2,000 steps over 300 copies of a name. */
const WORST_REGEX = 'REGEX_MATCH(REPT({Name}, 300), "(?:a?){1000}a{1000}[0-9]")';

/**
 * One round of the worst of every class, for a fixed run (`npm test`): a round drawn at random may meet each
 * finding only in a mild form (a short text, a harmless link change, one route of CR/LF of six).
 */
export const WORST: Attack[] = [
  listWith(WORST_REGEX),
  countWith(WORST_REGEX),
  aggregateWith(WORST_REGEX),
  fieldWith(WORST_REGEX),
  // A formula of 30,000 comparisons (compiled, planned, evaluated: a minute) and a date read token by token.
  aggregateWith(`OR(${Array.from({ length: 30_000 }, (_, i) => `{Points}=${i}`).join(',')})`),
  fieldWith('DATETIME_PARSE(REPT("2024-01-01 ", 80000), REPT("YYYY-MM-DD ", 80000))'),
  typecastOf(20_000),
  renameOf({ person: 0, name: 'renamed' }),
  chainWriteOf({ record: 0, n: 1 }),
  heavyOf({ person: 0, nonce: 0 }),
  tamperOf({ part: 'hash', value: 'OTHER' }),
  tamperOf({ part: 'variant', value: 'full' }),
  tamperOf({ part: 'filename', value: 'x.html' }),
  tamperOf({ part: 'type', value: 'text/html' }),
  ...CRLF_ROUTES.map((route) => crlfOf({ route, text: 'a\r\nContent-Type: text/html\r\n\r\nb', person: 1 })),
  ...CRLF_ROUTES.map((route) => crlfOf({ route, text: 'a\uD800.png', person: 2 })),
];
