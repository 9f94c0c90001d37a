import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../lambdas/domain/audit.js';
import { buildAuditView } from '../../lambdas/domain/audit-view.js';
import { scannerProduct, siteAccessOf } from '../../lambdas/domain/site-access-view.js';
import { detectBlock, type SiteBlock } from '../../lambdas/scanner/site-access/block.js';
import { auditOf, cloudflareChallenge, keptOut } from '../support/blocked-audit.js';

const ran = (name: string): CheckResult => ({ name, status: 'ok', findings: [], data: {} });
const scanner = scannerProduct('Rampart', 'https://rampart.example.test/');
const blockedChecks = (block: SiteBlock, cause?: 'blocked' | 'rate_limited') => [ran('dns'), ran('tls'), ...['exposure', 'http', 'software', 'wordpress'].map((name) => keptOut(name, block, cause))];

describe('the report of a site that blocked the scanner', () => {
  it('says so first, names the vendor, lists the checks kept out and gives the steps to let the scanner in', () => {
    const view = buildAuditView(auditOf(blockedChecks(cloudflareChallenge)), { scanner });

    expect(view.site_access).toMatchObject({
      blocked: true,
      kind: 'challenge',
      vendor: 'cloudflare',
      vendorName: 'Cloudflare',
      status: 403,
      url: 'https://shop.example.test/',
      reason: cloudflareChallenge.reason,
      retryAfterSeconds: null,
      headline: 'We could not see your site: Cloudflare’s bot protection answered our scanner with a challenge (403) instead of the site.',
      checks: [
        { check: 'exposure', title: 'Exposed files', cause: 'blocked' },
        { check: 'http', title: 'HTTP security headers', cause: 'blocked' },
        { check: 'software', title: 'Software and known vulnerabilities', cause: 'blocked' },
        { check: 'wordpress', title: 'WordPress', cause: 'blocked' },
      ],
    });
    expect(view.site_access!.guide!.title).toBe('Let the Rampart scanner in through Cloudflare');
    expect(view.site_access!.guide!.steps.join(' ')).toContain('(http.user_agent contains "RampartScanner")');
    expect(view.site_access!.guide!.steps.at(-1)).toMatch(/^Run the scan again/);
    // The coverage list says the same: not checked because the site blocked the scanner, never passed.
    expect(view.coverage.notChecked.map((item) => [item.check, item.cause])).toEqual([
      ['exposure', 'blocked'],
      ['http', 'blocked'],
      ['software', 'blocked'],
      ['wordpress', 'blocked'],
    ]);
    expect(view.coverage.partial).toBe(true);
  });

  it('names the user agent and /scanner page of the deployment that scanned', () => {
    const guide = siteAccessOf(blockedChecks(cloudflareChallenge), scannerProduct('Bastion Security', 'https://bastion.example.test'))!.guide!;
    expect(guide.title).toBe('Let the Bastion Security scanner in through Cloudflare');
    expect(guide.steps.join(' ')).toContain('BastionSecurityScanner');
    expect(guide.steps.join(' ')).toContain('https://bastion.example.test/scanner');
  });

  it('words a wall without a vendor from the generic rule, and a rate limit, an outage and a login by their kind', () => {
    const generic = detectBlock({ url: 'https://shop.example.test/', status: 406, headers: {}, body: '<html>Not Acceptable</html>' })!;
    expect(generic).toMatchObject({ kind: 'block', vendor: null, status: 406 });
    expect(siteAccessOf(blockedChecks(generic), scanner)).toMatchObject({
      headline: 'We could not see your site: a service in front of it refused our scanner’s requests (406).',
      guide: { title: 'Let the Rampart scanner in' },
    });

    const limited: SiteBlock = { kind: 'rate_limited', vendor: null, vendorName: null, status: 429, url: 'https://shop.example.test/', reason: 'The site answered 429.', retryAfterSeconds: 120 };
    expect(siteAccessOf(blockedChecks(limited, 'rate_limited'), scanner)).toMatchObject({
      headline: 'We could not see your site: it limited how fast our scanner may ask (429), so its pages were not checked.',
      retryAfterSeconds: 120,
      checks: expect.arrayContaining([{ check: 'http', title: 'HTTP security headers', cause: 'rate_limited' }]),
      guide: { title: 'Let the Rampart scanner past the rate limit' },
    });

    // The engine stores an outage as an error of the check, still with the wall it met.
    const outage: SiteBlock = { kind: 'unavailable', vendor: null, vendorName: null, status: 503, url: 'https://shop.example.test/', reason: 'The site answered 503 (maintenance).' };
    const outageChecks: CheckResult[] = [{ name: 'http', status: 'error', reason: outage.reason, findings: [], data: { blocked: outage } }];
    expect(siteAccessOf(outageChecks, scanner)).toMatchObject({
      headline: 'We could not see your site: it answered 503 with an error page (maintenance or an outage) instead of the site.',
      checks: [{ check: 'http', title: 'HTTP security headers', cause: 'error' }],
      guide: { title: 'The site was not available to the Rampart scanner' },
    });

    const login: SiteBlock = { kind: 'auth', vendor: null, vendorName: null, status: 401, url: 'https://shop.example.test/', reason: 'The site asks for a login (401).' };
    expect(siteAccessOf(blockedChecks(login), scanner)!.headline).toBe('We could not see your site: it asks for a login (401), and the scanner checks only what the public sees.');
  });

  it('has no site_access when the scanner saw the site, and no guide in a view made without the deployment', () => {
    expect(buildAuditView(auditOf([ran('dns'), ran('http')]), { scanner }).site_access).toBeNull();
    // A check that ran saw the site, whatever it noted of a wall on one of its requests.
    expect(siteAccessOf([{ ...ran('exposure'), data: { blocked: cloudflareChallenge } }], scanner)).toBeNull();
    expect(buildAuditView(auditOf(blockedChecks(cloudflareChallenge))).site_access).toMatchObject({ vendorName: 'Cloudflare', guide: null });
  });
});

describe('grade caps on the report', () => {
  const caps = [
    { id: 'kev' as const, limit: 59, reason: "A vulnerability known to be exploited in attacks (CISA's KEV catalog) is on the site: CVE-2020-11022 (jQuery 1.12.4 has known vulnerabilities)." },
    { id: 'no-https' as const, limit: 69, reason: 'The site has no working HTTPS: port 443 does not answer with TLS.' },
  ];

  it('shows the stored caps beside the stored (capped) score and grade', () => {
    const view = buildAuditView(auditOf([ran('dns')], { score: 59, grade: 'F', riskLevel: 'high', gradeCaps: caps }));
    expect([view.risk_score, view.grade, view.risk_level, view.grade_caps]).toEqual([59, 'F', 'high', caps]);
  });

  it('has none on a report scored before caps, and none while the scan runs', () => {
    expect(buildAuditView(auditOf([ran('dns')])).grade_caps).toEqual([]);
    expect(buildAuditView(auditOf([ran('dns')], { status: 'in_progress', gradeCaps: caps })).grade_caps).toEqual([]);
  });
});
