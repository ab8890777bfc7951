import { crc32, deflateSync } from 'node:zlib';

/**
 * Small images made byte by byte for upload tests (docs/adr/0096), so no test needs an image library:
 * a real PNG (with a text chunk a re-encoder must drop), an SVG carrying script, and the like.
 */

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * A width × height RGBA PNG of one colour, with a tEXt chunk `Comment` = `comment` when given. With
 * `noise`, each pixel differs (deflate cannot shrink it), to make a file as large as wanted.
 */
export function testPng(options: {
  width: number;
  height: number;
  rgba?: readonly number[];
  comment?: string;
  noise?: boolean;
  /** The size the header claims, over pixels for width × height: a decompression bomb's shape. */
  claims?: { width: number; height: number };
}): Buffer {
  const { width, height } = options;
  const [r, g, b, a] = options.rgba ?? [10, 88, 202, 255];
  const row = (y: number) => {
    const line = Buffer.alloc(1 + width * 4);
    for (let x = 0; x < width; x++) {
      const seed = options.noise ? ((x * 7919 + y * 104729) ^ (x * y * 31)) & 0xff : 0;
      line.set([(r! + seed) & 0xff, (g! + seed * 3) & 0xff, (b! + seed * 5) & 0xff, a!], 1 + x * 4);
    }
    return line;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(options.claims?.width ?? width, 0);
  header.writeUInt32BE(options.claims?.height ?? height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const pixels = Buffer.concat(Array.from({ length: height }, (_, y) => row(y)));
  const text = options.comment ? [chunk('tEXt', Buffer.from(`Comment\0${options.comment}`, 'latin1'))] : [];
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', header),
    ...text,
    chunk('IDAT', deflateSync(pixels, { level: options.noise ? 0 : 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An SVG logo that runs script when opened as a document: what must never be accepted. */
export const SVG_WITH_SCRIPT = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.domain)</script><rect width="10" height="10"/></svg>',
);

/** A GIF header: an image type the brand does not accept. */
export const GIF_BYTES = Buffer.from('GIF89a\u0001\u0000\u0001\u0000\u0000\u0000\u0000;', 'latin1');

/** The PNG signature followed by garbage: claims to be a PNG, decodes as nothing. */
export const BROKEN_PNG = Buffer.concat([PNG_SIGNATURE, Buffer.from('not really an image at all')]);
