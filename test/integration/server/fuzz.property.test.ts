/**
 * Fuzz: generated query strings, JSON bodies and formulas thrown at the real server on loopback for a bounded
 * time. Whatever arrives, the server answers below 500, stays up, answers a probe within a second meanwhile,
 * and never puts its API key in an answer.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELD_TYPES } from '../../../core/records/types';
import { FUNCTION_NAMES } from '../../../core/formula/index';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';

/** Time each property may run; three properties stay well under 30 s in all. */
const BUDGET_MS = 6_000;

let s: LocalServer;
let recordId: string;
let tasksId: string;
let commentId: string;
let personId: string;
/** A signed link to a stored file: its query is fuzzed like any other. */
let filePath: string;
let probeDone = false;
let slowestProbeMs = 0;
let probes = 0;
let probe: Promise<void>;

beforeAll(async () => {
  s = await startLocalServer({ demo: { largeTableRecords: 300 } });
  const page = await s.request('GET', `/v0/${s.baseId}/Tasks?pageSize=1`);
  recordId = page.body.records[0].id;
  const tables = await s.request('GET', `/v0/meta/bases/${s.baseId}/tables`);
  tasksId = tables.body.tables.find((t: { name: string }) => t.name === 'Tasks').id;
  commentId = (await s.request('POST', `/v0/${s.baseId}/${tasksId}/${recordId}/comments`, { text: 'fuzzed' }))
    .body.id;
  personId = (await s.request('GET', `/v0/${s.baseId}/People?pageSize=1`)).body.records[0].id;
  const uploaded = await s.request('POST', `/v0/${s.baseId}/${personId}/Photo/uploadAttachment`, {
    contentType: 'text/plain',
    file: Buffer.from('fuzz').toString('base64'),
    filename: 'f.txt',
  });
  filePath = new URL(uploaded.body.fields.Photo[0].url).pathname;
  probe = (async () => {
    while (!probeDone) {
      const started = performance.now();
      const r = await fetch(`${s.url}/v0/meta/whoami`, { headers: { authorization: `Bearer ${s.apiKey}` } });
      await r.text();
      expect(r.status).toBe(200);
      slowestProbeMs = Math.max(slowestProbeMs, performance.now() - started);
      probes++;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
});

afterAll(async () => {
  probeDone = true;
  await probe;
  await s.close();
});

/** Sends a request and checks the answer: below 500, and without the key. */
async function send(method: string, path: string, body?: string, auth = true): Promise<void> {
  const res = await fetch(`${s.url}${path}`, {
    method,
    headers: {
      ...(auth ? { authorization: `Bearer ${s.apiKey}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body,
  });
  const text = await res.text();
  expect(res.status, `${method} ${path} ${body?.slice(0, 300) ?? ''} → ${text.slice(0, 300)}`).toBeLessThan(
    500,
  );
  expect(text).not.toContain(s.apiKey);
}

const run = (
  property: fc.IAsyncProperty<[unknown, ...unknown[]]> | fc.IAsyncPropertyWithHooks<[unknown, ...unknown[]]>,
) => fc.assert(property, { numRuns: 100_000, interruptAfterTimeLimit: BUDGET_MS });

const FIELD_NAMES = [
  'Name',
  'Notes',
  'Status',
  'Tags',
  'Budget',
  'Due',
  'Started at',
  'Task #',
  'Label',
  'Nope',
];
const POLLUTING = ['__proto__', 'constructor', 'prototype'];

const text = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom(
    ...FIELD_NAMES,
    ...POLLUTING,
    'asc',
    'desc',
    'string',
    'json',
    'UTC',
    'en-US',
    '-1',
    '1e9',
    '0',
    '100',
  ),
  fc.string({ unit: fc.constantFrom(...'%[]{}()&=?#/\\"\'\u0000\u202E~é🎉'), maxLength: 12 }),
);

/** Bodies of the aggregate extension: known and unknown fields and kinds, and JSON of any shape. */
const aggregate = fc.record(
  {
    view: text,
    filterByFormula: text,
    groupBy: fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.array(
        fc.record(
          { field: text, direction: fc.oneof(fc.constantFrom('asc', 'desc'), text) },
          { requiredKeys: [] },
        ),
        { maxLength: 3 },
      ),
    ),
    summaries: fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.array(
        fc.record({
          field: text,
          kind: fc.oneof(fc.constantFrom('count', 'filled', 'empty', 'sum', 'average', 'min', 'max'), text),
        }),
        { maxLength: 4 },
      ),
    ),
  },
  { requiredKeys: [] },
);

describe('fuzz', () => {
  it('query strings of every shape, on every route that reads one', async () => {
    const keyName = fc.constantFrom(
      'fields',
      'sort',
      'filterByFormula',
      'pageSize',
      'maxRecords',
      'offset',
      'view',
      'cellFormat',
      'timeZone',
      'userLocale',
      'returnFieldsByFieldId',
      'recordMetadata',
      'records',
      'include',
      'text',
      'type',
      'expires',
      'signature',
      ...POLLUTING,
    );
    const suffix = fc.array(
      fc.oneof(
        fc.constantFrom('[]', '[0]', '[1]', '[10000000]', '[999999999999]', '[field]', '[direction]'),
        fc.constantFrom(...POLLUTING).map((p) => `[${p}]`),
        fc.string({ maxLength: 6 }).map((x) => `[${x}]`),
      ),
      { maxLength: 6 },
    );
    const pair = fc.tuple(keyName, suffix, text, fc.boolean()).map(([k, parts, v, raw]) => {
      const key = `${k}${parts.join('')}`;
      return raw
        ? `${key}=${v.replaceAll('#', '%23')}`
        : `${encodeURIComponent(key)}=${encodeURIComponent(v)}`;
    });
    const route = fc.constantFrom(
      () => ['GET', `/v0/${s.baseId}/${tasksId}`],
      () => ['GET', `/v0/${s.baseId}/${tasksId}/${recordId}`],
      () => ['GET', `/v0/${s.baseId}/tblNope`],
      () => ['GET', `/v0/${s.baseId}/${tasksId}/${recordId}/comments`],
      () => ['DELETE', `/v0/${s.baseId}/${tasksId}/${recordId}/comments/comNope`],
      () => ['GET', `/_tabledesk/v1/${s.baseId}/${tasksId}/count`],
      () => ['GET', `/v0/meta/bases/${s.baseId}/tables`],
      () => ['GET', '/v0/meta/whoami'],
      () => ['GET', '/v0/meta/bases'],
      () => ['DELETE', `/v0/${s.baseId}/${tasksId}`],
      () => ['GET', filePath],
      () => ['GET', `/files/${'0'.repeat(64)}/small/a.png`],
    );
    await run(
      fc.asyncProperty(route, fc.array(pair, { maxLength: 8 }), fc.boolean(), async (r, pairs, auth) => {
        const [method, path] = r();
        await send(method!, `${path}?${pairs.join('&')}`, undefined, auth);
      }),
    );
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('offset');
  });

  it('JSON bodies: records, list options, schema changes, and arbitrary JSON', async () => {
    const anyJson = fc.jsonValue({ maxDepth: 4 });
    const fieldsMap = fc.dictionary(
      fc.oneof(fc.constantFrom(...FIELD_NAMES, ...POLLUTING), fc.string({ maxLength: 8 })),
      fc.oneof(anyJson, text, fc.double(), fc.integer(), fc.array(text, { maxLength: 5 })),
      { maxKeys: 4 },
    );
    const flag = fc.oneof(fc.boolean(), anyJson);
    const writes = fc.record(
      {
        records: fc.array(
          fc.record(
            { id: fc.oneof(fc.constant(recordId), text), fields: fieldsMap },
            { requiredKeys: ['fields'] },
          ),
          { maxLength: 3 },
        ),
        fields: fieldsMap,
        typecast: flag,
        performUpsert: fc.record({
          fieldsToMergeOn: fc.array(fc.constantFrom(...FIELD_NAMES), { maxLength: 3 }),
        }),
        __proto__: anyJson,
      },
      { requiredKeys: [] },
    );
    const list = fc.record(
      {
        pageSize: fc.oneof(fc.integer(), text),
        fields: fc.array(text, { maxLength: 3 }),
        sort: fc.array(fc.record({ field: text, direction: text }), { maxLength: 3 }),
        filterByFormula: text,
        cellFormat: text,
        timeZone: text,
        userLocale: text,
        offset: text,
      },
      { requiredKeys: [] },
    );
    const field = fc.record(
      {
        name: text,
        type: fc.oneof(fc.constantFrom(...FIELD_TYPES), text),
        description: text,
        options: fc.oneof(
          anyJson,
          fc.record({ choices: fc.array(fc.oneof(text, fc.record({ name: text })), { maxLength: 4 }) }),
          fc.record({
            linkedTableId: fc.oneof(fc.constant(tasksId), text),
            precision: anyJson,
            max: anyJson,
          }),
        ),
      },
      { requiredKeys: [] },
    );
    const route = fc.constantFrom(
      () => ['POST', `/v0/${s.baseId}/${tasksId}`],
      () => ['PATCH', `/v0/${s.baseId}/${tasksId}`],
      () => ['PUT', `/v0/${s.baseId}/${tasksId}`],
      () => ['PATCH', `/v0/${s.baseId}/${tasksId}/${recordId}`],
      () => ['POST', `/v0/${s.baseId}/${tasksId}/listRecords`],
      () => ['POST', `/_tabledesk/v1/${s.baseId}/${tasksId}/count`],
      () => ['POST', `/v0/meta/bases/${s.baseId}/tables/${tasksId}/fields`],
      () => ['POST', `/v0/meta/bases/${s.baseId}/tables`],
      () => ['PATCH', `/v0/meta/bases/${s.baseId}/tables/${tasksId}`],
      () => ['POST', `/v0/${s.baseId}/${tasksId}/${recordId}/comments`],
      () => ['PATCH', `/v0/${s.baseId}/${tasksId}/${recordId}/comments/${commentId}`],
      () => ['POST', `/v0/${s.baseId}/${personId}/Photo/uploadAttachment`],
      () => ['POST', `/v0/${s.baseId}/${recordId}/Name/uploadAttachment`],
      () => ['PATCH', `/v0/${s.baseId}/People/${personId}`],
      () => ['POST', `/_tabledesk/v1/${s.baseId}/${tasksId}/aggregate`],
    );
    const comment = fc.record(
      {
        text: fc.oneof(text, anyJson, fc.string({ minLength: 9_990, maxLength: 10_010 })),
        parentCommentId: fc.oneof(fc.constant(commentId), text, anyJson),
      },
      { requiredKeys: [] },
    );
    const upload = fc.record(
      {
        contentType: fc.oneof(text, fc.constantFrom('image/png', 'text/html', 'image/svg+xml')),
        file: fc.oneof(
          fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b).toString('base64')),
          text,
        ),
        filename: text,
      },
      { requiredKeys: [] },
    );
    const attachments = fc.record({
      fields: fc.record({
        Photo: fc.array(
          fc.record(
            {
              id: text,
              url: fc.oneof(text, fc.constantFrom('http://127.0.0.1:1/x', `${s.url}${filePath}`)),
              filename: fc.oneof(text, anyJson),
            },
            { requiredKeys: [] },
          ),
          { maxLength: 3 },
        ),
      }),
    });
    const body = fc.oneof(
      upload.map((b) => JSON.stringify(b)),
      attachments.map((b) => JSON.stringify(b)),
      aggregate.map((b) => JSON.stringify(b)),
      writes.map((b) => JSON.stringify(b)),
      comment.map((b) => JSON.stringify(b)),
      list.map((b) => JSON.stringify(b)),
      field.map((b) => JSON.stringify(b)),
      fc.record({ name: text, fields: fc.array(field, { maxLength: 3 }) }).map((b) => JSON.stringify(b)),
      anyJson.map((b) => JSON.stringify(b)),
      fc.string({ maxLength: 40 }),
      fc.integer({ min: 1, max: 3000 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
    );
    await run(
      fc.asyncProperty(route, body, async (r, b) => {
        const [method, path] = r();
        await send(method!, path!, b);
      }),
    );
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('polluted');
  });

  it('formulas, as filters and as formula fields', async () => {
    const fieldRef = fc.constantFrom(...FIELD_NAMES, ...POLLUTING).map((n) => `{${n}}`);
    const literal = fc.oneof(
      fc.integer({ min: -1_000_000, max: 1_000_000 }).map(String),
      fc.constantFrom('1e308', '-0', '0.5', '100000', '10000'),
      fc.string({ maxLength: 8 }).map((x) => JSON.stringify(x)),
    );
    const { expr } = fc.letrec<{ expr: string }>((tie) => ({
      expr: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        literal,
        fieldRef,
        fc
          .tuple(fc.constantFrom(...FUNCTION_NAMES), fc.array(tie('expr'), { maxLength: 4 }))
          .map(([f, args]) => `${f}(${args.join(', ')})`),
        fc
          .tuple(
            tie('expr'),
            fc.constantFrom('&', '+', '-', '*', '/', '=', '!=', '<', '>', '<=', '>='),
            tie('expr'),
          )
          .map(([a, op, b]) => `(${a} ${op} ${b})`),
      ),
    }));
    const formula = fc.oneof(
      expr,
      expr.map((e) => `FIND("~", REPT(${e}, 10000))`),
      fc.string({ maxLength: 30 }),
    );
    let n = 0;
    await run(
      fc.asyncProperty(formula, fc.nat(9), aggregate, async (f, pick, asked) => {
        if (pick === 0) {
          const body = JSON.stringify({ name: `F${n++}`, type: 'formula', options: { formula: f } });
          await send('POST', `/v0/meta/bases/${s.baseId}/tables/${tasksId}/fields`, body);
        } else if (pick === 1) {
          await send(
            'GET',
            `/_tabledesk/v1/${s.baseId}/${tasksId}/count?filterByFormula=${encodeURIComponent(f)}`,
          );
        } else if (pick <= 4) {
          const body = JSON.stringify({ ...asked, filterByFormula: f });
          await send('POST', `/_tabledesk/v1/${s.baseId}/${tasksId}/aggregate`, body);
        } else {
          await send('GET', `/v0/${s.baseId}/${tasksId}?filterByFormula=${encodeURIComponent(f)}`);
        }
      }),
    );
  });

  it('kept answering meanwhile', async () => {
    const r = await fetch(`${s.url}/v0/${s.baseId}/${tasksId}?pageSize=1`, {
      headers: { authorization: `Bearer ${s.apiKey}` },
    });
    expect(r.status).toBe(200);
    expect(probes).toBeGreaterThan(10);
    expect(slowestProbeMs).toBeLessThan(1000);
  });
});
