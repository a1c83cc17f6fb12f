/**
 * Draws the app icon (a rounded blue tile with a white grid, a spreadsheet) as build/icon.png, 512×512 RGBA.
 * electron-builder derives the .icns and .ico from it. Run: `npm run icon`.
 */
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const SIZE = 512;
const RADIUS = 96;
const TILE: [number, number, number] = [37, 99, 235];
const HEADER: [number, number, number] = [30, 64, 175];

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** Coverage of the rounded square at (x, y), antialiased over the corner arcs. */
function inside(x: number, y: number): number {
  const cx = Math.min(Math.max(x, RADIUS), SIZE - RADIUS);
  const cy = Math.min(Math.max(y, RADIUS), SIZE - RADIUS);
  const d = Math.hypot(x - cx, y - cy);
  return Math.min(1, Math.max(0, RADIUS - d + 0.5));
}

function pixel(x: number, y: number): [number, number, number, number] {
  const alpha = inside(x + 0.5, y + 0.5);
  if (alpha === 0) return [0, 0, 0, 0];
  const margin = 88;
  const inGrid = x >= margin && x < SIZE - margin && y >= margin && y < SIZE - margin;
  const cell = (SIZE - 2 * margin) / 4;
  const onLine =
    inGrid &&
    ((x - margin) % cell < 10 ||
      (y - margin) % cell < 10 ||
      x >= SIZE - margin - 10 ||
      y >= SIZE - margin - 10);
  const header = inGrid && y < margin + cell;
  const rgb = onLine ? [255, 255, 255] : header ? HEADER : TILE;
  return [rgb[0]!, rgb[1]!, rgb[2]!, Math.round(alpha * 255)];
}

const raw = Buffer.alloc((SIZE * 4 + 1) * SIZE);
for (let y = 0; y < SIZE; y++) {
  raw[y * (SIZE * 4 + 1)] = 0;
  for (let x = 0; x < SIZE; x++) raw.set(pixel(x, y), y * (SIZE * 4 + 1) + 1 + x * 4);
}
const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header.set([8, 6, 0, 0, 0], 8);
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
writeFileSync(new URL('./icon.png', import.meta.url), png);
console.log(`build/icon.png: ${SIZE}×${SIZE}, ${png.length} bytes`);
