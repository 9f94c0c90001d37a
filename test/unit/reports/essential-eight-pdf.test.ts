import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { ESSENTIAL_EIGHT_DISCLAIMER } from '../../../lambdas/domain/essential-eight.contract.js';
import { essentialEightView } from '../../../lambdas/domain/essential-eight.js';
import { drawEssentialEightSection, ESSENTIAL_EIGHT_PDF_TITLE, type EssentialEightPdfOptions } from '../../../lambdas/reports/essential-eight-pdf.js';
import { Writer } from '../../../lambdas/reports/pdf-report.js';
import { rdpOpenCheck } from '../../support/essential-eight-fixtures.js';
import { readPdf } from '../../support/pdf-text.js';

const view = essentialEightView({
  domain: 'shop.example.com',
  audit: {
    id: 'a1',
    targetUrl: 'https://shop.example.com/',
    completedAt: '2026-11-26T03:00:00.000Z',
    checks: [rdpOpenCheck],
  },
  agents: [],
  now: new Date('2026-11-27T00:00:00.000Z'),
});

/** Draws the section into a document with one page already written, as a report would. */
async function render(options?: EssentialEightPdfOptions) {
  const doc = await PDFDocument.create();
  const w = new Writer(doc, {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    mono: await doc.embedFont(StandardFonts.Courier),
  });
  w.newPage();
  w.text('The report before the section');
  drawEssentialEightSection(w, view, options);
  return readPdf(await doc.save({ useObjectStreams: false }));
}

describe('the Essential Eight PDF section', () => {
  it('prints the disclaimer, the sources, a summary row per strategy, then each strategy with status, ML1 requirement, what was seen and how to check', async () => {
    // Act
    const pdf = await render();

    // Assess
    const flat = pdf.lines.join(' ');
    expect(pdf.lines[0]).toBe('The report before the section');
    expect(pdf.lines[1]).toBe(ESSENTIAL_EIGHT_PDF_TITLE);
    expect(flat).toContain(ESSENTIAL_EIGHT_DISCLAIMER);
    expect(flat).toContain('shop.example.com: web scan of 2026-11-26; no endpoint agents. Generated 2026-11-27.');
    const row = pdf.lines.indexOf('Multi-factor authentication');
    expect(pdf.lines.slice(row, row + 3)).toEqual(['Multi-factor authentication', 'Evidence against', '1']);
    expect(pdf.lines.filter((line) => line === 'Cannot be assessed from outside')).toHaveLength(2 * 7);
    expect(flat).toContain('Against: Remote Desktop (RDP) is open to the internet. Remote Desktop answers directly on the internet');
    expect(flat).toContain('Web scan of shop.example.com on 2026-11-26: 203.0.113.10: 3389/tcp ms-wbt-server');
    expect(pdf.lines.filter((line) => line === 'How to check')).toHaveLength(8);
    expect(flat).toContain('1. List what you back up');
    expect(flat).not.toMatch(/\bcompliant\b|certified/i);
  });

  it('starts on a new page by default, and continues the current page for a monthly report domain section', async () => {
    const alone = await render();
    const continued = await render({ newPage: false, level: 2 });
    expect(continued.pages).toBeLessThan(alone.pages);
    expect(continued.lines[1]).toBe(ESSENTIAL_EIGHT_PDF_TITLE);
  });
});
