import { createHash } from 'node:crypto';
import { buildAuditView } from '../../lambdas/domain/audit-view.js';
import { sampleAudit } from '../../lambdas/domain/sample-report.js';
import { renderPdfReport } from '../../lambdas/reports/pdf-report.js';

/**
 * Renders the sample report branded with the logo given base64-encoded as the argument ('' for none)
 * and prints `{ sha256, images }` of the PDF. Run in a child process (`node --import tsx`) so that a
 * test can kill a render that never ends: pdf-lib's spin on a bad PNG is synchronous, and no test
 * timeout interrupts it in-process.
 */
export async function renderBranded(logoBase64: string): Promise<{ sha256: string; images: number }> {
  const branding = { colour: { r: 0.06, g: 0.46, b: 0.43 }, ...(logoBase64 ? { logoPng: Buffer.from(logoBase64, 'base64') } : {}) };
  const pdf = Buffer.from(await renderPdfReport(buildAuditView(sampleAudit('demo_logo')), { productName: 'Acme IT', reportUrl: 'https://rampart.example/results/demo_logo', branding }));
  return { sha256: createHash('sha256').update(pdf).digest('hex'), images: pdf.toString('latin1').split('/Subtype /Image').length - 1 };
}

if (process.argv[1]?.endsWith('render-branded-pdf.ts')) {
  process.stdout.write(JSON.stringify(await renderBranded(process.argv[2] ?? '')));
}
