/**
 * Writes are bounded in what they cause: the records linking to what a write changed are computed again only
 * when they read what changed, each once per write, in the order of the tables' links, and a write that would
 * compute more than MAX_WRITE_RECOMPUTES of them is refused before it does; no probe waits long behind any.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer } from '../../support/local-server';
import type { AnyReply, LocalServer } from '../../support/local-server';
import { probing, stallAllowanceMs } from '../../support/probe';
import { MAX_WRITE_RECOMPUTES } from '../../../server/store/records';
import { MAX_SELECT_CHOICES } from '../../../server/store/field-options';

let s: LocalServer;
/** How long a probe may wait behind one request. */
let stallMs = 1000;

beforeAll(async () => {
  s = await startLocalServer({ demo: { largeTableRecords: 10 } });
  stallMs = await stallAllowanceMs(s);
});
afterAll(() => s.close());

async function ok(r: Promise<AnyReply>): Promise<AnyReply> {
  const answer = await r;
  expect(answer.status, answer.text.slice(0, 300)).toBe(200);
  return answer;
}

/** Runs `write` while a probe asks whoami; its answer, after checking no probe waited past stallMs. */
async function probed(write: () => Promise<AnyReply>): Promise<AnyReply> {
  const { result, probe } = await probing(s, write);
  expect(probe.failures).toEqual([]);
  expect(probe.worstMs).toBeLessThan(stallMs);
  return result;
}

async function createBase(tables: unknown[]): Promise<{
  id: string;
  tables: { id: string; fields: { id: string; name: string }[]; primaryFieldId: string }[];
}> {
  return (await ok(s.request('POST', '/v0/meta/bases', { name: 'Writes', tables }))).body;
}

const addField = async (base: string, table: string, spec: unknown) =>
  (await ok(s.request('POST', `/v0/meta/bases/${base}/tables/${table}/fields`, spec))).body as { id: string };

async function createMany(base: string, table: string, list: Record<string, unknown>[]): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < list.length; i += 10) {
    const r = await ok(
      s.request('POST', `/v0/${base}/${table}`, {
        records: list.slice(i, i + 10).map((fields) => ({ fields })),
      }),
    );
    ids.push(...r.body.records.map((x: { id: string }) => x.id));
  }
  return ids;
}

/** Every record of a table, by id, with the fields named. */
async function readAll(
  base: string,
  table: string,
  fields: string[],
): Promise<Map<string, Record<string, unknown>>> {
  const out = new Map<string, Record<string, unknown>>();
  const names = fields.map((f) => `fields[]=${encodeURIComponent(f)}`).join('&');
  let offset: string | undefined;
  do {
    const page = await ok(
      s.request('GET', `/v0/${base}/${table}?pageSize=100&${names}${offset ? `&offset=${offset}` : ''}`),
    );
    for (const r of page.body.records as { id: string; fields: Record<string, unknown> }[])
      out.set(r.id, r.fields);
    offset = page.body.offset;
  } while (offset);
  return out;
}

describe('a record many records link to', () => {
  // The hub has one more linker than a write may compute again: renaming or deleting it is refused at once.
  const SMALL = 500;
  const SPOKES = MAX_WRITE_RECOMPUTES + 1 + SMALL;
  let base: string;
  let hub: string;
  let hubTable: string;
  let spokeTable: string;
  let smallHub: string;
  let link: { id: string };
  let hubName: string;

  beforeAll(async () => {
    const b = await createBase([
      { name: 'Hub', fields: [{ name: 'Name', type: 'singleLineText' }] },
      { name: 'Spoke', fields: [{ name: 'Name', type: 'singleLineText' }] },
    ]);
    base = b.id;
    [hubTable, spokeTable] = b.tables.map((t) => t.id) as [string, string];
    hubName = b.tables[0]!.primaryFieldId;
    link = await addField(base, spokeTable, {
      name: 'Hub',
      type: 'multipleRecordLinks',
      options: { linkedTableId: hubTable },
    });
    await addField(base, spokeTable, {
      name: 'Hub name',
      type: 'multipleLookupValues',
      options: { recordLinkFieldId: link.id, fieldIdInLinkedTable: b.tables[0]!.primaryFieldId },
    });
    [hub, smallHub] = (await createMany(base, hubTable, [{ Name: 'hub' }, { Name: 'small hub' }])) as [
      string,
      string,
    ];
    await createMany(
      base,
      spokeTable,
      Array.from({ length: SPOKES }, (_, i) => ({ Name: `spoke ${i}`, Hub: [i < SMALL ? smallHub : hub] })),
    );
  });

  it('is renamed, and its linkers follow in the same write', async () => {
    const r = await probed(() =>
      s.request('PATCH', `/v0/${base}/${hubTable}/${smallHub}`, { fields: { Name: 'renamed' } }),
    );
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    const rows = await readAll(base, spokeTable, ['Hub', 'Hub name']);
    const linkers = [...rows.values()].filter((f) => (f.Hub as string[])[0] === smallHub);
    expect(linkers).toHaveLength(SMALL);
    for (const fields of linkers) expect(fields['Hub name']).toEqual(['renamed']);
  });

  it('with more linkers than a write may compute is neither renamed nor deleted, and no request waits', async () => {
    const rename = await probed(() =>
      s.request('PATCH', `/v0/${base}/${hubTable}/${hub}`, { fields: { Name: 'renamed too' } }),
    );
    expect(rename.status, rename.text.slice(0, 300)).toBe(422);
    expect(rename.body.error.message).toMatch(/more than 3000 linked records/);
    const gone = await probed(() => s.request('DELETE', `/v0/${base}/${hubTable}/${hub}`));
    expect(gone.status, gone.text.slice(0, 300)).toBe(422);
    const rows = await readAll(base, spokeTable, ['Hub', 'Hub name']);
    const linkers = [...rows.values()].filter((f) => (f.Hub as string[])[0] === hub);
    expect(linkers).toHaveLength(SPOKES - SMALL);
    for (const fields of linkers) expect(fields['Hub name']).toEqual(['hub']);
  });

  it('is not linked from one cell to more records than a write may compute, refused before any is edited', async () => {
    // Each record a cell links to gets its side of the link: their number is known before the first is edited.
    const tables = await ok(s.request('GET', `/v0/meta/bases/${base}/tables`));
    const hubTableSpec = tables.body.tables.find((t: { id: string }) => t.id === hubTable);
    const back = hubTableSpec.fields.find((f: { type: string }) => f.type === 'multipleRecordLinks');
    const spokes = [...(await readAll(base, spokeTable, ['Name'])).keys()];
    expect(spokes.length).toBeGreaterThan(MAX_WRITE_RECOMPUTES);
    const r = await probed(() =>
      s.request('POST', `/v0/${base}/${hubTable}`, { fields: { Name: 'all', [back.name]: spokes } }),
    );
    expect(r.status, r.text.slice(0, 300)).toBe(422);
    expect(r.body.error.message).toMatch(/more than 3000 linked records/);
  });

  it('takes no computed field over more records than a write may compute: refused before any is computed', async () => {
    // A new computed field is computed for every record of its table in one write (50,000 took 8 s).
    for (const spec of [
      { name: 'Late formula', type: 'formula', options: { formula: 'UPPER({Name})' } },
      {
        name: 'Late lookup',
        type: 'multipleLookupValues',
        options: { recordLinkFieldId: link.id, fieldIdInLinkedTable: hubName },
      },
    ]) {
      const r = await probed(() =>
        s.request('POST', `/v0/meta/bases/${base}/tables/${spokeTable}/fields`, spec),
      );
      expect(r.status, r.text.slice(0, 300)).toBe(422);
      expect(r.body.error.message).toMatch(/at most 3000/);
    }
    const tables = await ok(s.request('GET', `/v0/meta/bases/${base}/tables`));
    expect(tables.text).not.toContain('Late ');
  });

  it('gains one more linker without computing the others again', async () => {
    // The spokes read only the hub's name, which a new link does not change: the write costs two records.
    const r = await probed(() =>
      s.request('POST', `/v0/${base}/${spokeTable}`, { fields: { Name: 'late', Hub: [hub] } }),
    );
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    expect(r.body.fields['Hub name']).toEqual(['hub']);
  });
});

describe('a chain of rollups over ten tables, each record linking to the four of the next', () => {
  const TABLES = 10;
  let base: string;
  let tables: string[];
  let ids: string[][];

  beforeAll(async () => {
    const b = await createBase(
      Array.from({ length: TABLES }, (_, i) => ({
        name: `T${i}`,
        fields: [
          { name: 'Name', type: 'singleLineText' },
          { name: 'N', type: 'number', options: { precision: 0 } },
        ],
      })),
    );
    base = b.id;
    tables = b.tables.map((t) => t.id);
    ids = [];
    // From the last table up: each links to the next and sums the next's total (N at the end).
    let below = b.tables[TABLES - 1]!.fields.find((f) => f.name === 'N')!.id;
    for (let i = TABLES - 1; i >= 0; i--) {
      const next = tables[i + 1];
      if (next) {
        const link = await addField(base, tables[i]!, {
          name: 'Next',
          type: 'multipleRecordLinks',
          options: { linkedTableId: next },
        });
        below = (
          await addField(base, tables[i]!, {
            name: 'Total',
            type: 'rollup',
            options: { recordLinkFieldId: link.id, fieldIdInLinkedTable: below, formula: 'SUM(values)' },
          })
        ).id;
      }
      ids[i] = await createMany(
        base,
        tables[i]!,
        Array.from({ length: 4 }, (_, k) => ({ Name: `r${k}`, N: k, ...(next ? { Next: ids[i + 1] } : {}) })),
      );
    }
  });

  it('computes each record once per write, in the order the tables read each other, so a change at the bottom reaches the top in one write', async () => {
    // The last table's N: 0 + 1 + 2 + 3 = 6, and each table above sums four of the one below.
    const top = () => readAll(base, tables[0]!, ['Total']);
    expect([...(await top()).values()].map((f) => f.Total)).toEqual(Array(4).fill(6 * 4 ** 8));
    const r = await probed(() =>
      s.request('PATCH', `/v0/${base}/${tables[TABLES - 1]}/${ids[TABLES - 1]![0]}`, { fields: { N: 10 } }),
    );
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    expect([...(await top()).values()].map((f) => f.Total)).toEqual(Array(4).fill(16 * 4 ** 8));
  });
});

describe('a cycle of rollups written through the mirror route', () => {
  const id = (prefix: string, c: string) => prefix + c.repeat(14);
  const A = id('tbl', 'C');
  const B = id('tbl', 'D');
  const RECORDS = 20;

  it('is computed once per record in a write, so no request waits', async () => {
    const base = id('app', 'C');
    const table = (tid: string, own: string, other: string, c: string, d: string) => ({
      id: tid,
      name: own,
      primaryFieldId: id('fld', c),
      fields: [
        { id: id('fld', c), name: 'Name', type: 'singleLineText' },
        {
          id: id('fld', d),
          name: other,
          type: 'multipleRecordLinks',
          options: { linkedTableId: tid === A ? B : A, inverseLinkFieldId: id('fld', tid === A ? 'F' : 'E') },
        },
        {
          id: id('fld', tid === A ? 'G' : 'H'),
          name: 'Total',
          type: 'rollup',
          options: {
            recordLinkFieldId: id('fld', d),
            fieldIdInLinkedTable: id('fld', tid === A ? 'H' : 'G'),
            formula: 'SUM(values) + 1',
          },
        },
      ],
      views: [{ id: id('viw', c), name: 'Grid view', type: 'grid' }],
    });
    await ok(
      s.request('PUT', `/_tabledesk/mirror/bases/${base}`, {
        name: 'Cycle',
        tables: [table(A, 'A', 'B', 'C', 'E'), table(B, 'B', 'A', 'D', 'F')],
      }),
    );
    const letters = 'abcdefghijklmnopqrstuvwxyz'.split('').slice(0, RECORDS);
    const aIds = letters.map((c) => `recA${c.repeat(13)}`);
    const bIds = letters.map((c) => `recB${c.repeat(13)}`);
    const put = (tid: string, list: { id: string; createdTime: string; fields: Record<string, unknown> }[]) =>
      ok(s.request('POST', `/_tabledesk/mirror/bases/${base}/tables/${tid}/records`, { records: list }));
    // Every A links to every B and back: each change of a total reaches every record of the other table.
    await put(
      A,
      aIds.map((rid, i) => ({
        id: rid,
        createdTime: '2024-01-01T00:00:00.000Z',
        fields: { [id('fld', 'C')]: `a${i}`, [id('fld', 'E')]: bIds },
      })),
    );
    await put(
      B,
      bIds.map((rid, i) => ({
        id: rid,
        createdTime: '2024-01-01T00:00:00.000Z',
        fields: { [id('fld', 'D')]: `b${i}`, [id('fld', 'F')]: aIds },
      })),
    );
    const r = await probed(() =>
      s.request('PATCH', `/v0/${base}/A/${aIds[0]}`, { fields: { Name: 'renamed' } }),
    );
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    // Each record is computed once in the write: the change goes once round, and the totals stay as they are.
    const totals = [
      ...(await readAll(base, 'A', ['Total'])).values(),
      ...(await readAll(base, 'B', ['Total'])).values(),
    ] as { Total?: number }[];
    expect(totals).toHaveLength(2 * RECORDS);
    for (const t of totals) expect(Number.isFinite(t.Total)).toBe(true);
  });
});

describe('a cycle of rollups over 2,000 records each linking the same four, written through the mirror route', () => {
  // As a pull writes it: the four first, then the 2,000 in pages of 500, each gaining its side of the four's
  // links. Each page rewrote each of the four 500 times, its cell growing each time (8–10 s a page), and
  // every name read for a link key parsed one of the four whole.
  const id = (prefix: string, c: string) => prefix + c.repeat(14);
  const base = id('app', 'k');
  const A = id('tbl', 'k');
  const B = id('tbl', 'l');
  const f = (c: string) => id('fld', c.toLowerCase());
  const MANY = 2000;
  const pad = (n: number) => n.toString(36).padStart(13, '0');
  const aIds = Array.from({ length: MANY }, (_, i) => `recA${pad(i)}`);
  const bIds = Array.from({ length: 4 }, (_, i) => `recB${pad(i)}`);
  const table = (
    tid: string,
    name: string,
    own: string,
    link: string,
    back: string,
    total: string,
    read: string,
  ) => ({
    id: tid,
    name,
    primaryFieldId: f(own),
    fields: [
      { id: f(own), name: 'Name', type: 'singleLineText' },
      {
        id: f(link),
        name: 'Links',
        type: 'multipleRecordLinks',
        options: { linkedTableId: tid === A ? B : A, inverseLinkFieldId: f(back) },
      },
      {
        id: f(total),
        name: 'Total',
        type: 'rollup',
        options: { recordLinkFieldId: f(link), fieldIdInLinkedTable: f(read), formula: 'SUM(values) + 1' },
      },
      { id: f(tid === A ? 'S' : 'T'), name: 'Note', type: 'multilineText' },
    ],
    views: [{ id: id('viw', tid === A ? 'k' : 'l'), name: 'Grid view', type: 'grid' }],
  });
  const at = '2024-01-01T00:00:00.000Z';
  const put = (tid: string, records: { id: string; fields: Record<string, unknown> }[]) =>
    s.request('POST', `/_tabledesk/mirror/bases/${base}/tables/${tid}/records`, {
      records: records.map((r) => ({ ...r, createdTime: at })),
    });

  beforeAll(async () => {
    await ok(
      s.request('PUT', `/_tabledesk/mirror/bases/${base}`, {
        name: 'Wide cycle',
        tables: [table(A, 'A', 'K', 'M', 'N', 'P', 'Q'), table(B, 'B', 'L', 'N', 'M', 'Q', 'P')],
      }),
    );
    // Long notes make each of the four costly to parse: a name read per link key parsed one whole each time.
    const fields = (i: number) => ({ [f('L')]: `b${i}`, [f('Q')]: 1, [f('T')]: 'b'.repeat(200_000) });
    await ok(
      put(
        B,
        bIds.map((rid, i) => ({ id: rid, fields: fields(i) })),
      ),
    );
  });

  it('takes every page of 500 with the four rewritten once a page, so no request waits, and both sides hold every link', async () => {
    for (let i = 0; i < MANY; i += 500) {
      const page = aIds.slice(i, i + 500).map((rid, k) => ({
        id: rid,
        fields: { [f('K')]: `a${i + k}`, [f('M')]: bIds, [f('P')]: 5 },
      }));
      await ok(probed(() => put(A, page)));
    }
    const four = await readAll(base, 'B', ['Links']);
    for (const fields of four.values()) expect(fields.Links).toEqual(aIds);
  });

  it('renames one of the four, its 2,000 linkers computed from the four read once, so no request waits', async () => {
    const r = await probed(() =>
      s.request('PATCH', `/v0/${base}/B/${bIds[0]}`, { fields: { Name: 'renamed' } }),
    );
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    // The change goes once round the cycle: every A computed again from the four, each read once.
    const totals = [...(await readAll(base, 'A', ['Total'])).values()].map((t) => t.Total);
    expect(totals).toHaveLength(MANY);
    for (const t of totals) expect(Number.isFinite(t)).toBe(true);
    expect((await readAll(base, 'B', ['Name'])).get(bIds[0]!)?.Name).toBe('renamed');
  });

  it('deletes one of the four through the mirror route, its 2,000 linkers losing it, so no request waits', async () => {
    await ok(
      probed(() =>
        s.request('POST', `/_tabledesk/mirror/bases/${base}/tables/${B}/delete`, { ids: [bIds[3]] }),
      ),
    );
    for (const fields of (await readAll(base, 'A', ['Links'])).values())
      expect(fields.Links).toEqual(bIds.slice(0, 3));
  });

  it('refuses a change whose linkers are too large to rewrite in one write: a 422 naming it, nothing changed', async () => {
    // 12 KB notes make the 2,000 linkers 24 MB to read, compute and write back: past the write's budget.
    for (let i = 0; i < MANY; i += 500) {
      const page = aIds.slice(i, i + 500).map((rid, k) => ({
        id: rid,
        fields: {
          [f('K')]: `a${i + k}`,
          [f('M')]: bIds.slice(0, 3),
          [f('P')]: 4,
          [f('S')]: 'n'.repeat(12_000),
        },
      }));
      await ok(put(A, page));
    }
    const r = await probed(() =>
      s.request('PATCH', `/v0/${base}/B/${bIds[1]}`, { fields: { Name: 'renamed too' } }),
    );
    expect(r.status, r.text.slice(0, 300)).toBe(422);
    expect(r.body.error.message).toMatch(/too much linked data|too large|too expensive/);
    const four = await readAll(base, 'B', ['Name']);
    expect(four.get(bIds[1]!)?.Name).toBe('b1');
    for (const fields of (await readAll(base, 'A', ['Total'])).values()) expect(fields.Total).toBe(4);
  });
});

describe('one record linking 20,000 through the mirror route (a huge or hostile remote)', () => {
  // Each record it links gains its side of the link: 20,000 records read, computed and written back held every
  // request 1-2 s in one transaction; they go in slices, other requests answered in between.
  const id = (prefix: string, c: string) => prefix + c.repeat(14);
  const base = id('app', 'w');
  const A = id('tbl', 'w');
  const B = id('tbl', 'x');
  const f = (c: string) => id('fld', c);
  const MANY = 20_000;
  // Each record is read and written back whole: notes make the 20,000 about 40 MB of it.
  const note = 'n'.repeat(2000);
  const aIds = Array.from({ length: MANY }, (_, i) => `recW${i.toString(36).padStart(13, '0')}`);
  const hub = id('rec', 'x').slice(0, 17);
  const at = '2024-01-01T00:00:00.000Z';
  const put = (tid: string, records: { id: string; fields: Record<string, unknown> }[]) =>
    s.request('POST', `/_tabledesk/mirror/bases/${base}/tables/${tid}/records`, {
      records: records.map((r) => ({ ...r, createdTime: at })),
    });
  /** The link cells of A's records at the ends of slices and of the table (reading all 20,000 takes 200 pages). */
  const aLinks = async () => {
    const out: unknown[] = [];
    for (const i of [0, 499, 500, 10_000, MANY - 1])
      out.push((await ok(s.request('GET', `/v0/${base}/A/${aIds[i]}`))).body.fields.Links);
    return out;
  };
  const table = (tid: string, name: string, own: string, link: string, back: string) => ({
    id: tid,
    name,
    primaryFieldId: f(own),
    fields: [
      { id: f(own), name: 'Name', type: 'singleLineText' },
      { id: f(own === 'w' ? 'v' : 'u'), name: 'Note', type: 'multilineText' },
      {
        id: f(link),
        name: 'Links',
        type: 'multipleRecordLinks',
        options: { linkedTableId: tid === A ? B : A, inverseLinkFieldId: f(back) },
      },
    ],
    views: [{ id: id('viw', own), name: 'Grid view', type: 'grid' }],
  });

  beforeAll(async () => {
    await ok(
      s.request('PUT', `/_tabledesk/mirror/bases/${base}`, {
        name: 'Hub',
        tables: [table(A, 'A', 'w', 'y', 'z'), table(B, 'B', 'x', 'z', 'y')],
      }),
    );
    for (let i = 0; i < MANY; i += 1000)
      await ok(
        put(
          A,
          aIds
            .slice(i, i + 1000)
            .map((rid, k) => ({ id: rid, fields: { [f('w')]: `a${i + k}`, [f('v')]: note } })),
        ),
      );
  });

  it('is written, and the 20,000 gain their side of its links, with no request waiting', async () => {
    await ok(probed(() => put(B, [{ id: hub, fields: { [f('x')]: 'hub', [f('z')]: aIds } }])));
    expect(await aLinks()).toEqual(Array(5).fill([hub]));
  });

  it('is deleted through the mirror route, and the 20,000 lose it, with no request waiting', async () => {
    await ok(
      probed(() => s.request('POST', `/_tabledesk/mirror/bases/${base}/tables/${B}/delete`, { ids: [hub] })),
    );
    expect(await aLinks()).toEqual(Array(5).fill(undefined));
  });
});

describe('an upsert into a large table', () => {
  // Each record upserted is matched on its merge fields: a scan of the table apiece held every request seconds.
  const TASKS = 20_000;
  let big: LocalServer;
  beforeAll(async () => {
    big = await startLocalServer({ demo: { largeTableRecords: TASKS } });
  }, 60_000);
  afterAll(() => big.close());

  it('finds each record by a seek: no request waits behind it, and a second upsert updates', async () => {
    const upsert = () =>
      big.request('PATCH', `/v0/${big.baseId}/Tasks`, {
        performUpsert: { fieldsToMergeOn: ['Name', 'Notes'] },
        records: Array.from({ length: 10 }, (_, i) => ({ fields: { Name: `upserted ${i}`, Notes: 'n' } })),
      });
    for (const expected of ['created', 'updated'] as const) {
      const { result, probe } = await probing(big, upsert);
      expect(result.status, result.text.slice(0, 300)).toBe(200);
      expect(result.body[expected === 'created' ? 'createdRecords' : 'updatedRecords']).toHaveLength(10);
      expect(probe.worstMs).toBeLessThan(stallMs);
    }
  });
});

describe('a large table whose records link to each other one way (a self-link: no field back to read)', () => {
  // Its linkers are found by a scan of the table: one for all the records a write changes, not one each (a scan
  // per record renamed or deleted held every request 1.6-2 s at 50,000 records). Its records also link to
  // tags, a pair of fields: a tag's linkers are read from its own side of the pair, not from a scan.
  const RECORDS = 30_000;
  const PARENTS = 100;
  const CHILDREN = 2_000;
  const base = 'appSSSSSSSSSSSSSS';
  const table = 'tblSSSSSSSSSSSSSS';
  const tags = 'tblTTTTTTTTTTTTTT';
  const TAGS = 20;
  const tagId = (i: number) => `recT${String(i).padStart(13, '0')}`;
  const fld = (c: string) => `fld${c.repeat(14)}`;
  const rid = (i: number) => `recS${String(i).padStart(13, '0')}`;
  const ten = (from: number) => Array.from({ length: 10 }, (_, i) => rid(from + i));

  beforeAll(async () => {
    await ok(
      s.request('PUT', `/_tabledesk/mirror/bases/${base}`, {
        name: 'Self',
        tables: [
          {
            id: table,
            name: 'Items',
            primaryFieldId: fld('A'),
            fields: [
              { id: fld('A'), name: 'Name', type: 'singleLineText' },
              { id: fld('N'), name: 'Notes', type: 'multilineText' },
              {
                id: fld('P'),
                name: 'Parent',
                type: 'multipleRecordLinks',
                options: { linkedTableId: table },
              },
              {
                id: fld('L'),
                name: 'Parent name',
                type: 'multipleLookupValues',
                options: { recordLinkFieldId: fld('P'), fieldIdInLinkedTable: fld('A') },
              },
              {
                id: fld('K'),
                name: 'Tag',
                type: 'multipleRecordLinks',
                options: { linkedTableId: tags, inverseLinkFieldId: fld('I') },
              },
            ],
            views: [{ id: 'viwSSSSSSSSSSSSSS', name: 'Grid view', type: 'grid' }],
          },
          {
            id: tags,
            name: 'Tags',
            primaryFieldId: fld('B'),
            fields: [
              { id: fld('B'), name: 'Name', type: 'singleLineText' },
              {
                id: fld('I'),
                name: 'Items',
                type: 'multipleRecordLinks',
                options: { linkedTableId: table, inverseLinkFieldId: fld('K') },
              },
            ],
            views: [{ id: 'viwTTTTTTTTTTTTTT', name: 'Grid view', type: 'grid' }],
          },
        ],
      }),
    );
    // Records past the parents link to parent i % PARENTS, with its name looked up; the children to tag i % TAGS.
    const tagged = (t: number) =>
      Array.from({ length: CHILDREN / TAGS }, (_, k) => rid(PARENTS + t + k * TAGS));
    await ok(
      s.request('POST', `/_tabledesk/mirror/bases/${base}/tables/${tags}/records`, {
        records: Array.from({ length: TAGS }, (_, t) => ({
          id: tagId(t),
          createdTime: '2024-01-01T00:00:00.000Z',
          fields: { [fld('B')]: `tag ${t}`, [fld('I')]: tagged(t) },
        })),
      }),
    );
    const notes = 'A note long enough to make each record cost its scan. '.repeat(32);
    for (let i = 0; i < RECORDS; i += 1000)
      await ok(
        s.request('POST', `/_tabledesk/mirror/bases/${base}/tables/${table}/records`, {
          records: Array.from({ length: 1000 }, (_, k) => {
            const n = i + k;
            const child = n >= PARENTS && n < PARENTS + CHILDREN;
            return {
              id: rid(n),
              createdTime: '2024-01-01T00:00:00.000Z',
              fields: {
                [fld('A')]: `item ${n}`,
                [fld('N')]: notes,
                ...(child
                  ? {
                      [fld('P')]: [rid(n % PARENTS)],
                      [fld('L')]: [`item ${n % PARENTS}`],
                      [fld('K')]: [tagId((n - PARENTS) % TAGS)],
                    }
                  : {}),
              },
            };
          }),
        }),
      );
  }, 60_000);

  it('renames ten records, and their linkers follow, with no request waiting', async () => {
    const r = await probed(() =>
      s.request('PATCH', `/v0/${base}/${table}`, {
        records: ten(0).map((id) => ({ id, fields: { Name: `renamed ${id}` } })),
      }),
    );
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    const child = await ok(s.request('GET', `/v0/${base}/${table}/${rid(PARENTS + 3)}`));
    expect(child.body.fields['Parent name']).toEqual([`renamed ${rid(3)}`]);
  });

  it('deletes ten records, and their linkers lose them, with no request waiting', async () => {
    const r = await probed(() =>
      s.request(
        'DELETE',
        `/v0/${base}/${table}?${ten(10)
          .map((id) => `records[]=${id}`)
          .join('&')}`,
      ),
    );
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    const child = await ok(s.request('GET', `/v0/${base}/${table}/${rid(PARENTS + 13)}`));
    expect(child.body.fields.Parent).toBeUndefined();
    expect(child.body.fields['Parent name']).toBeUndefined();
    const other = await ok(s.request('GET', `/v0/${base}/${table}/${rid(PARENTS + 23)}`));
    expect(other.body.fields.Parent).toEqual([rid(23)]);
  });

  it('deletes ten tags, and the records lose them, with no request waiting', async () => {
    const r = await probed(() =>
      s.request(
        'DELETE',
        `/v0/${base}/${tags}?${Array.from({ length: 10 }, (_, t) => `records[]=${tagId(t)}`).join('&')}`,
      ),
    );
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    const lost = await ok(s.request('GET', `/v0/${base}/${table}/${rid(PARENTS + 3 + TAGS)}`));
    expect(lost.body.fields.Tag).toBeUndefined();
    const kept = await ok(s.request('GET', `/v0/${base}/${table}/${rid(PARENTS + 13 + TAGS)}`));
    expect(kept.body.fields.Tag).toEqual([tagId(13)]);
  });

  it('deletes ten records no record links to, with no request waiting', async () => {
    const r = await probed(() =>
      s.request(
        'DELETE',
        `/v0/${base}/${table}?${ten(RECORDS - 10)
          .map((id) => `records[]=${id}`)
          .join('&')}`,
      ),
    );
    expect(r.status, r.text.slice(0, 300)).toBe(200);
  });
});

describe('select choices', () => {
  it('a field holds at most 5,000: more given are refused, and typecast adds none past it, keeping nothing of the write', async () => {
    const made = await s.request('POST', `/v0/meta/bases/${s.baseId}/tables/Tasks/fields`, {
      name: 'Many choices',
      type: 'multipleSelects',
      options: { choices: Array.from({ length: 50_000 }, (_, i) => ({ name: `c${i}` })) },
    });
    expect(made.status, made.text.slice(0, 300)).toBe(422);
    expect(made.body.error.message).toContain(`at most ${MAX_SELECT_CHOICES} choices`);

    const flood = (n: number, from = 0) =>
      s.request('POST', `/v0/${s.baseId}/Tasks`, {
        typecast: true,
        records: [{ fields: { Name: 'tags', Tags: Array.from({ length: n }, (_, i) => `t${from + i}`) } }],
      });
    const refused = await flood(20_000);
    expect(refused.status, refused.text.slice(0, 300)).toBe(422);
    expect(refused.body.error.message).toContain(`has ${MAX_SELECT_CHOICES} choices`);
    const schema = async () =>
      (await s.request('GET', `/v0/meta/bases/${s.baseId}/tables`)).body.tables
        .find((t: { name: string }) => t.name === 'Tasks')
        .fields.find((f: { name: string }) => f.name === 'Tags').options.choices.length as number;
    const before = await schema();
    expect(before).toBeLessThan(100);
    // Up to the bound they are added, one write at a time.
    await ok(flood(MAX_SELECT_CHOICES - before));
    expect(await schema()).toBe(MAX_SELECT_CHOICES);
    expect((await flood(1, MAX_SELECT_CHOICES)).status).toBe(422);
  });
});

describe('a rename computing a five-table chain of lookups again, near the cap on records computed again', () => {
  // 4 × 740 records, each looking up the one before it, the first the hub: renaming the hub computes 2,960 again.
  // With 3 KB notes each was charged its bytes alone, within the budget, and held every request 1-2 s.
  const N = 740;
  const T = 5;
  const base = 'appCHAINCHAINCHAI';
  const tid = (t: number) => `tblC${String(t).padStart(13, '0')}`;
  const fid = (t: number, k: string) => `fld${k}${String(t).padStart(13, '0')}`;
  const rid = (t: number, i: number) => `rec${t}${i.toString(36).padStart(13, '0')}`;
  const hub = rid(0, 0);
  const tables = Array.from({ length: T }, (_, t) => ({
    id: tid(t),
    name: `T${t}`,
    primaryFieldId: fid(t, 'N'),
    fields: [
      { id: fid(t, 'N'), name: 'Name', type: 'singleLineText' },
      { id: fid(t, 'O'), name: 'Note', type: 'multilineText' },
      ...(t > 0
        ? [
            {
              id: fid(t, 'L'),
              name: 'Prev',
              type: 'multipleRecordLinks',
              options: { linkedTableId: tid(t - 1), inverseLinkFieldId: fid(t - 1, 'B') },
            },
            {
              id: fid(t, 'K'),
              name: 'Up',
              type: 'multipleLookupValues',
              options: {
                recordLinkFieldId: fid(t, 'L'),
                fieldIdInLinkedTable: t === 1 ? fid(0, 'N') : fid(t - 1, 'K'),
              },
            },
          ]
        : []),
      ...(t < T - 1
        ? [
            {
              id: fid(t, 'B'),
              name: 'Next',
              type: 'multipleRecordLinks',
              options: { linkedTableId: tid(t + 1), inverseLinkFieldId: fid(t + 1, 'L') },
            },
          ]
        : []),
    ],
    views: [{ id: `viw${String(t).padStart(14, '0')}`, name: 'Grid view', type: 'grid' }],
  }));
  const put = (t: number, records: { id: string; fields: Record<string, unknown> }[]) =>
    ok(
      s.request('POST', `/_tabledesk/mirror/bases/${base}/tables/${tid(t)}/records`, {
        records: records.map((r) => ({ ...r, createdTime: '2024-01-01T00:00:00.000Z' })),
      }),
    );
  /** Every record of the chain written again, each with a note of `note` characters. */
  const fill = async (note: number) => {
    await put(0, [{ id: hub, fields: { [fid(0, 'N')]: 'hub', [fid(0, 'O')]: 'n'.repeat(note) } }]);
    for (let t = 1; t < T; t++)
      for (let i = 0; i < N; i += 500)
        await put(
          t,
          Array.from({ length: Math.min(500, N - i) }, (_, k) => ({
            id: rid(t, i + k),
            fields: {
              [fid(t, 'N')]: `r${t}-${i + k}`,
              [fid(t, 'O')]: 'n'.repeat(note),
              [fid(t, 'L')]: [t === 1 ? hub : rid(t - 1, i + k)],
            },
          })),
        );
  };
  const rename = (name: string) => s.request('PATCH', `/v0/${base}/T0/${hub}`, { fields: { Name: name } });
  const lastUp = async () => (await ok(s.request('GET', `/v0/${base}/T4/${rid(4, N - 1)}`))).body.fields.Up;

  beforeAll(async () => {
    await ok(s.request('PUT', `/_tabledesk/mirror/bases/${base}`, { name: 'Chain', tables }));
  });

  it('is written when its records are small', async () => {
    await fill(0);
    await ok(rename('renamed'));
    expect(await lastUp()).toEqual(['renamed']);
  });

  it('is refused with a 422 when they are 3 KB each (each record is charged its own cost, not its bytes alone)', async () => {
    await fill(3000);
    const before = await lastUp();
    const r = await rename('renamed again');
    expect(r.status, r.text.slice(0, 300)).toBe(422);
    expect(r.body.error.message).toMatch(/rewrite too much linked data in one write/);
    expect(await lastUp()).toEqual(before);
    expect((await ok(s.request('GET', `/v0/${base}/T0/${hub}`))).body.fields.Name).toBe('hub');
  });
});
