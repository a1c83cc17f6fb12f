/**
 * Draws the app icon (a rounded blue tile with a white grid, a spreadsheet) as build/icon.png, 512×512 RGBA.
 * electron-builder derives the .icns and .ico from it. Run: `npm run icon`.
 */
import { writeFileSync } from 'node:fs';
import { PNG } from 'pngjs';

const SIZE = 512;
const RADIUS = 96;
const TILE: [number, number, number] = [37, 99, 235];
const HEADER: [number, number, number] = [30, 64, 175];

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

const image = new PNG({ width: SIZE, height: SIZE });
for (let y = 0; y < SIZE; y++) {
  for (let x = 0; x < SIZE; x++) image.data.set(pixel(x, y), (y * SIZE + x) * 4);
}
const png = PNG.sync.write(image, { deflateLevel: 9 });
writeFileSync(new URL('./icon.png', import.meta.url), png);
console.log(`build/icon.png: ${SIZE}×${SIZE}, ${png.length} bytes`);
