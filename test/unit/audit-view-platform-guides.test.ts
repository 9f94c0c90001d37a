import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Audit, CheckResult, Finding } from '../../lambdas/domain/audit.js';
import { buildAuditView } from '../../lambdas/domain/audit-view.js';

/**
 * Issue 21 in the report view: the providers line in every report, each issue's platform guides —
 * the steps in paid audits (Basic and Pro), only a one-line note in a free report — and the Pro
 * remediation plan's items carrying the same steps.
 */

const finding = (id: string, severity: Finding['severity'], check: string): Finding => ({
  id,
  check,
  title: `Title of ${id}`,
  severity,
  category: 'Email Security',
  description: `About ${id}`,
  recommendation: `Fix ${id}`,
});

/** A zone on Cloudflare's name servers with Google Workspace mail and a soft-failing SPF record, as the dns and email checks store it. */
const checks: CheckResult[] = [
  {
    name: 'dns',
    status: 'ok',
    findings: [finding('dns.dnssec.unsigned', 'low', 'dns')],
    data: {
      host: 'shop.example.com.au',
      domain: 'example.com.au',
      ipv4: ['203.0.113.10'],
      records: { 'example.com.au': { NS: ['adam.ns.cloudflare.com', 'lola.ns.cloudflare.com'] } },
      nameservers: [{ name: 'adam.ns.cloudflare.com' }, { name: 'lola.ns.cloudflare.com' }],
    },
  },
  {
    name: 'email',
    status: 'ok',
    findings: [finding('email.spf.softfail', 'medium', 'email'), finding('email.dkim.not-found', 'info', 'email')],
    data: {
      domain: 'example.com.au',
      mx: [{ host: 'smtp.google.com', preference: 1, starttls: true }],
      spf: { record: 'v=spf1 include:_spf.google.com ~all', records: ['v=spf1 include:_spf.google.com ~all'] },
    },
  },
  { name: 'ports', status: 'ok', findings: [finding('ports.database.exposed', 'high', 'ports')], data: { open: [{ port: 3306, service: 'mysql' }] } },
];

const audit = (overrides: Partial<Audit> = {}): Audit => ({
  id: '0c3e6a2b-9d1f-4b7a-8e5c-2f4a6b8c0d1e',
  targetUrl: 'https://shop.example.com.au/',
  host: 'shop.example.com.au',
  status: 'completed',
  createdAt: '2026-11-01T00:00:00.000Z',
  completedAt: '2026-11-01T00:01:00.000Z',
  updatedAt: '2026-11-01T00:02:00.000Z',
  checks,
  ...overrides,
});

const SPF = 'v=spf1 include:_spf.google.com -all';

describe('the providers line in the report view', () => {
  it('names the mail provider and DNS host in every report, free or paid, with what each rests on', () => {
    // Act
    const free = buildAuditView(audit());
    const paid = buildAuditView(audit({ isPremium: true, planType: 'basic' }));

    // Assess
    for (const view of [free, paid]) {
      expect(view.providers).toEqual({
        summary: 'Your mail: Google Workspace · DNS: Cloudflare',
        roles: [
          { role: 'mail', label: 'Mail', providers: [{ id: 'google-workspace', name: 'Google Workspace', evidence: ['MX smtp.google.com', 'SPF include:_spf.google.com'] }] },
          { role: 'dns', label: 'DNS', providers: [{ id: 'cloudflare', name: 'Cloudflare', evidence: ['NS adam.ns.cloudflare.com', 'NS lola.ns.cloudflare.com'] }] },
        ],
      });
    }
  });
});

describe('platform guides per finding: paid audits get the steps, free reports a note', () => {
  it("gives a Basic Audit's SPF finding Google Workspace's part and Cloudflare's record steps with Google's include", () => {
    // Act
    const view = buildAuditView(audit({ isPremium: true, planType: 'basic' }));

    // Assess
    const spf = view.vulnerability_summary.vulnerabilities.find((v) => v.id === 'email.spf.softfail')!;
    expect(spf.platformGuides?.access).toBe('included');
    if (spf.platformGuides?.access !== 'included') throw new Error('no steps');
    expect(spf.platformGuides.topic).toBe('spf');
    expect(spf.platformGuides.serverConfig).toBe(false);
    expect(spf.platformGuides.guides.map((g) => [g.platform, g.platformName, g.role])).toEqual([
      ['google-workspace', 'Google Workspace', 'mail'],
      ['cloudflare', 'Cloudflare', 'dns'],
    ]);
    const cloudflare = spf.platformGuides.guides[1]!;
    expect(cloudflare.steps).toContain(`Find the TXT record named @ in the list, select Edit, change its value to: ${SPF}; then save.`);
    expect(cloudflare.records).toEqual([{ type: 'TXT', name: '@', value: SPF }]);
    // A finding no guide covers keeps only its own recommendation.
    expect(view.vulnerability_summary.vulnerabilities.find((v) => v.id === 'ports.database.exposed')).not.toHaveProperty('platformGuides');
    // A Basic Audit has no remediation plan: the guides are on the findings.
    expect(view.remediation_plan).toBeUndefined();
  });

  it('gives a free report only a one-line note naming the platforms, never the steps or records', () => {
    // Act
    const view = buildAuditView(audit());

    // Assess
    const spf = view.vulnerability_summary.vulnerabilities.find((v) => v.id === 'email.spf.softfail')!;
    expect(spf.platformGuides).toEqual({
      access: 'teaser',
      topic: 'spf',
      platformNames: ['Google Workspace', 'Cloudflare'],
      teaser: 'The paid audit includes step-by-step instructions for Google Workspace and Cloudflare.',
    });
    const dnssec = view.vulnerability_summary.vulnerabilities.find((v) => v.id === 'dns.dnssec.unsigned')!;
    expect(dnssec.platformGuides).toEqual({ access: 'teaser', topic: 'dnssec', platformNames: ['Cloudflare'], teaser: 'The paid audit includes step-by-step instructions for Cloudflare.' });
    // Nothing of the steps anywhere in the free view.
    const json = JSON.stringify(view);
    expect(json).not.toContain('DNS → Records');
    expect(json).not.toContain(SPF);
  });

  it("puts the same steps on the Pro Audit's remediation plan items", () => {
    // Act
    const view = buildAuditView(audit({ isPremium: true, planType: 'pro' }));

    // Assess
    const items = view.remediation_plan!.items;
    const spf = items.find((i) => i.findingId === 'email.spf.softfail')!;
    expect(spf.platformGuides?.guides.map((g) => g.platform)).toEqual(['google-workspace', 'cloudflare']);
    expect(spf.platformGuides?.guides[1]!.records).toEqual([{ type: 'TXT', name: '@', value: SPF }]);
    expect(items.find((i) => i.findingId === 'dns.dnssec.unsigned')!.platformGuides?.guides[0]!.steps[1]).toBe('Go to DNS → Settings and select Enable DNSSEC.');
    expect(items.find((i) => i.findingId === 'ports.database.exposed')).not.toHaveProperty('platformGuides');
    expect(view.vulnerability_summary.vulnerabilities.find((v) => v.id === 'email.spf.softfail')!.platformGuides?.access).toBe('included');
  });
});

describe('reports stored without what detection reads', () => {
  it('has no providers line when nothing was detected, and still renders every issue', () => {
    // Prepare: a scan whose checks stored no NS, MX, SPF, CNAME or headers (a report from before those fields, or a failed scan).
    const old = audit({ checks: [{ name: 'ports', status: 'ok', findings: [finding('ports.database.exposed', 'high', 'ports')], data: { open: [] } }] });

    // Act
    const view = buildAuditView(old);

    // Assess
    expect(view.providers).toBeNull();
    expect(view.vulnerability_summary.vulnerabilities.map((v) => [v.id, v.platformGuides])).toEqual([['ports.database.exposed', undefined]]);
  });

  it("reads the range WordPress report stored before detection: WordPress named, the DNS host's steps generic", () => {
    // Prepare
    const stored = JSON.parse(readFileSync(new URL('../fixtures/audits/range-wordpress.json', import.meta.url), 'utf8')) as Audit;

    // Act
    const free = buildAuditView(stored);
    const paid = buildAuditView({ ...stored, isPremium: true, planType: 'pro' });

    // Assess
    expect(free.providers?.summary).toBe('Site: WordPress');
    const freeSpf = free.vulnerability_summary.vulnerabilities.find((v) => v.id === 'email.spf.softfail')!;
    expect(freeSpf.platformGuides).toMatchObject({ access: 'teaser', platformNames: ['your DNS host'] });
    const paidSpf = paid.remediation_plan!.items.find((i) => i.findingId === 'email.spf.softfail')!;
    expect(paidSpf.platformGuides?.guides.map((g) => [g.platform, g.platformName])).toEqual([['dns-host', 'Your DNS host']]);
    const hsts = paid.remediation_plan!.items.find((i) => i.findingId === 'tls.hsts.missing')!;
    expect(hsts.platformGuides).toMatchObject({ serverConfig: true, guides: [{ platform: 'wordpress' }] });
  });
});
