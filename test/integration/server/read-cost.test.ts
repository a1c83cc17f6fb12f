/**
 * What a read costs beyond its records. A filter reading a link cell reads the linked records' names, and
 * SQLite parses a whole linked record to take its name out: each linked record is read once a request and
 * charged its size, so a record many records link to (its own cell of links making it large) is read once, not
 * once per linker, and linked records too large to read are a 422 rather than seconds of work; so with links
 * named as text (cellFormat=string). Sorting and grouping read every cell of a column: a sort index holds a
 * prefix of each text's key, so making it folds no more than that of a long note, and an aggregate reads its
 * records in chunks sized by how long they take, so other requests are answered between them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer } from '../../support/local-server';
import type { AnyReply, LocalServer } from '../../support/local-server';
import { TEXT_KEY_LENGTH } from '../../../core/records/aggregate';

let s: LocalServer;

beforeAll(async () => {
  s = await startLocalServer({ demo: { largeTableRecords: 10 } });
});
afterAll(() => s.close());

async function ok(r: Promise<AnyReply>): Promise<AnyReply> {
  const answer = await r;
  expect(answer.status, answer.text.slice(0, 300)).toBe(200);
  return answer;
}

const id = (prefix: string, c: string) => prefix + c.repeat(14);
const base = id('app', 'l');
const A = id('tbl', 'a');
const B = id('tbl', 'b');
const f = (c: string) => id('fld', c);
const at = '2024-01-01T00:00:00.000Z';
const put = (tid: string, records: { id: string; fields: Record<string, unknown> }[]) =>
  ok(
    s.request('POST', `/_tabledesk/mirror/bases/${base}/tables/${tid}/records`, {
      records: records.map((r) => ({ ...r, createdTime: at })),
    }),
  );
const table = (tid: string, name: string, own: string, note: string, link: string, back: string) => ({
  id: tid,
  name,
  primaryFieldId: f(own),
  fields: [
    { id: f(own), name: 'Name', type: 'singleLineText' },
    { id: f(note), name: 'Note', type: 'multilineText' },
    {
      id: f(link),
      name: 'Links',
      type: 'multipleRecordLinks',
      options: { linkedTableId: tid === A ? B : A, inverseLinkFieldId: f(back) },
    },
  ],
  views: [{ id: id('viw', own), name: 'Grid view', type: 'grid' }],
});
const filter = (t: string, formula: string, more = '') =>
  s.request('GET', `/v0/${base}/${t}?filterByFormula=${encodeURIComponent(formula)}${more}`);
const asText = 'cellFormat=string&timeZone=UTC&userLocale=en';
const count = (t: string, formula: string) =>
  s.request('POST', `/_tabledesk/v1/${base}/${t}/count`, { filterByFormula: formula });

beforeAll(async () => {
  await ok(
    s.request('PUT', `/_tabledesk/mirror/bases/${base}`, {
      name: 'Links',
      tables: [table(A, 'A', 'n', 'o', 'p', 'q'), table(B, 'B', 'r', 's', 'q', 'p')],
    }),
  );
});

describe('20,000 records linking one record that links them all back', () => {
  // The hub's own cell of 20,000 links makes it about 400 KB: read again for each linker, a filter naming its
  // links computed 9-13 s (in slices, other requests answered between) before it was refused.
  const MANY = 20_000;
  const aIds = Array.from({ length: MANY }, (_, i) => `recA${i.toString(36).padStart(13, '0')}`);
  const hub = id('rec', 'h').slice(0, 17);

  beforeAll(async () => {
    for (let i = 0; i < MANY; i += 1000)
      await put(
        A,
        aIds.slice(i, i + 1000).map((rid, k) => ({ id: rid, fields: { [f('n')]: `a${i + k}` } })),
      );
    await put(B, [{ id: hub, fields: { [f('r')]: 'hub', [f('q')]: aIds } }]);
  });

  it('reads the hub once: the list, its sort, count and aggregate answer, within the budget', async () => {
    const none = await ok(filter('A', "NOT({Links}='hub')"));
    expect(none.body.records).toEqual([]);
    const sorted = await ok(filter('A', "FIND('hub', ARRAYJOIN({Links}))", '&sort%5B0%5D%5Bfield%5D=Links'));
    expect(sorted.body.records).toHaveLength(100);
    expect((await ok(count('A', "{Links}='hub'"))).body.count).toBe(MANY);
    const summed = await ok(
      s.request('POST', `/_tabledesk/v1/${base}/A/aggregate`, {
        filterByFormula: "LEN({Links} & '') = 3",
        summaries: [{ field: 'Name', kind: 'filled' }],
      }),
    );
    expect(summed.body.total).toBe(MANY);
  });

  it('names the hub once a page as text (cellFormat=string)', async () => {
    // A page of 100 records linking ten such hubs parsed each hub for each record (1,000 of 400 KB: 4 s).
    const page = await ok(filter('A', 'TRUE()', `&${asText}`));
    expect(page.body.records).toHaveLength(100);
    for (const r of page.body.records) expect(r.fields.Links).toBe('hub');
  });
});

describe('a record linking records too large to read', () => {
  // Each linked record is charged its size (a unit per 4 bytes): 48 records of 1 MB are past one record's share.
  const big = Array.from({ length: 48 }, (_, i) => `recB${i.toString(36).padStart(13, '0')}`);
  const note = 'n'.repeat(1_000_000);
  const linker = id('rec', 'k').slice(0, 17);

  beforeAll(async () => {
    for (let i = 0; i < big.length; i += 6)
      await put(
        B,
        big
          .slice(i, i + 6)
          .map((rid, k) => ({ id: rid, fields: { [f('r')]: `big ${i + k}`, [f('s')]: note } })),
      );
    await put(A, [{ id: linker, fields: { [f('n')]: 'linker', [f('p')]: big } }]);
  });

  it('is refused with a 422 naming the record, through the list and count', async () => {
    for (const r of [
      await filter('A', "FIND('big 47', ARRAYJOIN({Links}))"),
      await count('A', "FIND('big 47', ARRAYJOIN({Links}))"),
    ]) {
      expect(r.status, r.text.slice(0, 300)).toBe(422);
      expect(r.body.error.type).toBe('INVALID_FILTER_BY_FORMULA');
      expect(r.body.error.message).toMatch(/too expensive: it needs more work than one record may take/);
    }
    // Named as text, they are too large for one request too.
    const named = await filter('A', "{Name} = 'linker'", `&${asText}`);
    expect(named.status, named.text.slice(0, 300)).toBe(422);
    expect(named.body.error.message).toMatch(/too large to name in one request/);
    const one = await s.request('GET', `/v0/${base}/A/${linker}?${asText}`);
    expect(one.status, one.text.slice(0, 300)).toBe(422);
  });
});

const sortBase = 'appSORTSORTSORTSO';
const sortTable = 'tblSORTSORTSORTSO';
const g = (c: string) => `fld${c.repeat(13)}S`;
const putNotes = (records: { id: string; fields: Record<string, unknown> }[]) =>
  ok(
    s.request('POST', `/_tabledesk/mirror/bases/${sortBase}/tables/${sortTable}/records`, {
      records: records.map((r) => ({ ...r, createdTime: '2024-01-01T00:00:00.000Z' })),
    }),
  );
const rid = (i: number) => `recS${i.toString(36).padStart(13, '0')}`;

beforeAll(async () => {
  await ok(
    s.request('PUT', `/_tabledesk/mirror/bases/${sortBase}`, {
      name: 'Sorts',
      tables: [
        {
          id: sortTable,
          name: 'Notes',
          primaryFieldId: g('n'),
          fields: [
            { id: g('n'), name: 'Name', type: 'singleLineText' },
            { id: g('o'), name: 'Note', type: 'multilineText' },
            { id: g('p'), name: 'Points', type: 'number', options: { precision: 0 } },
          ],
          views: [{ id: 'viwSORTSORTSORTSO', name: 'Grid view', type: 'grid' }],
        },
      ],
    }),
  );
});

describe('a sort by a long text', () => {
  it('orders by the first TEXT_KEY_LENGTH characters, texts alike that far by creation', async () => {
    const same = 'x'.repeat(TEXT_KEY_LENGTH);
    await putNotes([
      { id: rid(0), fields: { [g('n')]: 'first', [g('o')]: `${same}b` } },
      { id: rid(1), fields: { [g('n')]: 'second', [g('o')]: `${same}a` } },
      { id: rid(2), fields: { [g('n')]: 'third', [g('o')]: 'w' } },
    ]);
    const page = await ok(
      s.request('GET', `/v0/${sortBase}/Notes?sort%5B0%5D%5Bfield%5D=Note&fields%5B%5D=Name`),
    );
    expect(page.body.records.map((r: { fields: { Name: string } }) => r.fields.Name)).toEqual([
      'third',
      'first',
      'second',
    ]);
  });
});

describe('an aggregate over large records', () => {
  // 2,000 records of 20 KB notes: read as one chunk of 5,000 they held every request until the end.
  const N = 2000;
  beforeAll(async () => {
    const note = 'n'.repeat(20_000);
    for (let i = 0; i < N; i += 300)
      await putNotes(
        Array.from({ length: Math.min(300, N - i) }, (_, k) => ({
          id: rid(100 + i + k),
          fields: { [g('n')]: `r${i + k}`, [g('o')]: note, [g('p')]: 1 },
        })),
      );
  });

  it('answers other requests between its chunks', async () => {
    const order: string[] = [];
    const summed = s
      .request('POST', `/_tabledesk/v1/${sortBase}/Notes/aggregate`, {
        groupBy: [{ field: 'Name' }],
        summaries: [{ field: 'Points', kind: 'sum' }],
      })
      .then((r) => {
        order.push('aggregate');
        return r;
      });
    // Asked once the aggregate has started: its first chunk is read before the server reads this request.
    await new Promise((resolve) => setImmediate(resolve));
    const probe = s.request('GET', '/v0/meta/whoami').then((r) => {
      order.push('probe');
      return r;
    });
    const [r, p] = await Promise.all([summed, probe]);
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    expect(r.body.summaries[0].value).toBe(N);
    expect(p.status).toBe(200);
    expect(order).toEqual(['probe', 'aggregate']);
  });
});
