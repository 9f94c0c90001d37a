import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import type { Audit } from '../../../lambdas/domain/audit.js';
import { buildAuditView } from '../../../lambdas/domain/audit-view.js';
import { SAMPLE_BUSINESS_NAME, sampleAudit } from '../../../lambdas/domain/sample-report.js';
import { renderPdfReport } from '../../../lambdas/reports/pdf-report.js';
import { bundleSettings as bundlingOptions } from '../../../lib/constructs/bundles.js';
import { groupAsFinding, matchVulnerabilities } from '../../../lambdas/scanner/vulndb/index.js';
import { readPdf } from '../../support/pdf-text.js';

const rangeAudit = JSON.parse(readFileSync(new URL('../../fixtures/audits/range-wordpress.json', import.meta.url), 'utf8')) as Audit;
const options = { productName: 'Rampart', reportUrl: 'https://rampart.example/results/3f9c2a1e-7b4d-4c8e-9a2f-5d6e7f8a9b0c' };

describe('the PDF report', () => {
  it('renders a multi-page report of the range WordPress scan with every section and its values', async () => {
    // Act
    const bytes = await renderPdfReport(buildAuditView(rangeAudit, { businessName: 'Example Test Pty Ltd' }), options);
    const pdf = await readPdf(bytes);

    // Assess
    expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    expect(pdf.pages).toBeGreaterThanOrEqual(5);
    // Cover: product, site, business, date, grade and score, risk, the four counters in order.
    expect(pdf.lines.slice(0, 3)).toEqual(['Rampart', 'Website Security Report', 'wp.example.test']);
    for (const line of ['Example Test Pty Ltd', '2026-11-22 13:19 UTC', 'F', 'Score 0 / 100', 'Risk level: HIGH', options.reportUrl]) {
      expect(pdf.lines).toContain(line);
    }
    const counters = ['Total issues', 'Critical issues', 'Open ports', 'Subdomains'].map((label) => pdf.lines[pdf.lines.indexOf(label) - 1]);
    expect(counters).toEqual(['33', '0', '3', '8']);
    expect(pdf.lines).toContain('0 critical, 7 high, 13 medium, 13 low');
    // Issues by what to do (issue 29 item 7), with evidence and the fix in plain words.
    expect(pdf.lines).toEqual(expect.arrayContaining(['Issues to fix (33)', 'Fix this month (20)', 'Good practice (13)', 'Observations (7)', 'Database is open to the internet']));
    expect(pdf.lines).not.toContain('Fix now (0)');
    expect(pdf.lines).toContain('Evidence: 127.0.0.3: 3306/tcp mysql (MariaDB 10.11.19)');
    expect(pdf.text).toContain('What to do: Let the database listen only on the server itself or a private network');
    // → in evidence is spelled with characters the standard font has.
    expect(pdf.text).toContain('GET /server-status -> 200');
    // Ports, TLS, email security, headers, technologies and CVEs, subdomains, breaches.
    expect(pdf.lines).toEqual(
      expect.arrayContaining([
        'Network: open ports',
        '3306',
        'mysql',
        'MariaDB 10.11.19',
        'TLS (HTTPS encryption)',
        'T (the certificate is not trusted)',
        'TLSv1, TLSv1.1, TLSv1.2, TLSv1.3',
        'no (self-signed)',
        'Email security',
        'v=spf1 mx ~all',
        'v=DMARC1; p=none (policy: none)',
        'no key found for the common selectors',
        'mail.example.test',
        'Web security headers',
        "MDN HTTP Observatory score 10 (that tool's scoring of these headers)",
        'Technologies and known vulnerabilities',
        'OpenSSL 3.0.19',
        '- CVE-2026-45447, CVSS 8.8, fixed in 3.0.21',
        'Subdomains',
        'Password breaches',
        'The breach lookup is not configured for this service: no addresses were checked.',
      ]),
    );
    expect(pdf.lines).toContain(`Page 1 of ${pdf.pages}`);
    expect(pdf.lines).toContain(`Page ${pdf.pages} of ${pdf.pages}`);
  });

  it('shows one grade (ours), and keeps every apostrophe of the findings it prints', async () => {
    // Prepare
    const view = buildAuditView(rangeAudit, { businessName: 'Example Test Pty Ltd' });
    const possessives = new Set(
      view.vulnerability_summary.vulnerabilities.flatMap((v) => `${v.title} ${v.description}`.match(/[\p{L}]+['’][\p{L}]*/gu) ?? []),
    );

    // Act
    const pdf = await readPdf(await renderPdfReport(view, options));
    const flowing = pdf.text.replace(/\s+/g, ' ');

    // Assess: no second letter grade beside ours (the Observatory's score stays as a comparison), and no
    // apostrophe dropped or replaced ("visitors browser", "visitor?s browser").
    expect(pdf.text).not.toContain('Observatory grade');
    expect(pdf.lines.filter((line) => /^[A-F] \(/.test(line))).toEqual([]);
    expect(possessives.size).toBeGreaterThan(3);
    for (const word of possessives) expect(flowing, word).toContain(word);
    expect(flowing).not.toMatch(/\p{L}\?s\b/u);
  });

  it('labels the sample report as a sample on the cover and on every page', async () => {
    const pdf = await readPdf(await renderPdfReport(buildAuditView(sampleAudit('demo_x'), { businessName: SAMPLE_BUSINESS_NAME, sample: true }), options));
    expect(pdf.pages).toBeGreaterThanOrEqual(2);
    expect(pdf.lines).toContain('SAMPLE REPORT: an example of what a report looks like, not a scan of a real site.');
    expect(pdf.lines.filter((l) => l === 'Rampart security report: www.example.com (sample)')).toHaveLength(pdf.pages);
    expect(pdf.lines).toEqual(expect.arrayContaining(['Score 75 / 100', 'C', 'Risk level: MEDIUM', SAMPLE_BUSINESS_NAME]));
    expect(pdf.text).toContain('1 business address checked against Have I Been Pwned: none found in known breaches.');
  });

  it('says a passive report is partial, lists what was not checked with why, and never calls the skipped port scan clean (DECISIONS "Scan modes")', async () => {
    const active = sampleAudit('demo_x');
    const audit: Audit = {
      ...active,
      mode: 'passive',
      checks: active.checks.map((check) =>
        check.name === 'ports' ? { name: 'ports', status: 'skipped', reason: 'Needs proof that you control this site.', findings: [] } : check,
      ),
    };
    const pdf = await readPdf(await renderPdfReport(buildAuditView(audit), options));
    expect(pdf.lines).toContain('Grade (partial report)');
    expect(pdf.text).toContain('Passive (partial report)');
    expect(pdf.lines).toContain('Not checked');
    expect(pdf.text).toContain('Open ports and services');
    expect(pdf.text).toContain('Needs proof that you control this site.');
    expect(pdf.text).toContain('Not checked: the port scan runs only in a full scan');
    expect(pdf.text).not.toContain('No open ports found.');
    // The full report's cover says so, and has no "Not checked" section.
    const full = await readPdf(await renderPdfReport(buildAuditView(active), options));
    expect(full.text).toContain('Full (active) scan');
    expect(full.lines).not.toContain('Not checked');
  });

  it('lists a software finding\'s CVEs in a table under it: exploited ones first with the KEV date and ransomware use, CVSS, EPSS, fixed in (DECISIONS "Per-CVE detail")', async () => {
    // Prepare: the scanner's finding for an Apache 2.4.49 banner (61 CVEs, 3 in CISA KEV).
    const { finding, data } = groupAsFinding('Apache', '2.4.49', matchVulnerabilities('Apache', '2.4.49'))!;
    const audit: Audit = {
      ...sampleAudit('demo_x'),
      checks: [{ name: 'software', status: 'ok', findings: [{ ...finding, check: 'software' }], data: { technologies: [], vulnerabilities: [data] } }],
    };

    // Act
    const pdf = await readPdf(await renderPdfReport(buildAuditView(audit), options));

    // Assess
    const header = pdf.lines.indexOf('Exploited (CISA KEV)');
    expect(pdf.lines.slice(header - 2, header + 3)).toEqual(['CVE', 'CVSS', 'Exploited (CISA KEV)', 'EPSS (percentile)', 'Fixed in']);
    // A cell wraps onto a second line where it is long.
    expect(pdf.lines.slice(header + 3, header + 27)).toEqual([
      'CVE-2021-41773', '9.8', 'EXPLOITED since 2021-11-03,', 'ransomware', '100% (99.9)', '2.4.50',
      'CVE-2021-42013', '9.8', 'EXPLOITED since 2021-11-03,', 'ransomware', '100% (99.9)', '2.4.51',
      'CVE-2024-38475', '9.1', 'EXPLOITED since 2025-05-01', '100% (99.9)', '2.4.60',
      'CVE-2026-44631', '9.8', '-', '-', '2.4.68',
      'CVE-2026-29167', '9.8',
    ]);
    // 15 rows in print, the rest counted; the ids are in the table, not repeated in a line.
    expect(pdf.lines).toContain('and 46 more CVEs, listed in the online report');
    expect(pdf.text).not.toContain('CVEs: CVE-2021-41773');
  });

  it('prints the Wordfence record of each WordPress plugin CVE under its table, as the licence asks', async () => {
    // Prepare
    const record = 'https://www.wordfence.com/threat-intel/vulnerabilities/id/63d93203-e8fb-4a88-9546-580944f03d9a';
    const audit: Audit = {
      ...sampleAudit('demo_x'),
      checks: [
        {
          name: 'software',
          status: 'ok',
          findings: [
            {
              id: 'cve.wordpress-plugin.duplicator',
              check: 'software',
              title: 'WordPress plugin duplicator 1.3.26 has 1 known vulnerability (1 exploited in the wild)',
              severity: 'critical',
              category: 'Vulnerabilities',
              description: 'Vulnerability data: Wordfence Intelligence, Copyright 2012-2026 Defiant Inc.',
              recommendation: 'Update duplicator to 1.3.28 or later.',
              cves: ['CVE-2020-11738'],
              cveDetails: [{ id: 'CVE-2020-11738', cvssScore: 7.5, severity: 'high', exploited: true, kevDateAdded: '2021-11-03', fixedIn: '1.3.28', summary: 'Directory Traversal', references: [record] }],
            },
          ],
          data: { technologies: [], vulnerabilities: [] },
        },
      ],
    };

    // Act
    const pdf = await readPdf(await renderPdfReport(buildAuditView(audit), options));

    // Assess
    const at = pdf.lines.indexOf('Source records:');
    expect(at).toBeGreaterThan(pdf.lines.indexOf('CVE-2020-11738'));
    expect(pdf.text.replace(/\s+/g, '')).toContain(`CVE-2020-11738:${record}`);
  });

  it("says in the TLS section when the host is on the browsers' HSTS preload list", async () => {
    // Prepare: the range scan, as if its host were covered by a listed parent.
    const audit = structuredClone(rangeAudit);
    const tls = audit.checks.find((check) => check.name === 'tls')!;
    tls.data = { ...tls.data, hstsPreload: { name: 'example.test', includeSubDomains: true } };

    // Act
    const pdf = await readPdf(await renderPdfReport(buildAuditView(audit), options));

    // Assess
    expect(pdf.lines).toContain('HSTS preload list');
    expect(pdf.text.replace(/\s+/g, ' ')).toContain('yes: browsers always use HTTPS (listed as example.test, with its subdomains)');
  });

  it('gives the same bytes for the same audit (dated by the scan, not by the rendering)', async () => {
    const view = buildAuditView(sampleAudit('demo_x'), { sample: true });
    const [a, b] = await Promise.all([renderPdfReport(view, options), renderPdfReport(view, options)]);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });

  it('draws text the standard fonts lack without failing: arrows spelled, other characters replaced', async () => {
    const audit = sampleAudit('demo_x');
    audit.host = 'shop.example.test';
    audit.checks[0]!.findings[0]!.title = 'Caf\u00e9 ≥ 2 → 3 \u4e2d\u6587 \u{1F512}';
    const pdf = await readPdf(await renderPdfReport(buildAuditView(audit), options));
    expect(pdf.lines).toContain('Caf\u00e9 >= 2 -> 3 ?? ?');
  });

  it('still renders inside the esbuild bundle the Lambda runs (no font files to find at run time)', async () => {
    // Prepare: the same esbuild settings as every ProjectFunction, into a folder with no node_modules.
    const dir = mkdtempSync(join(tmpdir(), 'rampart-pdf-bundle-'));
    try {
      const entry = join(dir, 'entry.ts');
      writeFileSync(
        entry,
        `import { renderPdfReport } from ${JSON.stringify(new URL('../../../lambdas/reports/pdf-report.ts', import.meta.url).pathname)};
import { buildAuditView } from ${JSON.stringify(new URL('../../../lambdas/domain/audit-view.ts', import.meta.url).pathname)};
import { sampleAudit } from ${JSON.stringify(new URL('../../../lambdas/domain/sample-report.ts', import.meta.url).pathname)};
const bytes = await renderPdfReport(buildAuditView(sampleAudit('demo_x')), { productName: 'Rampart' });
process.stdout.write(Buffer.from(bytes.subarray(0, 5)).toString() + ' ' + bytes.length);
`,
      );
      await build({
        entryPoints: [entry],
        outfile: join(dir, 'out', 'index.mjs'),
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: bundlingOptions.target,
        mainFields: [...bundlingOptions.mainFields],
        minify: true,
        banner: { js: bundlingOptions.banner },
        logLevel: 'silent',
        absWorkingDir: process.cwd(),
      });

      // Act
      const { stdout } = await promisify(execFile)(process.execPath, [join(dir, 'out', 'index.mjs')], { cwd: dir });

      // Assess
      expect(stdout).toMatch(/^%PDF- \d{4,}$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
