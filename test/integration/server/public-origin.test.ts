/**
 * A server reached through something in front of it names that origin in its file URLs (`publicOrigin`,
 * `--public-url`), and takes them back in writes; an origin that is not one is refused at the start.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';

const PUBLIC = 'https://tables.example:8443';
let s: LocalServer;
let people: string[];

beforeAll(async () => {
  s = await startLocalServer({ demo: { largeTableRecords: 10 }, publicOrigin: `${PUBLIC}/` });
  const page = await s.request('GET', `/v0/${s.baseId}/People?pageSize=2`);
  people = page.body.records.map((r: { id: string }) => r.id);
});
afterAll(() => s.close());

describe('a public origin', () => {
  it('is the origin of every file URL, and a write naming one of them takes its file', async () => {
    const r = await s.request('POST', `/v0/${s.baseId}/${people[0]}/Photo/uploadAttachment`, {
      contentType: 'text/plain',
      file: Buffer.from('public').toString('base64'),
      filename: 'p.txt',
    });
    expect(r.status, r.text).toBe(200);
    const added = r.body.fields.Photo.at(-1);
    expect(added.url.startsWith(`${PUBLIC}/files/`)).toBe(true);
    const served = new URL(added.url);
    const got = await fetch(`${s.url}${served.pathname}${served.search}`);
    expect(await got.text()).toBe('public');
    const w = await s.request('PATCH', `/v0/${s.baseId}/People/${people[1]}`, {
      fields: { Photo: [{ url: added.url }] },
    });
    expect(w.status, w.text).toBe(200);
    expect(w.body.fields.Photo[0]).toMatchObject({ filename: 'p.txt', size: 6 });
    expect(w.body.fields.Photo[0].url.startsWith(`${PUBLIC}/files/`)).toBe(true);
  });

  it('that is not an origin is refused, in-process and on the command line', async () => {
    for (const bad of [
      'tables.example',
      'ftp://tables.example',
      'https://u:p@tables.example',
      'https://t.example/v0',
      'https://t.example/?a',
    ])
      await expect(startLocalServer({ publicOrigin: bad }), bad).rejects.toThrow(
        expect.objectContaining({
          name: 'SettingError',
          message: expect.stringMatching(/public URL must be/),
        }),
      );
    const cli = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        'server/main.ts',
        '--memory',
        '--port',
        '0',
        '--public-url',
        'https://t.example/v0',
      ],
      { cwd: process.cwd(), encoding: 'utf8', timeout: 30_000 },
    );
    expect(cli.status).toBe(2);
    expect(cli.stderr).toMatch(/--public-url: The public URL must be an origin only/);
  });
});
