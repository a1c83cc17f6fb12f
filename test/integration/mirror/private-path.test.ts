/** The local server's mirror write path is private: unlisted, the server's own key only, input checked. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';

let s: LocalServer;
const OTHER_KEY = 'patSomeoneElse0000000000000000';

beforeAll(async () => {
  s = await startLocalServer({
    demo: { largeTableRecords: 10 },
    users: [{ apiKey: OTHER_KEY, user: { id: 'usrOther00000000', email: 'o@example.com', name: 'Other' } }],
  });
});
afterAll(() => s.close());

const schema = {
  name: 'Mirror',
  tables: [
    {
      id: 'tblAAAAAAAAAAAAAA',
      name: 'T',
      primaryFieldId: 'fldAAAAAAAAAAAAAA',
      fields: [{ id: 'fldAAAAAAAAAAAAAA', name: 'Name', type: 'singleLineText' }],
      views: [{ id: 'viwAAAAAAAAAAAAAA', name: 'Grid view', type: 'grid' }],
    },
  ],
};

describe('the mirror write path', () => {
  it('is not named by the extensions answer', async () => {
    const r = await s.request('GET', '/_tabledesk/v1/extensions');
    expect(JSON.stringify(r.body)).not.toContain('mirror');
  });

  it('answers nobody without the key, and nothing to another user', async () => {
    const anonymous = await fetch(`${s.url}/_tabledesk/mirror/bases/appAAAAAAAAAAAAAA`, { method: 'PUT' });
    expect(anonymous.status).toBe(401);
    const other = await s.request('PUT', '/_tabledesk/mirror/bases/appAAAAAAAAAAAAAA', schema, {
      authorization: `Bearer ${OTHER_KEY}`,
    });
    expect(other.status).toBe(404);
    expect(
      (await s.request('GET', '/v0/meta/bases')).body.bases.map((b: { id: string }) => b.id),
    ).not.toContain('appAAAAAAAAAAAAAA');
  });

  it('writes a base and records with given ids and times, and refuses bad ids with a 422', async () => {
    expect((await s.request('PUT', '/_tabledesk/mirror/bases/appAAAAAAAAAAAAAA', schema)).status).toBe(200);
    const put = await s.request(
      'POST',
      '/_tabledesk/mirror/bases/appAAAAAAAAAAAAAA/tables/tblAAAAAAAAAAAAAA/records',
      {
        records: [
          {
            id: 'recAAAAAAAAAAAAAA',
            createdTime: '2020-01-02T03:04:05.000Z',
            fields: { fldAAAAAAAAAAAAAA: 'x' },
          },
        ],
      },
    );
    expect(put.status).toBe(200);
    // What the mirror wrote is not touched; the route answers the server's own key only, in bounded pages.
    const touched = '/_tabledesk/mirror/bases/appAAAAAAAAAAAAAA/tables/tblAAAAAAAAAAAAAA/touched';
    expect((await s.request('GET', touched)).body).toEqual({ ids: ['recAAAAAAAAAAAAAA'], touched: [] });
    const asOther = await s.request('GET', touched, undefined, { authorization: `Bearer ${OTHER_KEY}` });
    expect(asOther.status).toBe(404);
    expect((await s.request('GET', `${touched}?limit=100000`)).status).toBe(422);

    // Records made here are touched; a page holds at most 1,000 of them whole, and the next goes on after.
    const made: string[] = [];
    for (let i = 0; i < 1005; i += 10) {
      const records = Array.from({ length: Math.min(10, 1005 - i) }, (_, j) => ({
        fields: { Name: `made ${i + j}` },
      }));
      const created = await s.request('POST', '/v0/appAAAAAAAAAAAAAA/T', { records });
      made.push(...(created.body as { records: { id: string }[] }).records.map((r) => r.id));
    }
    const first = (await s.request('GET', touched)).body as {
      ids: string[];
      touched: { id: string }[];
      after?: number;
    };
    expect(first.touched).toHaveLength(1000);
    expect(first.ids).toEqual(['recAAAAAAAAAAAAAA', ...made.slice(0, 1000)]);
    const rest = (await s.request('GET', `${touched}?after=${first.after}`)).body as typeof first;
    expect(rest).toEqual({
      ids: made.slice(1000),
      touched: made.slice(1000).map((id) => expect.objectContaining({ id })),
    });
    const rec = await s.request('GET', '/v0/appAAAAAAAAAAAAAA/T/recAAAAAAAAAAAAAA');
    expect(rec.body).toEqual({
      id: 'recAAAAAAAAAAAAAA',
      createdTime: '2020-01-02T03:04:05.000Z',
      fields: { Name: 'x' },
    });
    const bad = await s.request(
      'POST',
      '/_tabledesk/mirror/bases/appAAAAAAAAAAAAAA/tables/tblAAAAAAAAAAAAAA/records',
      {
        records: [{ id: "rec'); DROP", createdTime: '2020-01-02T03:04:05.000Z', fields: {} }],
      },
    );
    expect(bad.status).toBe(422);
    const badSchema = await s.request('PUT', '/_tabledesk/mirror/bases/appAAAAAAAAAAAAAA', {
      ...schema,
      name: 'Bad\u202Ename',
    });
    expect(badSchema.status).toBe(422);
  });

  it('keeps an attachment as a link only (http or https, as given), and refuses any other link', async () => {
    const withFiles = {
      ...schema.tables[0]!,
      fields: [
        ...schema.tables[0]!.fields,
        { id: 'fldBBBBBBBBBBBBBB', name: 'Files', type: 'multipleAttachments' },
      ],
    };
    expect(
      (
        await s.request('PUT', '/_tabledesk/mirror/bases/appAAAAAAAAAAAAAA', {
          ...schema,
          tables: [withFiles],
        })
      ).status,
    ).toBe(200);
    const put = (url: string, id = 'recBBBBBBBBBBBBBB') =>
      s.request('POST', '/_tabledesk/mirror/bases/appAAAAAAAAAAAAAA/tables/tblAAAAAAAAAAAAAA/records', {
        records: [
          {
            id,
            createdTime: '2020-01-02T03:04:05.000Z',
            fields: {
              fldBBBBBBBBBBBBBB: [
                { id: 'attBBBBBBBBBBBBBB', filename: 'a.png', type: 'image/png', size: 5, url },
              ],
            },
          },
        ],
      });
    expect((await put('https://files.example.com/a.png?sig=1')).status).toBe(200);
    const rec = await s.request('GET', '/v0/appAAAAAAAAAAAAAA/T/recBBBBBBBBBBBBBB');
    expect(rec.body.fields.Files).toEqual([
      {
        id: 'attBBBBBBBBBBBBBB',
        filename: 'a.png',
        type: 'image/png',
        size: 5,
        url: 'https://files.example.com/a.png?sig=1',
      },
    ]);
    // A new record (one that has the attachment already keeps it by id, as any write of it does).
    for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'not a url'])
      expect((await put(url, 'recCCCCCCCCCCCCCC')).status).toBe(422);
  });

  it('refuses what the Web API refuses in an attachment: a CR/LF in its type or name, an item that is no object', async () => {
    const stored = await fetch(`${s.url}/_tabledesk/mirror/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.apiKey}`, 'content-type': 'application/octet-stream' },
      body: Buffer.from('plain bytes'),
    });
    const { hash } = (await stored.json()) as { hash: string };
    const put = (item: unknown) =>
      s.request('POST', '/_tabledesk/mirror/bases/appAAAAAAAAAAAAAA/tables/tblAAAAAAAAAAAAAA/records', {
        records: [
          {
            id: 'recDDDDDDDDDDDDDD',
            createdTime: '2020-01-02T03:04:05.000Z',
            fields: { fldBBBBBBBBBBBBBB: [item] },
          },
        ],
      });
    const good = { id: 'attDDDDDDDDDDDDDD', filename: 'a.txt', type: 'text/plain', blob: hash };
    for (const item of [
      { ...good, type: 'text/html\r\nX-Injected: 1' },
      { ...good, filename: 'a\r\nb.txt' },
      { ...good, blob: undefined, url: 'https://files.example.com/a.txt', type: 'text/plain\n' },
      null,
      'attDDDDDDDDDDDDDD',
    ]) {
      const r = await put(item);
      expect(r.status, JSON.stringify(item)).toBe(422);
      expect(r.body.error.message).toMatch(/attachment/);
    }
    expect((await put(good)).status).toBe(200);
    const rec = await s.request('GET', '/v0/appAAAAAAAAAAAAAA/T/recDDDDDDDDDDDDDD');
    const served = await fetch(rec.body.fields.Files[0].url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('text/plain');
    expect(await served.text()).toBe('plain bytes');
  });

  it('refuses a schema whose primary field it cannot hold, before anything changes, and leaves a link pair out together', async () => {
    const base = '/_tabledesk/mirror/bases/appEEEEEEEEEEEEEE';
    const name = { id: 'fldEEEEEEEEEEEEE1', name: 'Name', type: 'singleLineText' };
    const n = { id: 'fldEEEEEEEEEEEEE2', name: 'N', type: 'number', options: { precision: 0 } };
    const table = (fields: object[], primaryFieldId = name.id) => ({
      id: 'tblEEEEEEEEEEEEE1',
      name: 'E',
      primaryFieldId,
      fields,
      views: [],
    });
    const put = (tables: object[]) => s.request('PUT', base, { name: 'E', tables });
    expect((await put([table([name, n])])).status).toBe(200);
    const record = {
      id: 'recEEEEEEEEEEEEEE',
      createdTime: '2020-01-02T03:04:05.000Z',
      fields: { [name.id]: 'kept' },
    };
    expect(
      (await s.request('POST', `${base}/tables/tblEEEEEEEEEEEEE1/records`, { records: [record] })).status,
    ).toBe(200);

    // A primary field of a type this server does not know, or not among the fields: a 422, the copy as it was.
    for (const tables of [
      [table([{ ...name, type: 'aiSummaryV9' }, n])],
      [table([n], name.id)],
      [
        table([name, n]),
        {
          ...table([{ id: 'fldEEEEEEEEEEEEE3', name: 'P', type: 'aiSummaryV9' }], 'fldEEEEEEEEEEEEE3'),
          id: 'tblEEEEEEEEEEEEE2',
        },
      ],
    ]) {
      const r = await put(tables);
      expect(r.status, JSON.stringify(tables)).toBe(422);
      expect(r.body.error.message).toMatch(/primary field/);
    }
    // A type that is no type's name is refused on any field, primary or not.
    for (const type of ['../../etc/passwd', 'single line', '', 'a'.repeat(65)]) {
      const r = await put([table([name, { ...n, type }])]);
      expect(r.status, type).toBeGreaterThanOrEqual(400);
      expect(r.status, type).toBeLessThan(500);
    }
    const meta = await s.request('GET', '/v0/meta/bases/appEEEEEEEEEEEEEE/tables');
    expect(meta.body.tables.map((t: { id: string }) => t.id)).toEqual(['tblEEEEEEEEEEEEE1']);
    expect(meta.body.tables[0].fields.map((f: { type: string }) => f.type)).toEqual([
      'singleLineText',
      'number',
    ]);
    expect((await s.request('GET', '/v0/appEEEEEEEEEEEEEE/E/recEEEEEEEEEEEEEE')).body.fields).toEqual({
      Name: 'kept',
    });

    // A link field whose other side is left out (a type unknown here) is left out too.
    const other = {
      id: 'tblEEEEEEEEEEEEE2',
      name: 'F',
      primaryFieldId: 'fldEEEEEEEEEEEEF1',
      fields: [
        { id: 'fldEEEEEEEEEEEEF1', name: 'Name', type: 'singleLineText' },
        {
          id: 'fldEEEEEEEEEEEEF2',
          name: 'Es',
          type: 'multipleRecordLinks',
          options: { linkedTableId: 'tblEEEEEEEEEEEEE1', inverseLinkFieldId: 'fldEEEEEEEEEEEEE4' },
        },
      ],
      views: [],
    };
    const unknownLink = { id: 'fldEEEEEEEEEEEEE4', name: 'Fs', type: 'aiSummaryV9' };
    const applied = await put([table([name, n, unknownLink]), other]);
    expect(applied.status).toBe(200);
    expect(applied.body.skipped.map((f: { id: string }) => f.id).sort()).toEqual([
      'fldEEEEEEEEEEEEE4',
      'fldEEEEEEEEEEEEF2',
    ]);
  });
});
