import { describe, expect, it } from 'vitest';
import { reportJson } from '../../bin/scan-report.js';
import { scannerProduct } from '../../lambdas/domain/site-access-view.js';
import { scanApacheShop } from '../support/apache-software-check.js';
import { keptOut } from '../support/blocked-audit.js';

describe('npm run scan -- --json: caps and blocked sites', () => {
  it('prints the capped score and each grade cap with why', async () => {
    const printed = JSON.parse(JSON.stringify(reportJson(await scanApacheShop())));
    // One critical finding: the formula gives 80; its exploited CVEs hold it at 59.
    expect([printed.score, printed.grade, printed.riskLevel]).toEqual([59, 'F', 'high']);
    expect(printed.gradeCaps).toEqual([{ id: 'kev', limit: 59, reason: expect.stringContaining('CVE-2021-41773') }]);
    expect(printed.siteAccess).toBeNull();
  });

  it('prints the wall that kept the scanner out, the checks not run and the steps naming the deployment', async () => {
    const report = await scanApacheShop();
    const printed = JSON.parse(JSON.stringify(reportJson({ ...report, checks: [...report.checks, keptOut('http')] }, scannerProduct('Rampart', 'https://rampart.example.test'))));
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
