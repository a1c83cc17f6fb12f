import type { Metadata, Sharp, SharpOptions } from 'sharp';

export interface ImageInfo {
  width: number;
  height: number;
  /** Each thumbnail as encoded bytes with its size and content type. */
  thumbnails: Record<
    'small' | 'large' | 'full',
    { bytes: Buffer; width: number; height: number; type: string }
  >;
}

/** Raster formats shown as images. SVG is left out on purpose: it is served as a download, never drawn. */
const IMAGE_FORMATS: ReadonlySet<string> = new Set(['jpeg', 'png', 'gif', 'webp']);

/** Airtable's sizes: small is 36 px high, large fits 512 × 512, full fits 3000 × 3000 (airtable-wire.md). */
const BOXES = {
  small: { height: 36 },
  large: { width: 512, height: 512 },
  full: { width: 3000, height: 3000 },
} as const;

/** A decompression bomb (a tiny file of huge dimensions) is refused before any pixel is decoded. */
const MAX_INPUT_PIXELS = 50_000_000;
const TIMEOUT_SECONDS = 20;

type SharpFactory = (input: Buffer, options: SharpOptions) => Sharp;
let loading: Promise<SharpFactory> | undefined;

/**
 * sharp (and its 20 MB libvips) is loaded on the first image, not with the server: most starts never see one,
 * and the embedded server's thread then never holds native image code it does not use.
 */
function loadSharp(): Promise<SharpFactory> {
  loading ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    // One libvips thread per image: the app and its server share a few cores, and thumbnails are small work.
    sharp.concurrency(1);
    return sharp;
  });
  return loading;
}

/**
 * Width, height and thumbnails of an image, or undefined for anything that is not one of the raster formats
 * above (or cannot be decoded as one): such files are attachments without a preview.
 */
export async function describeImage(bytes: Buffer): Promise<ImageInfo | undefined> {
  // Where the native module cannot load, files are still stored, as attachments without a preview.
  const sharp = await loadSharp().catch(() => undefined);
  if (!sharp) return undefined;
  const open = () =>
    sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).timeout({
      seconds: TIMEOUT_SECONDS,
    });
  let meta: Metadata;
  try {
    meta = await open().metadata();
  } catch {
    return undefined;
  }
  if (!meta.format || !IMAGE_FORMATS.has(meta.format) || !meta.width || !meta.height) return undefined;
  // EXIF orientation: a portrait photo taken sideways reports its stored size; the thumbnails are upright.
  const swap = (meta.orientation ?? 1) >= 5;
  const width = swap ? meta.height : meta.width;
  const height = swap ? meta.width : meta.height;
  const alpha = meta.hasAlpha === true;
  try {
    const entries = await Promise.all(
      (Object.keys(BOXES) as (keyof typeof BOXES)[]).map(async (name) => {
        const out = open()
          .rotate()
          .resize({ ...BOXES[name], fit: 'inside', withoutEnlargement: true });
        const encoded = alpha ? out.png() : out.jpeg({ quality: 82 });
        const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
        return [
          name,
          { bytes: data, width: info.width, height: info.height, type: alpha ? 'image/png' : 'image/jpeg' },
        ] as const;
      }),
    );
    return { width, height, thumbnails: Object.fromEntries(entries) as ImageInfo['thumbnails'] };
  } catch {
    return undefined;
  }
}
