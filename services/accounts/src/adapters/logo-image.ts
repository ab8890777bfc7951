import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { ApiError } from '@hc/errors';
import type { LogoType } from '../domain/brand.ts';

/** The largest upload accepted, and the largest re-encoded logo kept (the table's CHECK says the same). */
export const MAX_LOGO_BYTES = 512 * 1024;
/** The logo is shown at most 48 px high; 512 px leaves room for any screen's density. */
const MAX_SIDE = 512;
/** Refuses decompression bombs before decoding: a 512 kB file claiming 30000x30000 pixels. */
const MAX_INPUT_PIXELS = 4096 * 4096;

type Sniffed = 'png' | 'jpeg' | 'webp';

/**
 * What the first bytes say the file is. Only these three: SVG (which can carry script), GIF, TIFF,
 * AVIF and the rest are refused whatever the name or declared type said, before any decoder sees them.
 */
export function sniffImage(bytes: Uint8Array): Sniffed | null {
  const starts = (signature: readonly number[], at = 0) => signature.every((byte, i) => bytes[at + i] === byte);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (starts([0xff, 0xd8, 0xff])) return 'jpeg';
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'webp';
  return null;
}

export interface EncodedLogo {
  readonly image: Buffer;
  readonly contentType: LogoType;
  readonly sha256: string;
}

const refused = (message: string) => new ApiError('invalid_request', message, 'logo');

/**
 * The uploaded logo re-encoded by libvips (sharp): decoded, turned upright, fitted inside 512x512
 * and written afresh, so nothing of the upload but its pixels is kept — no metadata (EXIF, GPS, ICC
 * text chunks), no trailing bytes, no second frame. A PNG stays a PNG (logos are often flat colour with
 * transparency); a JPEG or WebP becomes a WebP. Anything that does not decode is refused.
 */
export async function reencodeLogo(upload: Uint8Array): Promise<EncodedLogo> {
  if (upload.length > MAX_LOGO_BYTES) throw refused('The logo must be at most 512 kB.');
  const sniffed = sniffImage(upload);
  if (!sniffed) throw refused('The logo must be a PNG, JPEG or WebP image (SVG is not accepted).');
  let image: Buffer;
  try {
    const decoded = sharp(upload, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', animated: false });
    const { format } = await decoded.metadata();
    if (format !== sniffed) throw refused('The logo must be a PNG, JPEG or WebP image (SVG is not accepted).');
    const fitted = decoded.rotate().resize(MAX_SIDE, MAX_SIDE, { fit: 'inside', withoutEnlargement: true });
    image = await (sniffed === 'png' ? fitted.png({ compressionLevel: 9 }) : fitted.webp({ quality: 90 })).toBuffer();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw refused('The logo could not be read as an image (damaged, or too many pixels).');
  }
  if (image.length > MAX_LOGO_BYTES) throw refused('The logo is too detailed to keep under 512 kB; try a simpler image.');
  return {
    image,
    contentType: sniffed === 'png' ? 'image/png' : 'image/webp',
    sha256: createHash('sha256').update(image).digest('hex'),
  };
}
