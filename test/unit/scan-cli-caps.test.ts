import { describe, expect, it } from 'vitest';
import { reportJson } from '../../bin/scan-report.js';
import type { CheckResult } from '../../lambdas/domain/audit.js';
import { scannerProduct } from '../../lambdas/domain/site-access-view.js';
import type { CheckDefinition } from '../../lambdas/scanner/check.js';
import { mergeSightings } from '../../lambdas/scanner/checks/software/merge.js';
import { vulnerabilityFindings } from '../../lambdas/scanner/checks/software/vulnerabilities.js';
import { scan } from '../../lambdas/scanner/scan.js';
import { offlineNet } from '../support/offline-net.js';

/** The software check's analysis of one Server header (Apache/2.4.49, three CVEs in CISA's KEV catalog), without the network. */
const software: CheckDefinition = {
  name: 'software',
  budgetMs: 1000,
  needsAddress: true,
  passive: 'runs',
  run: async () => {
    const outcome = vulnerabilityFindings(
      mergeSightings([
        { name: 'Apache HTTP Server', product: 'apache_http_server', category: 'web-server', version: '2.4.49', confidence: 'high', source: 'server-header', where: 'Server header on https://shop.example.test/', value: 'Apache/2.4.49' },
      ]),
    );
    return { findings: outcome.findings, data: { technologies: outcome.technologies, vulnerabilities: outcome.vulnerabilities } };
  },
};

const scanned = () =>
  scan(
    { url: 'https://shop.example.test/', host: 'shop.example.test' },
    { resolvers: [], dnsTimeoutMs: 1000, allowPrivateTargets: false },
    { resolver: { resolve4: async () => ['93.184.216.34'], resolve6: async () => [] }, net: offlineNet, checks: [software] },
  );

describe('npm run scan -- --json: caps and blocked sites', () => {
  it('prints the capped score and each grade cap with why', async () => {
    const printed = JSON.parse(JSON.stringify(reportJson(await scanned())));
    // One critical finding: the formula gives 80; its exploited CVEs hold it at 59.
    expect([printed.score, printed.grade, printed.riskLevel]).toEqual([59, 'F', 'high']);
    expect(printed.gradeCaps).toEqual([{ id: 'kev', limit: 59, reason: expect.stringContaining('CVE-2021-41773') }]);
    expect(printed.siteAccess).toBeNull();
  });

  it('prints the wall that kept the scanner out, the checks not run and the steps naming the deployment', async () => {
    const report = await scanned();
    const block = { kind: 'challenge', vendor: 'cloudflare', vendorName: 'Cloudflare', status: 403, url: 'https://shop.example.test/', reason: 'Cloudflare answered with a challenge.' };
    const http: CheckResult = { name: 'http', status: 'skipped', cause: 'blocked', reason: block.reason, findings: [], data: { blocked: block } };
    const printed = JSON.parse(JSON.stringify(reportJson({ ...report, checks: [...report.checks, http] }, scannerProduct('Rampart', 'https://rampart.example.test'))));
    expect(printed.siteAccess).toMatchObject({
      kind: 'challenge',
      vendorName: 'Cloudflare',
      headline: 'We could not see your site: Cloudflare’s bot protection answered our scanner with a challenge (403) instead of the site.',
      checks: [{ check: 'http', title: 'HTTP security headers', cause: 'blocked' }],
      guide: { title: 'Let the Rampart scanner in through Cloudflare' },
    });
    expect(printed.checks.find((c: { name: string }) => c.name === 'http')).toMatchObject({ status: 'skipped', cause: 'blocked' });
  });
});
