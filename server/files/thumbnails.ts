import PQueue from 'p-queue';
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

/**
 * What an image costs to decode: its pixels, twice for 16-bit samples (a 16-bit 7000 × 7000 PNG of zeros,
 * 380 KB, takes about 10 s here). Past MAX_DECODE an image is stored without a preview, read from its header
 * only: a decompression bomb (a tiny file of huge dimensions) is refused before any pixel is decoded.
 */
const MAX_DECODE = 50_000_000;
/** An image up to this cost decodes in well under a second, in a lane of its own. */
const LIGHT_DECODE = 4_000_000;
const TIMEOUT_SECONDS = 20;

/**
 * One heavy decode at a time (two cores are shared with the app, and each big decode holds hundreds of MB),
 * and small images in their own lane: an upload of a photo never waits behind a huge one. In each lane the
 * smallest image waiting goes first: a thumbnail-sized upload waits for the decode under way, not for twenty
 * photos sent before it (it waited 14 s).
 */
const heavy = new PQueue({ concurrency: 1 });
const light = new PQueue({ concurrency: 1 });

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
    sharp(bytes, { limitInputPixels: MAX_DECODE, failOn: 'error' }).timeout({ seconds: TIMEOUT_SECONDS });
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
  const cost = meta.width * meta.height * (meta.depth === 'ushort' ? 2 : 1);
  if (cost > MAX_DECODE) return undefined;
  const thumbnails = async (): Promise<ImageInfo['thumbnails']> => {
    // Decoded once, into the largest thumbnail's pixels; the smaller ones are made from those.
    const full = await open()
      .rotate()
      .resize({ ...BOXES.full, fit: 'inside', withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const { width: w, height: h, channels } = full.info;
    const entries = [];
    for (const name of Object.keys(BOXES) as (keyof typeof BOXES)[]) {
      const pixels = sharp(full.data, { raw: { width: w, height: h, channels } });
      const out =
        name === 'full' ? pixels : pixels.resize({ ...BOXES[name], fit: 'inside', withoutEnlargement: true });
      const encoded = alpha ? out.png() : out.jpeg({ quality: 82 });
      const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
      const type = alpha ? 'image/png' : 'image/jpeg';
      entries.push([name, { bytes: data, width: info.width, height: info.height, type }] as const);
    }
    return Object.fromEntries(entries) as ImageInfo['thumbnails'];
  };
  try {
    return {
      width,
      height,
      thumbnails: await (cost > LIGHT_DECODE ? heavy : light).add(thumbnails, { priority: -cost }),
    };
  } catch {
    return undefined;
  }
}
