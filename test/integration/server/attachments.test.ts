/**
 * Attachments on the local server: uploadAttachment (base64, the 5 MB limit), thumbnails, content-addressed
 * files, signed links that expire, how the links are served, and writes that name attachments by URL.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '../../../core/records/attachments';
import { startLocalServer } from '../../support/local-server';
import type { LocalServer } from '../../support/local-server';

const root = mkdtempSync(join(tmpdir(), 'tabledesk-attachments-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let s: LocalServer;
let people: string[];

async function personIds(server: LocalServer): Promise<string[]> {
  const page = await server.request('GET', `/v0/${server.baseId}/People?pageSize=5`);
  return page.body.records.map((r: { id: string }) => r.id);
}

beforeAll(async () => {
  s = await startLocalServer({ demo: { largeTableRecords: 10 } });
  people = await personIds(s);
  // Start from empty Photo cells (the demo seeds some).
  for (const id of people)
    expect((await s.request('PATCH', `/v0/${s.baseId}/People/${id}`, { fields: { Photo: [] } })).status).toBe(
      200,
    );
});
afterAll(() => s.close());

const upload = (
  server: LocalServer,
  recordId: string,
  bytes: Buffer,
  filename: string,
  contentType: string,
  field = 'Photo',
) =>
  server.request('POST', `/v0/${server.baseId}/${recordId}/${encodeURIComponent(field)}/uploadAttachment`, {
    contentType,
    file: bytes.toString('base64'),
    filename,
  });

/** A link's status, its body read to the end so no connection is left waiting when a server closes. */
async function statusOf(url: string | URL): Promise<number> {
  const res = await fetch(url);
  await res.arrayBuffer();
  return res.status;
}

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 4, background: { r: 10, g: 200, b: 30, alpha: 0.5 } } })
    .png()
    .toBuffer();
/** `png` with a tEXt chunk of `bytes` bytes before its end: a bigger body, the same image to decode. */
function withText(png: Buffer, bytes: number): Buffer {
  const data = Buffer.concat([Buffer.from('Comment\0', 'latin1'), Buffer.alloc(bytes, 'x')]);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write('tEXt', 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  // IEND is the last chunk: its 12 bytes (length, type, CRC) end the file.
  return Buffer.concat([png.subarray(0, png.length - 12), head, data, crc, png.subarray(png.length - 12)]);
}

const jpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#3366cc' } })
    .jpeg()
    .toBuffer();

describe('uploadAttachment', () => {
  it('stores a file sent in base64 and answers the record; the link gives the same bytes back', async () => {
    const bytes = Buffer.from('hello, attachments\n\u0000\u00ff binary too', 'latin1');
    const r = await upload(s, people[0]!, bytes, 'notes é.txt', 'text/plain');
    expect(r.status, r.text).toBe(200);
    expect(r.body.id).toBe(people[0]);
    const [a] = r.body.fields.Photo;
    expect(a).toMatchObject({ filename: 'notes é.txt', size: bytes.length, type: 'text/plain' });
    expect(a.id).toMatch(/^att[A-Za-z0-9]{14}$/);
    expect(a.url.startsWith(`${s.url}/files/`)).toBe(true);
    expect(a.thumbnails).toBeUndefined();
    const got = await fetch(a.url);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
    expect(got.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    expect(got.headers.get('content-disposition')).toBe(
      `attachment; filename="notes _.txt"; filename*=UTF-8''notes%20%C3%A9.txt`,
    );
    // A second upload is appended; the first stays.
    const second = await upload(s, people[0]!, Buffer.from('two'), 'two.txt', 'text/plain');
    expect(second.body.fields.Photo.map((x: { filename: string }) => x.filename)).toEqual([
      'notes é.txt',
      'two.txt',
    ]);
    const read = await s.request('GET', `/v0/${s.baseId}/People/${people[0]}`);
    expect(read.body.fields.Photo.map((x: { id: string }) => x.id)).toEqual(
      second.body.fields.Photo.map((x: { id: string }) => x.id),
    );
  });

  it('refuses a file over 5 MB, and takes one of exactly 5 MB', async () => {
    const over = await upload(
      s,
      people[1]!,
      Buffer.alloc(MAX_UPLOAD_BYTES + 1, 7),
      'big.bin',
      'application/octet-stream',
    );
    expect(over.status).toBe(413);
    expect(over.body.error.message).toContain('at most 5 MB');
    expect((await s.request('GET', `/v0/${s.baseId}/People/${people[1]}`)).body.fields.Photo).toBeUndefined();
    const exact = await upload(
      s,
      people[1]!,
      Buffer.alloc(MAX_UPLOAD_BYTES, 7),
      'exact.bin',
      'application/octet-stream',
    );
    expect(exact.status, exact.text).toBe(200);
    expect(exact.body.fields.Photo[0].size).toBe(MAX_UPLOAD_BYTES);
  });

  it('makes thumbnails of a PNG and a JPEG at Airtable sizes', async () => {
    const p = await upload(s, people[2]!, await png(300, 200), 'dot.png', 'image/png');
    expect(p.status, p.text).toBe(200);
    const a = p.body.fields.Photo[0];
    expect(a).toMatchObject({ width: 300, height: 200, type: 'image/png' });
    expect(a.thumbnails.small).toMatchObject({ width: 54, height: 36 });
    expect(a.thumbnails.large).toMatchObject({ width: 300, height: 200 });
    expect(a.thumbnails.full).toMatchObject({ width: 300, height: 200 });

    const j = await upload(s, people[2]!, await jpeg(1600, 1200), 'photo.jpg', 'image/jpeg');
    const b = j.body.fields.Photo[1];
    expect(b).toMatchObject({ width: 1600, height: 1200, type: 'image/jpeg' });
    expect(b.thumbnails.small).toMatchObject({ width: 48, height: 36 });
    expect(b.thumbnails.large).toMatchObject({ width: 512, height: 384 });
    expect(b.thumbnails.full).toMatchObject({ width: 1600, height: 1200 });
    // The thumbnails served are images of those sizes; the PNG's keep its transparency.
    for (const [t, format] of [
      [a.thumbnails.small, 'png'],
      [b.thumbnails.large, 'jpeg'],
    ] as const) {
      const res = await fetch(t.url);
      expect(res.headers.get('content-type')).toBe(`image/${format}`);
      expect(res.headers.get('content-disposition')).toMatch(/^inline;/);
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual([format, t.width, t.height]);
    }
  });

  it('decodes big images one at a time, and a small one never waits behind them', async () => {
    // 16-bit 2,600 × 2,600 PNGs of one colour: a few KB each, seconds to decode together.
    const big = (r: number) =>
      sharp({ create: { width: 2600, height: 2600, channels: 3, background: { r, g: 0, b: 0 } } })
        .toColourspace('rgb16')
        .png()
        .toBuffer();
    const [one, two] = await Promise.all([big(1), big(2)]);
    const small = await jpeg(400, 300);
    const record = (await s.request('POST', `/v0/${s.baseId}/People`, { fields: {} })).body.id as string;
    const answered: string[] = [];
    const send = async (name: string, bytes: Buffer, type: string) => {
      const r = await upload(s, record, bytes, name, type);
      answered.push(name);
      return r;
    };
    const [a, b] = await Promise.all([
      send('one.png', one!, 'image/png'),
      send('two.png', two!, 'image/png'),
      // Sent after both: the second big one waits for the first's decode, the small one for neither.
      new Promise((resolve) => setTimeout(resolve, 50)).then(() => send('small.jpg', small, 'image/jpeg')),
    ]);
    expect(answered.indexOf('small.jpg')).toBeLessThan(answered.indexOf('two.png'));
    for (const [r, name] of [
      [a, 'one.png'],
      [b, 'two.png'],
    ] as const) {
      const photo = (r.body.fields.Photo as { filename: string; thumbnails: unknown }[]).find(
        (p) => p.filename === name,
      );
      expect(photo?.thumbnails).toMatchObject({ full: { width: 2600, height: 2600 } });
    }
  });

  it('a photo sent after three heavy images is answered before the second of them', async () => {
    // Bodies past the small-upload bound, so each takes a turn (server/http/upload-turns.ts): a turn ends once
    // its body is read, so the photo's turn does not wait for the heavy images' decodes, one at a time.
    const heavy = (r: number) =>
      sharp({ create: { width: 2600, height: 2600, channels: 3, background: { r, g: 0, b: 0 } } })
        .toColourspace('rgb16')
        .png()
        .toBuffer()
        .then((png) => withText(png, 300 * 1024));
    const heavies = await Promise.all([1, 2, 3].map(heavy));
    // Bytes after its end: a 400 × 300 photo (a light decode) in a body as big as the heavy ones'.
    const photo = Buffer.concat([await jpeg(400, 300), Buffer.alloc(300 * 1024)]);
    const record = (await s.request('POST', `/v0/${s.baseId}/People`, { fields: {} })).body.id as string;
    const answered: string[] = [];
    const send = async (name: string, bytes: Buffer, type: string) => {
      const r = await upload(s, record, bytes, name, type);
      expect(r.status, r.text).toBe(200);
      answered.push(name);
    };
    await Promise.all([
      ...heavies.map((b, i) => send(`heavy${i}.png`, b, 'image/png')),
      send('photo.jpg', photo, 'image/jpeg'),
    ]);
    expect(answered.indexOf('photo.jpg'), answered.join(', ')).toBeLessThan(answered.indexOf('heavy1.png'));
  });

  it('a small image sent after several photos waits only for the decode under way', async () => {
    // Photos of noise just under the heavy lane's bound, each another file (bytes after its end), all at once.
    const photo = await sharp({
      create: {
        width: 1990,
        height: 1990,
        channels: 3,
        background: '#000',
        noise: { type: 'gaussian', mean: 128, sigma: 30 },
      },
    })
      .jpeg({ quality: 90 })
      .toBuffer();
    const small = await jpeg(40, 30);
    const record = (await s.request('POST', `/v0/${s.baseId}/People`, { fields: {} })).body.id as string;
    const answered: string[] = [];
    const send = async (name: string, bytes: Buffer) => {
      await upload(s, record, bytes, name, 'image/jpeg');
      answered.push(name);
    };
    const photos = Array.from({ length: 10 }, (_, i) =>
      send(`photo${i}.jpg`, Buffer.concat([photo, Buffer.from(`${i} ${Math.random()}`)])),
    );
    // Sent once the first photo is answered, so the others are surely waiting in the lane.
    await Promise.race(photos);
    await Promise.all([...photos, send('small.jpg', small)]);
    // After the first photo and the one decoding when it came (or one ending as it was read), not after all.
    expect(answered.indexOf('small.jpg'), answered.join(', ')).toBeLessThanOrEqual(2);
  });

  it('refuses what is not an upload: unknown record or field, other field types, bad base64, no key', async () => {
    const bytes = Buffer.from('x');
    expect((await upload(s, 'recNotARecord0000', bytes, 'a.txt', 'text/plain')).status).toBe(404);
    expect((await upload(s, people[3]!, bytes, 'a.txt', 'text/plain', 'Nope')).status).toBe(422);
    expect((await upload(s, people[3]!, bytes, 'a.txt', 'text/plain', 'Name')).body.error.message).toContain(
      'not an attachment field',
    );
    expect((await upload(s, people[3]!, bytes, 'a.txt', 'not a type')).status).toBe(422);
    expect((await upload(s, people[3]!, Buffer.alloc(0), 'a.txt', 'text/plain')).status).toBe(422);
    const path = `/v0/${s.baseId}/${people[3]}/Photo/uploadAttachment`;
    expect(
      (await s.request('POST', path, { contentType: 'text/plain', file: 'a$b=', filename: 'a' })).status,
    ).toBe(422);
    const anonymous = await fetch(`${s.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contentType: 'text/plain', file: 'eA==', filename: 'a' }),
    });
    expect(anonymous.status).toBe(401);
  });
});

describe('attachment links', () => {
  it('serve HTML and SVG as downloads, never in place', async () => {
    const r = await upload(s, people[3]!, Buffer.from('<script>alert(1)</script>'), 'x.html', 'text/html');
    const svg = await upload(
      s,
      people[3]!,
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      'x.svg',
      'image/svg+xml',
    );
    expect(svg.body.fields.Photo[1].thumbnails).toBeUndefined();
    for (const a of svg.body.fields.Photo) {
      const res = await fetch(a.url);
      await res.arrayBuffer();
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
    expect(r.status).toBe(200);
  });

  it('a forged link is refused, whatever part was changed', async () => {
    const r = await upload(s, people[4]!, Buffer.from('secret'), 's.txt', 'text/plain');
    const url = new URL(r.body.fields.Photo[0].url);
    const sig = url.searchParams.get('signature')!;
    const forged = [
      (u: URL) => u.searchParams.set('signature', (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1)),
      (u: URL) => u.searchParams.set('type', 'text/html'),
      (u: URL) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 1)),
      (u: URL) => (u.pathname = u.pathname.replace('/file/', '/full/')),
      (u: URL) => (u.pathname = u.pathname.replace(/s\.txt$/, 'other.txt')),
      (u: URL) => u.searchParams.delete('signature'),
    ];
    for (const change of forged) {
      const u = new URL(url);
      change(u);
      const res = await fetch(u);
      expect(res.status, u.href).toBe(403);
      const body = await res.text();
      expect(body).toContain('INVALID_ATTACHMENT_URL');
      expect(body).not.toContain('secret');
    }
    expect(await statusOf(url)).toBe(200);
  });

  it("a link's query never replaces its path's parts: what is served is what the path names", async () => {
    const secret = await upload(s, people[4]!, Buffer.from('other file'), 'o.txt', 'text/plain');
    const mine = await upload(s, people[4]!, Buffer.from('my file'), 'm.txt', 'text/plain');
    const signed = new URL(secret.body.fields.Photo.at(-1).url);
    const [, , hash, variant, filename] = signed.pathname.split('/');
    const other = new URL(mine.body.fields.Photo.at(-1).url);
    // Another file's path with the signed link's parts in the query: refused, whatever the query says.
    const swapped = new URL(`${other.pathname}${signed.search}`, s.url);
    swapped.searchParams.set('hash', hash!);
    swapped.searchParams.set('variant', variant!);
    swapped.searchParams.set('filename', decodeURIComponent(filename!));
    expect(await statusOf(swapped)).toBe(403);
    // The signed path with other parts in the query serves the signed path's file.
    const extra = new URL(signed);
    extra.searchParams.set('hash', other.pathname.split('/')[2]!);
    extra.searchParams.set('variant', 'small');
    extra.searchParams.set('filename', 'm.txt');
    const res = await fetch(extra);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('other file');
    expect(res.headers.get('content-disposition')).toContain('filename="o.txt"');
  });

  it('a link stops working when it expires, with a clear 403; reading the record again gives a new one', async () => {
    const short = await startLocalServer({ demo: { largeTableRecords: 5 }, attachmentUrlTtlMs: 400 });
    try {
      const [id] = await personIds(short);
      const r = await upload(short, id!, Buffer.from('soon gone'), 'g.txt', 'text/plain');
      const url = r.body.fields.Photo.at(-1).url;
      expect(await statusOf(url)).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 600));
      const expired = await fetch(url);
      expect(expired.status).toBe(403);
      expect(await expired.text()).toContain('ATTACHMENT_URL_EXPIRED');
      const again = await short.request('GET', `/v0/${short.baseId}/People/${id}`);
      expect(await (await fetch(again.body.fields.Photo.at(-1).url)).text()).toBe('soon gone');
    } finally {
      await short.close();
    }
  });
});

describe('writing attachments by url', () => {
  it('refuses a URL of another host with a 422 that says why, and downloads nothing', async () => {
    let reached = false;
    const { createServer } = await import('node:http');
    const other = createServer((_req, res) => {
      reached = true;
      res.end('x');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const port = (other.address() as { port: number }).port;
    try {
      const r = await s.request('PATCH', `/v0/${s.baseId}/People/${people[4]}`, {
        fields: { Photo: [{ url: `http://127.0.0.1:${port}/a.png` }] },
      });
      expect(r.status).toBe(422);
      expect(r.body.error.message).toContain('does not download files');
      expect(reached).toBe(false);
    } finally {
      other.close();
    }
  });

  it('refuses a file name with control characters, as an upload and a mirror write do', async () => {
    const r = await upload(s, people[1]!, Buffer.from('named'), 'n.txt', 'text/plain');
    const w = await s.request('PATCH', `/v0/${s.baseId}/People/${people[1]}`, {
      fields: { Photo: [{ url: r.body.fields.Photo.at(-1).url, filename: 'a\r\nContent-Type: text/html' }] },
    });
    expect(w.status).toBe(422);
    expect(w.body.error.message).toContain('control characters');
  });

  it('takes one of its own links, from another record, even expired, as the same file', async () => {
    const r = await upload(s, people[0]!, Buffer.from('shared file'), 'shared.txt', 'text/plain');
    const a = r.body.fields.Photo.at(-1);
    const w = await s.request('PATCH', `/v0/${s.baseId}/People/${people[4]}`, {
      fields: { Photo: [{ url: a.url, filename: 'renamed.txt' }] },
    });
    expect(w.status, w.text).toBe(200);
    const b = w.body.fields.Photo[0];
    expect(b).toMatchObject({ filename: 'renamed.txt', size: a.size, type: 'text/plain' });
    expect(b.id).not.toBe(a.id);
    expect(await (await fetch(b.url)).text()).toBe('shared file');
    const forged = new URL(a.url);
    forged.searchParams.set('signature', 'x');
    const f = await s.request('PATCH', `/v0/${s.baseId}/People/${people[4]}`, {
      fields: { Photo: [{ url: forged.href }] },
    });
    expect(f.status).toBe(422);
  });
});

describe('files on disk', () => {
  it('the same bytes are stored once (0700/0600), and files no record names are removed at the next start', async () => {
    const dataDir = join(root, 'data');
    const first = await startLocalServer({ memory: false, dataDir, demo: { largeTableRecords: 5 } });
    const [a, b] = await personIds(first);
    const bytes = await png(40, 30);
    const x = await upload(first, a!, bytes, 'one.png', 'image/png');
    const y = await upload(first, b!, bytes, 'two.png', 'image/png');
    expect([x.status, y.status]).toEqual([200, 200]);
    const files = join(dataDir, 'files');
    const stored = readdirSync(files, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    // One file and its three thumbnails, however many attachments name it.
    expect(stored.map((e) => e.name).sort()).toEqual([
      expect.stringMatching(/^[0-9a-f]{64}$/),
      ...['full', 'large', 'small'].map((v) => expect.stringMatching(new RegExp(`\\.${v}$`))),
    ]);
    expect(statSync(files).mode & 0o777).toBe(0o700);
    for (const e of stored) expect(statSync(join(e.parentPath, e.name)).mode & 0o777).toBe(0o600);

    // Still named by b: kept over a restart. Named by none: gone after one.
    await first.request('PATCH', `/v0/${first.baseId}/People/${a}`, { fields: { Photo: [] } });
    await first.close();
    const second = await startLocalServer({ memory: false, dataDir });
    const kept = await second.request('GET', `/v0/${second.baseId}/People/${b}`);
    expect(await statusOf(kept.body.fields.Photo[0].url)).toBe(200);
    await second.request('PATCH', `/v0/${second.baseId}/People/${b}`, { fields: { Photo: [] } });
    await second.close();
    const third = await startLocalServer({ memory: false, dataDir });
    await third.close();
    expect(readdirSync(files, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())).toEqual(
      [],
    );
  });
});

describe('keeping attachments', () => {
  it('an attachment written back whole, as read, is kept by its id, even one whose URL is not its own', async () => {
    const r = await upload(s, people[3]!, Buffer.from('keep me'), 'keep.txt', 'text/plain');
    const mine = r.body.fields.Photo.at(-1);
    const table = (await s.request('GET', `/v0/meta/bases/${s.baseId}/tables`)).body.tables.find(
      (t: { name: string }) => t.name === 'People',
    );
    // A record of the demo seed holds a photo by an outside URL (stored before uploads existed).
    const seeded = (await s.request('GET', `/v0/${s.baseId}/${table.id}?pageSize=100`)).body.records.find(
      (x: { fields: { Photo?: { url: string }[] } }) =>
        x.fields.Photo?.[0]?.url.startsWith('http') && !x.fields.Photo[0].url.startsWith(s.url),
    );
    expect(seeded).toBeDefined();
    const again = await s.request('PATCH', `/v0/${s.baseId}/People/${seeded.id}`, {
      fields: { Photo: seeded.fields.Photo },
    });
    expect(again.status, again.text).toBe(200);
    expect(again.body.fields.Photo).toEqual(seeded.fields.Photo);
    const back = await s.request('PATCH', `/v0/${s.baseId}/People/${people[3]}`, {
      fields: { Photo: [mine] },
    });
    expect(back.status, back.text).toBe(200);
    expect(back.body.fields.Photo.map((a: { id: string }) => a.id)).toEqual([mine.id]);
  });
});
