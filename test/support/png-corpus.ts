import { deflateSync } from 'node:zlib';
import { PNG } from 'pngjs';

/**
 * A small generated corpus of malformed PNGs (issue 28 finding 4), built chunk by chunk so that each
 * one is wrong in exactly one way (every other CRC is right). Shared by the unit, integration and
 * bad-input tests.
 */

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** One chunk: length, type, data, CRC over type and data (`badCrc` flips it). */
export function chunk(type: string, data: Buffer, badCrc = false): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE((crc32(Buffer.concat([head.subarray(4), data])) ^ (badCrc ? 1 : 0)) >>> 0);
  return Buffer.concat([head, data, crc]);
}

export function ihdr(width: number, height: number, colourType = 6, bitDepth = 8, interlace = 0): Buffer {
  const data = Buffer.alloc(13);
  data.writeUInt32BE(width, 0);
  data.writeUInt32BE(height, 4);
  data[8] = bitDepth;
  data[9] = colourType;
  data[12] = interlace;
  return chunk('IHDR', data);
}

export const png = (...chunks: Buffer[]): Buffer => Buffer.concat([SIGNATURE, ...chunks, chunk('IEND', Buffer.alloc(0))]);

/** A real image of width × height (opaque teal unless `alpha` < 255), encoded by pngjs. */
export function realPng(width: number, height: number, alpha = 255): Buffer {
  const image = new PNG({ width, height });
  for (let i = 0; i < image.data.length; i += 4) image.data.set([15, 118, 110, alpha], i);
  return PNG.sync.write(image);
}

/** The filtered scanlines of a 1×1 RGBA pixel, deflated: a valid IDAT's data. */
const onePixel = deflateSync(Buffer.from([0, 15, 118, 110, 255]));

export const dataUrl = (bytes: Buffer): string => `data:image/png;base64,${bytes.toString('base64')}`;

/** Each entry: a PNG that must be refused, and why. */
export const MALFORMED_PNGS: Record<string, Buffer> = {
  // The attacker's 274 bytes: signature, IHDR and IEND around data that is not zlib.
  'IDAT data that is not zlib': png(ihdr(64, 64), chunk('IDAT', Buffer.from('not zlib '.repeat(25).slice(0, 217)))),
  'a bad CRC on IDAT': png(ihdr(1, 1), chunk('IDAT', onePixel, true)),
  'a bad CRC on IHDR': Buffer.concat([SIGNATURE, chunk('IHDR', ihdr(1, 1).subarray(8, 21), true), chunk('IDAT', onePixel), chunk('IEND', Buffer.alloc(0))]),
  'huge dimensions in IHDR': png(ihdr(100_000, 100_000), chunk('IDAT', onePixel)),
  'colour type 9': png(ihdr(1, 1, 9), chunk('IDAT', onePixel)),
  'bit depth 7': png(ihdr(1, 1, 6, 7), chunk('IDAT', onePixel)),
  'no IDAT at all': png(ihdr(1, 1)),
  'a zlib bomb (far more pixels than IHDR declares)': png(ihdr(16, 16, 0), chunk('IDAT', deflateSync(Buffer.alloc(8 * 1024 * 1024)))),
  'an unknown critical chunk': png(ihdr(1, 1), chunk('ZZZZ', Buffer.from('x')), chunk('IDAT', onePixel)),
  'a truncated file (no IEND)': Buffer.concat([SIGNATURE, ihdr(1, 1), chunk('IDAT', onePixel)]),
};

/** A valid 1×1 PNG carrying a script in a tEXt chunk: accepted, re-encoded without it. */
export const PNG_WITH_SCRIPT = png(ihdr(1, 1), chunk('tEXt', Buffer.from('Comment\0<script>alert(document.cookie)</script>', 'latin1')), chunk('IDAT', onePixel));

/** The chunk types of a PNG, in order. */
export function chunkTypes(bytes: Buffer): string[] {
  const types: string[] = [];
  for (let at = 8; at + 8 <= bytes.length; at += 12 + bytes.readUInt32BE(at)) types.push(bytes.toString('latin1', at + 4, at + 8));
  return types;
}
