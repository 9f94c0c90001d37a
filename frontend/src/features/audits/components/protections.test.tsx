import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Audit, AuditResultView } from '../../../lib/contracts';
import { advance, renderWithProviders, stubApi } from '../../../testing/api-stub';
import { AuthTestProvider } from '../../auth/auth-provider';
import { AuditResults } from './audit-results';

const ID = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';

const audit: Audit = {
  id: ID,
  targetUrl: 'https://shop.example.test/',
  host: 'shop.example.test',
  status: 'completed',
  createdAt: '2026-01-01T00:00:00.000Z',
  completedAt: '2026-01-01T00:00:20.000Z',
  score: 80,
  grade: 'B',
  riskLevel: 'medium',
  checks: [],
};

/** A report stored before the mail transport, DNSSEC, certificate and web hardening checks. */
const oldResult: AuditResultView = {
  id: ID,
  target_url: audit.targetUrl,
  audit_status: 'completed',
  error_message: null,
  scan_mode: 'active',
  coverage: { mode: 'active', allowedMode: 'active', partial: false, notChecked: [] },
  created_at: audit.createdAt,
  completed_at: audit.completedAt!,
  risk_level: 'medium',
  dns_results: { status: 'completed', subdomainsFound: 0, totalSubdomains: 0, activeSubdomains: 0, completedAt: audit.completedAt! },
  port_scan_results: [],
  vulnerability_summary: { vulnerabilities: [], totalIssues: 0, criticalIssues: 0, subdomainsScanned: 0, riskFactors: [], overallRisk: 'medium', recommendations: [] },
  host: audit.host,
  business_name: null,
  risk_score: 80,
  grade: 'B',
  counters: { totalIssues: 0, criticalIssues: 0, openPorts: 0, subdomains: 0 },
  finding_counts: { critical: 0, high: 0, medium: 0, low: 0, info: 0 },
  observations: [],
  grades: { tls: 'A', httpObservatory: null },
  breaches: { status: 'not-configured', checked: null, breached: null },
  technologies: [],
  tls: { status: 'completed', grade: 'A', ports: [], hsts: null, httpsRedirect: true },
  email_security: { status: 'completed', domain: 'example.test', spf: null, dmarc: null, dkim: { selectorsFound: [] }, mx: [] },
  network: { status: 'completed', address: null, portsScanned: 100, closed: 100, filtered: 0, firewall: null },
};

const result: AuditResultView = {
  ...oldResult,
  tls: {
    ...oldResult.tls,
    caa: { records: ['0 issue "letsencrypt.org"'], issuer: "Let's Encrypt", allowedIssuers: ['letsencrypt.org'], issuerAllowed: true, note: null },
    ocspStapling: { stapled: true, responderListed: true },
    certificateTransparency: { scts: 2, malformed: false },
  },
  email_security: {
    ...oldResult.email_security,
    mx: [
      { host: 'mx1.example.test', preference: 10, starttls: true, tlsVersion: 'TLSv1.3', dane: { result: 'match', signed: true, dnssec: 'secure', records: 1 } },
      { host: 'mx2.example.test', preference: 20, starttls: true, tlsVersion: 'TLSv1.3' },
    ],
    mtaSts: {
      policyFetched: true,
      certificateTrusted: true,
      fetchProblem: null,
      mode: 'enforce',
      maxAgeSeconds: 604800,
      mxPatterns: ['mx1.example.test'],
      mxCovered: 1,
      mxTotal: 2,
      uncoveredMx: ['mx2.example.test'],
      errors: [],
    },
    tlsRpt: null,
    bimi: null,
  },
  dnssec: {
    domain: 'example.test',
    status: 'secure',
    validation: 'secure',
    reason: null,
    algorithms: [{ number: 13, name: 'ECDSA P-256/SHA-256', deprecated: false }],
    signaturesExpire: '2026-01-20T00:00:00.000Z',
    signatureDatesWrong: false,
  },
  web_hardening: {
    permissionsPolicy: { present: false, valid: null, blocked: [], allowedToAll: [] },
    securityTxt: { found: true, signed: false, contacts: ['mailto:security@example.test'], expires: '2024-01-01T00:00:00.000Z', expired: true, canonicalMatches: true },
    mixedContent: { checked: true, active: 0, passive: 0, examples: [], upgradeInsecureRequests: false },
  },
};

const renderResults = async (view: AuditResultView) => {
  stubApi({ [`GET /api/audits/${ID}`]: { status: 200, body: { audit, result: view } } });
  renderWithProviders(
    <AuthTestProvider value={{ status: 'signed-out' }}>
      <AuditResults auditId={ID} />
    </AuthTestProvider>,
  );
  await advance();
};

/** Each fact of a group as "label tone: value". */
const factsOf = (group: string) =>
  within(screen.getByRole('region', { name: group }))
    .getAllByRole('term')
    .map((term) => `${term.textContent}: ${term.nextElementSibling?.textContent}`);

describe('the protections section of the results page', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('says what the mail transport, DNSSEC, certificate and web hardening checks found, in plain words, with a worded tone', async () => {
    await renderResults(result);

    const section = screen.getByRole('region', { name: 'Email, DNS and website protections' });
    expect(within(section).getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['Email delivery', 'DNS', 'Certificate', 'Website hardening']);
    expect(factsOf('Email delivery')).toEqual([
      'MTA-STS Fix: enforce mode, covers 1 of 2 mail servers (not mx2.example.test), remembered for 7 days',
      'TLS-RPT Info: not published: nobody is told when encrypted delivery to your mail servers fails',
      'BIMI Info: not published (optional: it shows your logo next to your mail in some inboxes)',
      "DANE (mx1.example.test) OK: the mail server's certificate matches its TLSA record",
    ]);
    expect(factsOf('DNS')).toEqual(['DNSSEC OK: signed and valid; signatures valid until 2026-01-20', 'DNSSEC algorithm Info: ECDSA P-256/SHA-256']);
    expect(factsOf('Certificate')).toEqual([
      "CAA OK: allows Let's Encrypt, which issued your certificate",
      'OCSP stapling OK: yes: the server sends proof that its certificate is not revoked',
      'Certificate Transparency OK: publicly logged: 2 signed timestamps (SCTs) in the certificate',
    ]);
    expect(factsOf('Website hardening')).toEqual([
      'Permissions-Policy Info: not set: pages and embedded content may ask visitors for camera, microphone or location',
      'security.txt Improve: expired on 2024-01-01; contact mailto:security@example.test',
      'Mixed content OK: none: everything on the home page loads over HTTPS',
    ]);
    // The h2 follows the page's other h2 sections, the groups are its h3s: no skipped level for axe's heading-order.
    expect(within(section).getByRole('heading', { level: 2 }).id).toBe('protections-heading');
  });

  it('shows no protections section for a report stored before these checks', async () => {
    await renderResults(oldResult);

    expect(screen.getByRole('region', { name: 'Open Ports' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Email, DNS and website protections' })).toBeNull();
    expect(screen.queryByText(/MTA-STS|DNSSEC|security\.txt/)).toBeNull();
  });
});
