import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../lambdas/domain/errors.js';
import { cleanLogo, parseBranding } from '../../lambdas/domain/it-providers.js';
import { chunkTypes, dataUrl, MALFORMED_PNGS, PNG_WITH_SCRIPT, realPng } from '../support/png-corpus.js';
import { renderBranded } from '../support/render-branded-pdf.js';

/** Logos are decoded, not trusted (issue 28 finding 4). */

const now = new Date('2026-12-07T00:00:00Z');
const brand = (logo: string) => parseBranding({ name: 'Acme IT', colour: '#0f766e', logo }, now);
const storedBytes = (logo: string | null) => Buffer.from((logo ?? '').split(',')[1] ?? '', 'base64');

function refusal(logo: string): ValidationError | undefined {
  try {
    brand(logo);
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  return undefined;
}

describe('a logo is decoded before it is kept', () => {
  it('the attacker\'s file is 274 bytes, signature, IHDR and IEND around data that is not zlib', () => {
    const bytes = MALFORMED_PNGS['IDAT data that is not zlib']!;
    expect([bytes.length, chunkTypes(bytes)]).toEqual([274, ['IHDR', 'IDAT', 'IEND']]);
  });

  it.each(Object.entries(MALFORMED_PNGS))('refuses %s, naming the logo field', (_why, bytes) => {
    const error = refusal(dataUrl(bytes));

    expect(error?.code).toBe('validation_failed');
    expect(error?.fields).toEqual({ logo: expect.stringMatching(/^The logo must be a PNG image/) });
  });

  it('refuses an image wider than 1024 pixels and keeps one exactly 1024 wide', () => {
    expect(refusal(dataUrl(realPng(1025, 1)))?.fields).toEqual({ logo: expect.stringMatching(/1024×1024 pixels$/) });
    expect(PNG.sync.read(storedBytes(brand(dataUrl(realPng(1024, 1))).logo)).width).toBe(1024);
  });

  it('keeps a PNG with a script in a tEXt chunk, re-encoded without the chunk and with the same pixel', () => {
    const stored = storedBytes(brand(dataUrl(PNG_WITH_SCRIPT)).logo);

    expect(chunkTypes(PNG_WITH_SCRIPT)).toContain('tEXt');
    expect(chunkTypes(stored)).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect(stored.toString('latin1')).not.toContain('script');
    expect([...PNG.sync.read(stored).data]).toEqual([15, 118, 110, 255]);
  });

  it('stores an opaque image as RGB and a translucent one as RGBA, pixels unchanged', () => {
    const opaque = storedBytes(brand(dataUrl(realPng(3, 2))).logo);
    const translucent = storedBytes(brand(dataUrl(realPng(3, 2, 128))).logo);

    // IHDR's colour type byte: 2 RGB, 6 RGBA.
    expect([opaque[25], translucent[25]]).toEqual([2, 6]);
    expect([...PNG.sync.read(translucent).data.subarray(0, 4)]).toEqual([15, 118, 110, 128]);
    expect(PNG.sync.read(opaque)).toMatchObject({ width: 3, height: 2 });
  });

  it('versions the branding by what is stored: the same image sent with or without a tEXt chunk is the same version', () => {
    const plain = realPng(1, 1);
    expect(brand(dataUrl(PNG_WITH_SCRIPT)).version).toBe(brand(dataUrl(plain)).version);
    expect(brand(dataUrl(PNG_WITH_SCRIPT)).logo).toBe(brand(dataUrl(plain)).logo);
  });

  it('refuses a stored-size bomb: cleanLogo takes no file over its limit', () => {
    expect(() => cleanLogo(Buffer.concat([realPng(1, 1), Buffer.alloc(200 * 1024)]))).toThrow(/too large/);
  });
});

describe('a PDF with a stored logo that does not decode', () => {
  it('finishes without the logo, the same document as with no logo at all', async () => {
    // Prepare: a logo stored before logos were decoded (the PDF path never sees it re-checked on save).
    const bad = MALFORMED_PNGS['IDAT data that is not zlib']!.toString('base64');
    const script = new URL('../support/render-branded-pdf.ts', import.meta.url).pathname;

    // Act: in a child process, killed after 20 s (pdf-lib's spin is synchronous).
    const started = Date.now();
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script, bad], { timeout: 20_000 });
    const withBad = JSON.parse(stdout) as { sha256: string; images: number };
    const without = await renderBranded('');
    const withGood = await renderBranded(realPng(4, 4).toString('base64'));

    // Assess
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(withBad).toEqual(without);
    expect([without.images, withGood.images]).toEqual([0, 1]);
  }, 30_000);
});
