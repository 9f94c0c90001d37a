import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Audit } from '../../lambdas/domain/audit.js';
import { buildAuditView } from '../../lambdas/domain/audit-view.js';
import { platformFixesOf } from '../../lambdas/domain/platform-guides.js';
import type { ScanSettings } from '../../lambdas/scanner/check.js';
import { dnsCheck } from '../../lambdas/scanner/checks/dns.check.js';
import { emailCheck } from '../../lambdas/scanner/checks/email.check.js';
import { createDnsClient } from '../../lambdas/scanner/net/dns-client.js';
import { createHttpClient } from '../../lambdas/scanner/net/http-client.js';
import { createSmtpClient } from '../../lambdas/scanner/net/smtp-client.js';
import type { TcpClient } from '../../lambdas/scanner/net/tcp-client.js';
import { createResolver } from '../../lambdas/scanner/resolver.js';
import { scan } from '../../lambdas/scanner/scan.js';
import { startZoneServer, type ZoneRecord, type ZoneServer } from '../support/zone-server.js';

/**
 * Issue 21 proof: a zone whose MX points at Google Workspace's host and whose NS are Cloudflare's
 * names gets those platforms' steps — through the real dns and email checks against a loopback
 * zone server, then detection and guide selection on what they stored.
 */
const zone: ZoneRecord[] = [
  { name: 'shop.test', type: 'SOA', ttl: 3600, data: { mname: 'adam.ns.cloudflare.com', rname: 'dns.cloudflare.com', serial: 1, refresh: 10000, retry: 2400, expire: 604800, minimum: 1800 } },
  { name: 'shop.test', type: 'NS', ttl: 3600, data: 'adam.ns.cloudflare.com' },
  { name: 'shop.test', type: 'NS', ttl: 3600, data: 'lola.ns.cloudflare.com' },
  { name: 'shop.test', type: 'A', ttl: 300, data: '127.0.0.1' },
  { name: 'shop.test', type: 'MX', ttl: 300, data: { preference: 1, exchange: 'smtp.google.com' } },
  { name: 'shop.test', type: 'TXT', ttl: 300, data: 'v=spf1 include:_spf.google.com ~all' },
  { name: '_dmarc.shop.test', type: 'TXT', ttl: 300, data: 'v=DMARC1; p=none; rua=mailto:dmarc@shop.test' },
  // Google's and Cloudflare's names, as the zone server answers them on loopback.
  { name: '_spf.google.com', type: 'TXT', ttl: 300, data: 'v=spf1 ip4:127.0.0.0/8 ~all' },
  { name: 'smtp.google.com', type: 'A', ttl: 300, data: '127.0.0.9' },
  { name: 'adam.ns.cloudflare.com', type: 'A', ttl: 300, data: '127.0.0.1' },
  { name: 'lola.ns.cloudflare.com', type: 'A', ttl: 300, data: '127.0.0.1' },
];

let dns: ZoneServer;

beforeAll(async () => {
  dns = await startZoneServer({ records: zone });
});
afterAll(async () => {
  await dns.close();
});

/** The real dns and email checks against the loopback zone: real DNS and SMTP clients (nothing listens for SMTP: the MX conversation fails, the records stay). */
async function scanZone() {
  const settings: ScanSettings = { resolvers: [{ host: '127.0.0.1', port: dns.port }], dnsTimeoutMs: 500, allowPrivateTargets: true, excludePorts: [2024], smtpPort: 9 };
  const tcp: TcpClient = { probe: async (_address, port) => ({ port, state: 'closed' }) };
  const net = {
    dns: createDnsClient({ resolvers: settings.resolvers, timeoutMs: settings.dnsTimeoutMs }),
    smtp: createSmtpClient({ allowPrivateTargets: true }),
    http: createHttpClient({ pinned: new Map(), resolve: async () => [], allowPrivateTargets: true }),
    tcp,
    tls: { handshake: () => Promise.reject(new Error('not in this test')) },
  };
  return scan({ url: 'https://shop.test/', host: 'shop.test' }, settings, { resolver: createResolver(settings), net, checks: [dnsCheck, emailCheck] });
}

describe('platform fixes for a scanned zone on Google Workspace mail and Cloudflare DNS', () => {
  it("gives the SPF, DMARC and DNSSEC findings Cloudflare's record steps with Google's include", async () => {
    // Prepare
    const report = await scanZone();
    expect(report.checks.map((c) => [c.name, c.status])).toEqual([
      ['dns', 'ok'],
      ['email', 'ok'],
    ]);

    // Act
    const fixes = platformFixesOf({ host: 'shop.test', checks: report.checks });

    // Assess
    expect(fixes.summary).toBe('Your mail: Google Workspace · DNS: Cloudflare');
    expect(fixes.providers.dns[0]!.evidence.map((e) => e.detail)).toEqual(['NS adam.ns.cloudflare.com', 'NS lola.ns.cloudflare.com']);
    expect(fixes.providers.mail[0]!.evidence.map((e) => e.detail)).toEqual(['MX smtp.google.com', 'SPF include:_spf.google.com']);
    expect(Object.keys(fixes.byFinding)).toEqual(expect.arrayContaining(['email.spf.softfail', 'email.dmarc.policy-none', 'dns.dnssec.unsigned']));

    const spf = fixes.byFinding['email.spf.softfail']!;
    expect(spf.guides.map((g) => g.platform)).toEqual(['google-workspace', 'cloudflare']);
    const cloudflareSpf = spf.guides[1]!;
    expect(cloudflareSpf.steps).toContain('Go to DNS → Records.');
    expect(cloudflareSpf.steps).toContain('Find the TXT record named @ in the list, select Edit, change its value to: v=spf1 include:_spf.google.com -all; then save.');
    expect(cloudflareSpf.records).toEqual([{ type: 'TXT', name: '@', value: 'v=spf1 include:_spf.google.com -all' }]);

    expect(fixes.byFinding['email.dmarc.policy-none']!.guides.map((g) => g.platform)).toEqual(['cloudflare']);
    expect(fixes.byFinding['dns.dnssec.unsigned']!.guides[0]!.steps[1]).toBe('Go to DNS → Settings and select Enable DNSSEC.');
  });
});

describe('the report of a scanned zone on Google Workspace mail and Cloudflare DNS', () => {
  it("shows a paid audit Cloudflare's SPF steps with Google's include, and a free report only the note", async () => {
    // Prepare: the scan stored as a completed audit, bought as a Basic Audit and not.
    const report = await scanZone();
    const stored: Audit = {
      id: '8a7b6c5d-4e3f-4a1b-9c8d-7e6f5a4b3c2d',
      targetUrl: 'https://shop.test/',
      host: 'shop.test',
      status: 'completed',
      createdAt: '2026-11-01T00:00:00.000Z',
      completedAt: '2026-11-01T00:00:30.000Z',
      checks: report.checks,
    };

    // Act
    const paid = buildAuditView({ ...stored, isPremium: true, planType: 'basic' });
    const free = buildAuditView(stored);

    // Assess
    for (const view of [paid, free]) expect(view.providers?.summary).toBe('Your mail: Google Workspace · DNS: Cloudflare');
    const paidSpf = paid.vulnerability_summary.vulnerabilities.find((v) => v.id === 'email.spf.softfail')!;
    if (paidSpf.platformGuides?.access !== 'included') throw new Error(`no steps: ${JSON.stringify(paidSpf.platformGuides)}`);
    const cloudflare = paidSpf.platformGuides.guides.find((g) => g.platform === 'cloudflare')!;
    expect(cloudflare.steps).toContain('Find the TXT record named @ in the list, select Edit, change its value to: v=spf1 include:_spf.google.com -all; then save.');
    expect(cloudflare.records).toEqual([{ type: 'TXT', name: '@', value: 'v=spf1 include:_spf.google.com -all' }]);
    expect(free.vulnerability_summary.vulnerabilities.find((v) => v.id === 'email.spf.softfail')!.platformGuides).toEqual({
      access: 'teaser',
      topic: 'spf',
      platformNames: ['Google Workspace', 'Cloudflare'],
      teaser: 'The paid audit includes step-by-step instructions for Google Workspace and Cloudflare.',
    });
  });
});
