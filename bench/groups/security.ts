/**
 * What one hostile request costs everyone else: for each class of the security audit, the request runs
 * against the local server (in memory, rate limit off) while a probe asks `GET /v0/meta/whoami` every 10 ms,
 * and the figure is the probe's longest wait meanwhile (the goal: under a second, against an idle probe of a
 * few ms). Uploads are probed by a small upload instead, since images are decoded off the main thread.
 */
import sharp from 'sharp';
import { startServer } from '../../server/index';
import type { RunningServer } from '../../server/index';
import { probing } from '../../test/support/probe';
import type { BenchResult } from '../result';

type Server = RunningServer & { baseId: string };

// Answers of arbitrary wire JSON, read as the scenarios need them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

async function call(
  s: Server,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${s.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${s.apiKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // kept as text
  }
  return { status: res.status, body: parsed };
}

async function expectOk(r: Promise<{ status: number; body: Json }>, what: string): Promise<Json> {
  const { status, body } = await r;
  if (status !== 200) throw new Error(`${what}: ${status} ${JSON.stringify(body).slice(0, 300)}`);
  return body;
}

/** Runs `hostile` while a probe in a thread of its own asks whoami; its longest wait and the answer. */
async function probed(
  s: Server,
  hostile: () => Promise<{ status: number }>,
): Promise<{ worstMs: number; status: number }> {
  const { result, probe } = await probing(s, hostile);
  if (probe.failures.length > 0) throw new Error(`the probe failed: ${probe.failures.join(', ')}`);
  return { worstMs: probe.worstMs, status: result.status };
}

/**
 * Runs `hostile` while `probe` (another request, on this thread: uploads are decoded off it) is timed over and
 * over; the probe's longest wait.
 */
async function probedBy(
  probe: () => Promise<unknown>,
  hostile: () => Promise<{ status: number }>,
): Promise<{ worstMs: number; status: number }> {
  let done = false;
  let worstMs = 0;
  const loop = (async () => {
    while (!done) {
      const t = performance.now();
      await probe();
      worstMs = Math.max(worstMs, performance.now() - t);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 30));
  const { status } = await hostile();
  done = true;
  await loop;
  return { worstMs, status };
}

async function fresh(records = 500): Promise<Server> {
  const server = await startServer({ memory: true, demo: { largeTableRecords: records }, rateLimit: 'off' });
  return { ...server, baseId: server.bases[0]!.id };
}

async function createBase(s: Server, tables: unknown[]): Promise<{ id: string; tables: Json[] }> {
  return expectOk(call(s, 'POST', '/v0/meta/bases', { name: 'Bench', tables }), 'create base');
}

async function createMany(
  s: Server,
  base: string,
  table: string,
  list: Record<string, unknown>[],
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < list.length; i += 10) {
    const body = await expectOk(
      call(s, 'POST', `/v0/${base}/${table}`, {
        records: list.slice(i, i + 10).map((fields) => ({ fields })),
      }),
      'create records',
    );
    ids.push(...body.records.map((r: { id: string }) => r.id));
  }
  return ids;
}

/** A regex linear in text × pattern, costly on text of its own letter; a digit class of its own per route (re2js keeps a pattern's DFA). */
const regexOf = (digit: number) => `REGEX_MATCH(REPT({Name}, 100), "(?:a?){1000}a{1000}[0-${digit}]")`;

/** Finding 1: a costly regex per record, through the list, count, aggregate and a formula field. */
export async function regex(results: BenchResult[]): Promise<void> {
  const s = await fresh();
  try {
    const tasks = `/v0/${s.baseId}/Tasks`;
    // The pattern is costly where the text is made of its own letter: one such record is enough.
    await expectOk(call(s, 'POST', tasks, { fields: { Name: 'a'.repeat(100) } }), 'create');
    const ext = `/_tabledesk/v1/${s.baseId}/Tasks`;
    const routes: [string, () => Promise<{ status: number }>][] = [
      ['list', () => call(s, 'GET', `${tasks}?filterByFormula=${encodeURIComponent(regexOf(9))}`)],
      ['count', () => call(s, 'GET', `${ext}/count?filterByFormula=${encodeURIComponent(regexOf(8))}`)],
      [
        'aggregate',
        () => call(s, 'POST', `${ext}/aggregate`, { filterByFormula: regexOf(7), summaries: [] }),
      ],
      [
        'formula field',
        () =>
          call(s, 'POST', `/v0/meta/bases/${s.baseId}/tables/Tasks/fields`, {
            name: 'Costly',
            type: 'formula',
            options: { formula: regexOf(6) },
          }),
      ],
    ];
    for (const [route, hostile] of routes) {
      const r = await probed(s, hostile);
      results.push({
        name: `regex per record (${route}, answer ${r.status}): probe's longest wait`,
        value: r.worstMs,
        unit: 'ms',
      });
    }
  } finally {
    await s.close();
  }
}

/** Finding 2: typecast naming 20,000 new linked records in one cell. */
export async function typecastLinks(results: BenchResult[]): Promise<void> {
  const s = await fresh();
  try {
    const page = await expectOk(call(s, 'GET', `/v0/${s.baseId}/Tasks?pageSize=1`), 'read');
    const names = Array.from({ length: 20_000 }, (_, i) => `Person ${i}`).join(',');
    const r = await probed(s, () =>
      call(s, 'PATCH', `/v0/${s.baseId}/Tasks/${page.records[0].id}`, {
        fields: { Assignee: names },
        typecast: true,
      }),
    );
    results.push({
      name: `typecast of 20,000 link names (answer ${r.status}): probe's longest wait`,
      value: r.worstMs,
      unit: 'ms',
    });
  } finally {
    await s.close();
  }
}

/** Finding 3: renaming a record 10,000 records link to, with a lookup of its name. */
export async function fanOut(results: BenchResult[]): Promise<void> {
  const s = await fresh(10);
  try {
    const base = await createBase(s, [
      { name: 'Hub', fields: [{ name: 'Name', type: 'singleLineText' }] },
      { name: 'Spoke', fields: [{ name: 'Name', type: 'singleLineText' }] },
    ]);
    const [hubT, spokeT] = base.tables;
    const link = await expectOk(
      call(s, 'POST', `/v0/meta/bases/${base.id}/tables/${spokeT.id}/fields`, {
        name: 'Hub',
        type: 'multipleRecordLinks',
        options: { linkedTableId: hubT.id },
      }),
      'link field',
    );
    await expectOk(
      call(s, 'POST', `/v0/meta/bases/${base.id}/tables/${spokeT.id}/fields`, {
        name: 'Hub name',
        type: 'multipleLookupValues',
        options: { recordLinkFieldId: link.id, fieldIdInLinkedTable: hubT.primaryFieldId },
      }),
      'lookup field',
    );
    const [hub] = await createMany(s, base.id, hubT.id, [{ Name: 'hub' }]);
    await createMany(
      s,
      base.id,
      spokeT.id,
      Array.from({ length: 10_000 }, (_, i) => ({ Name: `spoke ${i}`, Hub: [hub] })),
    );
    const r = await probed(s, () =>
      call(s, 'PATCH', `/v0/${base.id}/${hubT.id}/${hub}`, { fields: { Name: 'renamed hub' } }),
    );
    results.push({
      name: `rename of a record 10,000 link to (answer ${r.status}): probe's longest wait`,
      value: r.worstMs,
      unit: 'ms',
    });
  } finally {
    await s.close();
  }
}

/** Finding 4: a chain of rollups over 10 tables, each record linking to the 4 records of the next table. */
export async function rollupChain(results: BenchResult[]): Promise<void> {
  const s = await fresh(10);
  try {
    const TABLES = 10;
    const base = await createBase(
      s,
      Array.from({ length: TABLES }, (_, i) => ({
        name: `T${i}`,
        fields: [
          { name: 'Name', type: 'singleLineText' },
          { name: 'N', type: 'number', options: { precision: 0 } },
        ],
      })),
    );
    const tables = base.tables;
    // From the last table up: each table links to the next and sums the next's total (or N at the end).
    let below: string | undefined;
    const ids: string[][] = [];
    for (let i = TABLES - 1; i >= 0; i--) {
      const t = tables[i];
      const next = tables[i + 1];
      let total = t.fields.find((f: { name: string }) => f.name === 'N').id;
      if (next) {
        const link = await expectOk(
          call(s, 'POST', `/v0/meta/bases/${base.id}/tables/${t.id}/fields`, {
            name: 'Next',
            type: 'multipleRecordLinks',
            options: { linkedTableId: next.id },
          }),
          'link',
        );
        const rollup = await expectOk(
          call(s, 'POST', `/v0/meta/bases/${base.id}/tables/${t.id}/fields`, {
            name: 'Total',
            type: 'rollup',
            options: { recordLinkFieldId: link.id, fieldIdInLinkedTable: below, formula: 'SUM(values)' },
          }),
          'rollup',
        );
        total = rollup.id;
      }
      below = total;
      ids[i] = await createMany(
        s,
        base.id,
        t.id,
        Array.from({ length: 4 }, (_, k) => ({ Name: `r${k}`, N: k, ...(next ? { Next: ids[i + 1] } : {}) })),
      );
    }
    const r = await probed(s, () =>
      call(s, 'PATCH', `/v0/${base.id}/${tables[TABLES - 1].id}/${ids[TABLES - 1]![0]}`, {
        fields: { N: 7 },
      }),
    );
    results.push({
      name: `rollup chain of 10 tables, 4 links each (answer ${r.status}): probe's longest wait`,
      value: r.worstMs,
      unit: 'ms',
    });
  } finally {
    await s.close();
  }
}

/** Finding 5: three 16-bit 7000×7000 PNGs of zeros, then a small upload. */
export async function bigImages(results: BenchResult[]): Promise<void> {
  const s = await fresh(10);
  try {
    const people = await expectOk(call(s, 'GET', `/v0/${s.baseId}/People?pageSize=4`), 'people');
    const ids: string[] = people.records.map((r: { id: string }) => r.id);
    const big = await sharp({ create: { width: 7000, height: 7000, channels: 3, background: 0 } })
      .toColourspace('rgb16')
      .png({ compressionLevel: 9 })
      .toBuffer();
    const small = await sharp({ create: { width: 40, height: 40, channels: 3, background: 90 } })
      .png()
      .toBuffer();
    const upload = (id: string, bytes: Buffer, name: string) =>
      call(s, 'POST', `/v0/${s.baseId}/${id}/Photo/uploadAttachment`, {
        contentType: 'image/png',
        file: bytes.toString('base64'),
        filename: name,
      });
    const r = await probedBy(
      () => upload(ids[3]!, small, 'small.png'),
      async () => {
        const answers = await Promise.all([0, 1, 2].map((i) => upload(ids[i]!, big, `big${i}.png`)));
        return { status: Math.max(...answers.map((a) => a.status)) };
      },
    );
    results.push({
      name: `three 7000×7000 16-bit PNGs (${Math.round(big.length / 1024)} KB each, answer ${r.status}): small upload's longest wait`,
      value: r.worstMs,
      unit: 'ms',
    });
  } finally {
    await s.close();
  }
}

export default async function securityBench(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const idle = await fresh(10);
  try {
    const r = await probed(
      idle,
      () => new Promise((resolve) => setTimeout(() => resolve({ status: 200 }), 1000)),
    );
    results.push({ name: "idle probe's longest wait (1 s)", value: r.worstMs, unit: 'ms' });
  } finally {
    await idle.close();
  }
  await regex(results);
  await typecastLinks(results);
  await fanOut(results);
  await rollupChain(results);
  await bigImages(results);
  return results;
}
