/**
 * Input a client controls never gets a 5xx: each answer is a 4xx in Airtable's error shape, nothing invalid
 * is stored, and no stored value (even one written by an older version) makes a later read fail.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer, Reply } from '../../support/local-server';

let s: LocalServer;
let tableId: string;
let teamIds: string[];
const T = () => `/v0/${s.baseId}/Hostile`;

beforeAll(async () => {
  s = await startLocalServer({ demo: { largeTableRecords: 5 } });
  const tables = await s.request('GET', `/v0/meta/bases/${s.baseId}/tables`);
  const teams = tables.body.tables.find((t: { name: string }) => t.name === 'Teams');
  const created = await s.request('POST', `/v0/meta/bases/${s.baseId}/tables`, {
    name: 'Hostile',
    fields: [
      { name: 'Name', type: 'singleLineText' },
      { name: 'Day', type: 'date' },
      { name: 'At', type: 'dateTime' },
      { name: 'One', type: 'singleSelect', options: { choices: [{ name: 'Red' }] } },
      { name: 'Many', type: 'multipleSelects', options: { choices: [] } },
      { name: 'Files', type: 'multipleAttachments' },
      { name: 'Teams', type: 'multipleRecordLinks', options: { linkedTableId: teams.id } },
    ],
  });
  tableId = created.body.id;
  const list = await s.request('GET', `/v0/${s.baseId}/Teams?pageSize=3`);
  teamIds = list.body.records.map((r: { id: string }) => r.id);
});
afterAll(() => s.close());

/** A refusal in Airtable's shape: a 4xx with `{error: {type, message?}}` or `{error: "NOT_FOUND"}`. */
function expectRefused(r: Reply, status?: number): void {
  expect(r.status, r.text).toBeGreaterThanOrEqual(400);
  expect(r.status, r.text).toBeLessThan(500);
  if (status !== undefined) expect(r.status, r.text).toBe(status);
  const error = (r.body as { error?: unknown }).error;
  expect(typeof error === 'string' || typeof (error as { type?: unknown })?.type === 'string').toBe(true);
}

const create = (fields: Record<string, unknown>, typecast = false) =>
  s.request('POST', T(), { records: [{ fields }], typecast });

describe('ids and paths', () => {
  it('a base id of any shape that names no base is refused as Airtable refuses it', async () => {
    for (const [method, path] of [
      ['GET', '/v0/xyz/Tasks'],
      ['POST', '/v0/xyz/Tasks'],
      ['GET', '/v0/xyz/Tasks/recAAAAAAAAAAAAAA'],
      ['GET', '/v0/meta/bases/xyz/tables'],
      ['POST', '/v0/meta/bases/xyz/tables'],
      ['PATCH', '/v0/meta/bases/xyz/tables/tblAAAAAAAAAAAAAA'],
      ['POST', '/v0/meta/bases/xyz/tables/tblAAAAAAAAAAAAAA/fields'],
      ['GET', '/v0/appAAAAAAAAAAAAAA/Tasks'],
    ] as const)
      expectRefused(await s.request(method, path, method === 'GET' ? undefined : {}), 403);
    for (const path of ['/v0/..%2f..%2fetc/passwd', '/v0/%2e%2e/passwd', '/v0/..%2f..%2fetc%2fpasswd/x'])
      expectRefused(await s.request('GET', path));
  });

  it('malformed request lines and escapes answer 4xx', async () => {
    const port = Number(new URL(s.url).port);
    const raw = (target: string) =>
      new Promise<string>((resolve) => {
        const c = net.connect(port, '127.0.0.1', () =>
          c.write(
            `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${s.apiKey}\r\nConnection: close\r\n\r\n`,
          ),
        );
        let text = '';
        c.on('data', (b: Buffer) => (text += b.toString()));
        c.on('close', () => resolve(text.split('\r\n')[0] ?? ''));
      });
    for (const target of [
      '//[',
      '/[',
      '//[/x',
      '/%',
      '/v0/%zz',
      `/v0/${s.baseId}/%E0%A4%A`,
      '/v0/meta/whoami?%zz=%',
    ])
      expect(await raw(target)).toMatch(/^HTTP\/1\.1 [234]\d\d /);
  });
});

describe('query options', () => {
  it('options of the wrong shape on a single record answer 422 (found by the fuzz test)', async () => {
    const list = await s.request('GET', `${T()}?pageSize=1`);
    const id = list.body.records[0]?.id ?? 'recAAAAAAAAAAAAAA';
    for (const q of ['fields=%25', 'fields=Name', 'fields[a]=Name', 'recordMetadata=x'])
      expectRefused(await s.request('GET', `${T()}/${id}?${q}`), 422);
  });
});

describe('counts', () => {
  it('more sort rules than a page query can hold are refused; twenty page through', async () => {
    const sort = (n: number) => Array.from({ length: n }, () => ({ field: 'Name' }));
    await s.request('POST', T(), { records: [{ fields: { Name: 'b' } }, { fields: { Name: 'a' } }] });
    for (const n of [21, 300, 5000])
      expectRefused(await s.request('POST', `${T()}/listRecords`, { sort: sort(n) }), 422);
    const query = Array.from({ length: 21 }, (_, i) => `sort[${i}][field]=Name`).join('&');
    expectRefused(await s.request('GET', `${T()}?${query}`), 422);
    const first = await s.request('POST', `${T()}/listRecords`, { pageSize: 1, sort: sort(20) });
    expect(first.status, first.text).toBe(200);
    const next = await s.request('POST', `${T()}/listRecords`, {
      pageSize: 1,
      sort: sort(20),
      offset: first.body.offset,
    });
    expect(next.status, next.text).toBe(200);
    expect([first.body.records[0].fields.Name, next.body.records[0].fields.Name]).toEqual(['a', 'b']);
    expectRefused(
      await s.request('POST', `/v0/meta/bases/${s.baseId}/tables`, {
        name: 'Sorted view',
        fields: [{ name: 'Name', type: 'singleLineText' }],
        views: [{ name: 'V', sort: sort(21) }],
      }),
      422,
    );
  });
});

describe('values', () => {
  it('attachment URLs other than its own, malformed ones too, are refused', async () => {
    for (const url of [
      'https://files.example/a%zz%E0.png',
      'http://127.0.0.1:1/files/x',
      `${s.url}/files/${'a'.repeat(64)}/file/a%zz%E0.png?type=image%2Fpng&expires=1&signature=x`,
      'https://[',
      'http://',
      'https://exa mple.com/x',
      'javascript:alert(1)',
    ])
      expectRefused(await create({ Files: [{ url }] }), 422);
  });

  it('a dateTime outside years 0000–9999 is refused, with or without typecast', async () => {
    for (const typecast of [false, true])
      for (const At of [8.64e15 + 1, 1e20, -1e17, '+275760-09-13T00:00:00Z', '10000-01-01T00:00:00Z'])
        expectRefused(await create({ At }, typecast), 422);
    const ok = await create({ At: '9999-12-31T23:59:59Z' });
    expect(ok.body.records[0].fields.At).toBe('9999-12-31T23:59:59.000Z');
  });

  it('a far-future date is refused by typecast too, so cellFormat=string reads keep working', async () => {
    for (const Day of [1e15, 8.64e15, '99999-01-01', '+010000-01-01'])
      expectRefused(await create({ Day }, true), 422);
    const list = await s.request(
      'GET',
      `${T()}?cellFormat=string&timeZone=UTC&userLocale=en-US&pageSize=100`,
    );
    expect(list.status, list.text).toBe(200);
  });

  it('more link ids than SQLite has variables are checked, not a 500', async () => {
    const unknown = Array.from({ length: 40_000 }, (_, i) => `rec${String(i).padStart(14, 'A')}`);
    expectRefused(await create({ Teams: unknown }), 422);
    const repeated = Array.from({ length: 40_000 }, (_, i) => teamIds[i % teamIds.length]);
    const ok = await create({ Teams: repeated });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.records[0].fields.Teams).toEqual(teamIds);
  });

  it('a select option with a control or bidi character is refused; sorting by the field still works', async () => {
    for (const name of ['a\u0000b', 'tab\there', 'new\nline', 'evil\u202Etxt.exe', 'iso\u2066late']) {
      expectRefused(await create({ One: name }, true), 422);
      expectRefused(await create({ Many: [name] }, true), 422);
    }
    expect((await create({ One: "it's" }, true)).status).toBe(200);
    const sorted = await s.request('GET', `${T()}?sort[0][field]=One`);
    expect(sorted.status, sorted.text).toBe(200);
  });

  it('typecasting four thousand new select options is linear (seconds, not the quadratic minute)', async () => {
    const names = Array.from({ length: 4_000 }, (_, i) => `option ${i}`);
    const started = Date.now();
    const r = await create({ Many: names }, true);
    expect(r.status, r.text.slice(0, 200)).toBe(200);
    expect(r.body.records[0].fields.Many).toHaveLength(4_000);
    // The quadratic version took 44 s for 10,000 on the audit's machine (a field now holds at most 5,000).
    expect(Date.now() - started).toBeLessThan(8_000);
    const schema = await s.request('GET', `/v0/meta/bases/${s.baseId}/tables`);
    const many = schema.body.tables
      .find((t: { id: string }) => t.id === tableId)
      .fields.find((f: { name: string }) => f.name === 'Many');
    expect(many.options.choices).toHaveLength(4_000);
  });
});

describe('big selects', () => {
  it('a single select with thousands of options sorts by text, not through a CASE per option', async () => {
    const choices = Array.from({ length: 5000 }, (_, i) => ({ name: `c${4999 - i}` }));
    const field = await s.request('POST', `/v0/meta/bases/${s.baseId}/tables/${tableId}/fields`, {
      name: 'Huge select',
      type: 'singleSelect',
      options: { choices },
    });
    expect(field.status, field.text.slice(0, 200)).toBe(200);
    await s.request('POST', T(), {
      records: [
        { fields: { Name: 'three', 'Huge select': 'c3' } },
        { fields: { Name: 'one', 'Huge select': 'c1' } },
      ],
    });
    const sorted = await s.request(
      'GET',
      `${T()}?sort[0][field]=Huge%20select&sort[0][direction]=desc&pageSize=2`,
    );
    expect(sorted.status, sorted.text).toBe(200);
    expect(sorted.body.records.map((r: { fields: { Name: string } }) => r.fields.Name)).toEqual([
      'three',
      'one',
    ]);
  });
});

describe('typecast links', () => {
  const teamCount = async () => {
    let n = 0;
    let offset: string | undefined;
    do {
      const page = await s.request(
        'GET',
        `/v0/${s.baseId}/Teams?pageSize=100&fields[]=Name${offset ? `&offset=${offset}` : ''}`,
      );
      n += page.body.records.length;
      offset = page.body.offset;
    } while (offset);
    return n;
  };

  it('the records typecast creates count against the write: 999 new names go, 1,000 are refused whole', async () => {
    const names = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix} ${i}`);
    const before = await teamCount();
    const ok = await create({ Teams: names(999, 'Small team') }, true);
    expect(ok.status, ok.text.slice(0, 200)).toBe(200);
    expect(ok.body.records[0].fields.Teams).toHaveLength(999);
    expect(await teamCount()).toBe(before + 999);
    // The record itself and a thousand new ones: past the write's 1,000, nothing is created at all.
    const over = await create({ Teams: names(1000, 'Large team') }, true);
    expectRefused(over, 422);
    expect(over.body.error.message).toMatch(/1001 records.*at most 1000/);
    expect(await teamCount()).toBe(before + 999);
    const again = await create({ Teams: ['Small team 5', 'Small team 5', 'New team'] }, true);
    expect(again.body.records[0].fields.Teams[0]).toBe(ok.body.records[0].fields.Teams[5]);
    expect(again.body.records[0].fields.Teams).toHaveLength(2);
  });
});

describe('typecast writes each record it creates once', () => {
  it('each record typecast creates is one row written (its link back in it), by a create and by an update', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tabledesk-typecast-'));
    const server = await startLocalServer({ memory: false, dataDir, demo: { largeTableRecords: 5 } });
    // A second connection counts the rows the server writes: triggers in the file fire in every connection.
    const db = new Database(join(dataDir, 'tabledesk.sqlite'));
    try {
      db.exec(`CREATE TABLE test_writes (record_id TEXT NOT NULL);
        CREATE TRIGGER test_writes_insert AFTER INSERT ON records BEGIN INSERT INTO test_writes VALUES (NEW.id); END;
        CREATE TRIGGER test_writes_update AFTER UPDATE ON records BEGIN INSERT INTO test_writes VALUES (NEW.id); END;`);
      const writes = db.prepare('SELECT count(*) FROM test_writes WHERE record_id = ?').pluck();
      const meta = await server.request('GET', `/v0/meta/bases/${server.baseId}/tables`);
      const teams = meta.body.tables.find((t: { name: string }) => t.name === 'Teams');
      const table = await server.request('POST', `/v0/meta/bases/${server.baseId}/tables`, {
        name: 'Writer',
        fields: [
          { name: 'Name', type: 'singleLineText' },
          { name: 'Teams', type: 'multipleRecordLinks', options: { linkedTableId: teams.id } },
        ],
      });
      expect(table.status, table.text).toBe(200);
      const path = `/v0/${server.baseId}/Writer`;
      const names = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix} ${i}`);

      const made = await server.request('POST', path, {
        records: [{ fields: { Name: 'w', Teams: names(50, 'Once team') } }],
        typecast: true,
      });
      expect(made.status, made.text.slice(0, 200)).toBe(200);
      const writer = made.body.records[0].id as string;
      const first = made.body.records[0].fields.Teams as string[];
      expect(first).toHaveLength(50);
      expect(first.map((id) => writes.get(id))).toEqual(first.map(() => 1));
      const patched = await server.request('PATCH', path, {
        records: [{ id: writer, fields: { Teams: ['Once team 0', ...names(30, 'Later team')] } }],
        typecast: true,
      });
      expect(patched.status, patched.text.slice(0, 200)).toBe(200);

      // The PATCH unlinks the first write's teams but one (a write each); those it creates are written once.
      const later = (patched.body.records[0].fields.Teams as string[]).slice(1);
      expect(later).toHaveLength(30);
      expect(later.map((id) => writes.get(id))).toEqual(later.map(() => 1));
      const back = (await server.request('GET', `/v0/meta/bases/${server.baseId}/tables`)).body.tables
        .find((t: { name: string }) => t.name === 'Teams')
        .fields.find(
          (f: { type: string; options?: { linkedTableId?: string } }) =>
            f.type === 'multipleRecordLinks' && f.options?.linkedTableId === table.body.id,
        ).name as string;
      for (const id of [first[0], later[29]]) {
        const team = await server.request('GET', `/v0/${server.baseId}/Teams/${id}`);
        expect(team.body.fields[back]).toEqual([writer]);
      }
    } finally {
      db.close();
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('bodies', () => {
  it('JSON nested thousands deep is refused as a bad body (field options, record values)', async () => {
    const deep = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
    const field = await s.request(
      'POST',
      `/v0/meta/bases/${s.baseId}/tables/${tableId}/fields`,
      `{"name":"Deep","type":"singleLineText","options":${deep(5000)}}`,
    );
    expectRefused(field, 400);
    expect(field.body.error.type).toBe('INVALID_REQUEST_BODY');
    expectRefused(
      await s.request('POST', T(), `{"fields":{"Name":${'['.repeat(5000)}${']'.repeat(5000)}}}`),
      400,
    );
    const shallow = await s.request(
      'POST',
      `/v0/meta/bases/${s.baseId}/tables/${tableId}/fields`,
      `{"name":"Shallow","type":"singleLineText","options":${deep(10)}}`,
    );
    expect(shallow.status, shallow.text).toBe(200);
  });
});

describe('names', () => {
  const bad = ['nul\u0000', 'bell\u0007', 'line\nbreak', 'rtl\u202Eexe', 'lro\u202D', 'fsi\u2068'];
  it('table, field, view and base names refuse control and bidi override characters', async () => {
    for (const name of bad) {
      expectRefused(
        await s.request('POST', `/v0/meta/bases/${s.baseId}/tables`, {
          name,
          fields: [{ name: 'Name', type: 'singleLineText' }],
        }),
        422,
      );
      expectRefused(
        await s.request('POST', `/v0/meta/bases/${s.baseId}/tables`, {
          name: 'Fine',
          fields: [{ name, type: 'singleLineText' }],
        }),
        422,
      );
      expectRefused(
        await s.request('POST', `/v0/meta/bases/${s.baseId}/tables/${tableId}/fields`, {
          name,
          type: 'number',
        }),
        422,
      );
      expectRefused(await s.request('PATCH', `/v0/meta/bases/${s.baseId}/tables/${tableId}`, { name }), 422);
      expectRefused(
        await s.request('POST', '/v0/meta/bases', {
          name,
          tables: [{ name: 'T', fields: [{ name: 'Name', type: 'singleLineText' }] }],
        }),
        422,
      );
      expectRefused(
        await s.request('POST', `/v0/meta/bases/${s.baseId}/tables`, {
          name: 'Viewed',
          fields: [{ name: 'Name', type: 'singleLineText' }],
          views: [{ name }],
        }),
        422,
      );
      expectRefused(
        await s.request('POST', `/v0/meta/bases/${s.baseId}/tables/${tableId}/fields`, {
          name: 'Choice',
          type: 'singleSelect',
          options: { choices: [{ name }] },
        }),
        422,
      );
    }
    const schema = await s.request('GET', `/v0/meta/bases/${s.baseId}/tables`);
    expect(schema.text).not.toMatch(/\\u0000|\\u0007|\u202E|Fine|Viewed|Choice/);
  });
});

describe('Host', () => {
  it('a loopback server answers only requests addressed to a loopback name', async () => {
    const port = new URL(s.url).port;
    const withHost = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const c = net.connect(Number(port), '127.0.0.1', () =>
          c.write(
            `GET /v0/meta/whoami HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${s.apiKey}\r\nConnection: close\r\n\r\n`,
          ),
        );
        let text = '';
        c.on('data', (b: Buffer) => (text += b.toString()));
        c.on('error', reject);
        c.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1] ?? 0)));
      });
    for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1.evil.example:${port}`, '10.0.0.1'])
      expect(await withHost(host)).toBe(403);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, 'LOCALHOST'])
      expect(await withHost(host)).toBe(200);
  });
});

describe('an older database', () => {
  it('a stored far-future date and a NUL select option do not break reads or sorts', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tabledesk-old-'));
    try {
      let server = await startLocalServer({ memory: false, dataDir, demo: false });
      const base = await server.request('POST', '/v0/meta/bases', {
        name: 'Old',
        tables: [
          {
            name: 'T',
            fields: [
              { name: 'Name', type: 'singleLineText' },
              { name: 'Day', type: 'date' },
              { name: 'One', type: 'singleSelect', options: { choices: [{ name: 'x' }] } },
            ],
          },
        ],
      });
      const [table] = base.body.tables;
      const [name, day, one] = table.fields;
      await server.request('POST', `/v0/${base.body.id}/T`, {
        records: [{ fields: { Name: 'a', Day: '2024-01-01', One: 'x' } }, { fields: { Name: 'b' } }],
      });
      await server.close();
      const db = new Database(join(dataDir, 'tabledesk.sqlite'));
      db.prepare(
        `UPDATE records SET data = json_set(data, '$."${day.id}"', '33658-09-27', '$."${one.id}"', ?) WHERE data ->> '$."${name.id}"' = 'a'`,
      ).run('x\u0000y');
      db.prepare('UPDATE fields SET options = ? WHERE id = ?').run(
        JSON.stringify({
          choices: [
            { id: 'selA', name: "x\u0000y'" },
            { id: 'selB', name: 'x\u0000y' },
          ],
        }),
        one.id,
      );
      db.close();
      server = await startLocalServer({ memory: false, dataDir, demo: false });
      const path = `/v0/${base.body.id}/T`;
      const text = await server.request('GET', `${path}?cellFormat=string&timeZone=UTC&userLocale=en-US`);
      expect(text.status, text.text).toBe(200);
      expect(text.body.records[0].fields.Day).toBe('33658-09-27');
      const sorted = await server.request('GET', `${path}?sort[0][field]=One&sort[0][direction]=desc`);
      expect(sorted.status, sorted.text).toBe(200);
      expect(sorted.body.records.map((r: { fields: { Name: string } }) => r.fields.Name)).toEqual(['a', 'b']);
      await server.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
