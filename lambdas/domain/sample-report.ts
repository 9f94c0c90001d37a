import type { Audit, CheckResult, Finding } from './audit.js';
import { scoreChecks } from './grade-caps.js';
import { grade, riskLevel } from './scoring.js';

/**
 * The sample report (SPEC §2 "report preview", §7 demo ids): what `GET /api/audits/{id}` answers
 * for ids beginning `demo_` or `audit_`, always labelled `sample: true`.
 *
 * The spec's preview (score 72, grade C, 2 critical) cannot come out of its own formula
 * (DECISIONS "Landing report preview"): two critical issues alone leave at most 60. This sample
 * keeps the preview's shape — 5 vulnerabilities, 3 open ports, 12 subdomains, risk medium,
 * grade C — with numbers the formula produces: 5 non-critical issues → 100 − 5 × 5 = 75.
 * Addresses are from TEST-NET-3 (203.0.113.0/24) and names under example.com: nobody's site.
 */

export const SAMPLE_ID_PATTERN = /^(demo|audit)_[A-Za-z0-9_-]{1,64}$/;

export function isSampleAuditId(id: string): boolean {
  return SAMPLE_ID_PATTERN.test(id);
}

export const SAMPLE_BUSINESS_NAME = 'Example Business Pty Ltd';
const HOST = 'www.example.com';
const ADDRESS = '203.0.113.10';
const CREATED_AT = '2025-01-15T09:30:00.000Z';
const STARTED_AT = '2025-01-15T09:30:01.000Z';
const COMPLETED_AT = '2025-01-15T09:30:19.000Z';

const f = (check: string, finding: Omit<Finding, 'check'>): Finding => ({ check, ...finding });

const SUBDOMAINS = ['api', 'blog', 'cdn', 'dev', 'mail', 'portal', 'shop', 'staging', 'status', 'support', 'vpn', 'www'].map((label, i) => ({
  name: `${label}.example.com`,
  addresses: [`203.0.113.${20 + i}`],
  // 9 of the 12 answer on 443 or 80: mail, vpn and staging do not.
  answers: !['mail', 'vpn', 'staging'].includes(label),
}));

const checks: CheckResult[] = [
  {
    name: 'dns',
    status: 'ok',
    durationMs: 140,
    findings: [
      f('dns', {
        id: 'dns.caa.missing',
        title: 'No CAA record restricts which certificate authorities may issue certificates',
        severity: 'info',
        category: 'Infrastructure',
        evidence: 'No CAA record at www.example.com or any parent up to the registrable domain',
        description: 'Any certificate authority may issue a certificate for the domain.',
        recommendation: 'Publish a CAA record naming the certificate authority you use (for example 0 issue "letsencrypt.org").',
      }),
    ],
    data: { host: HOST, ipv4: [ADDRESS], ipv6: [], domain: 'example.com' },
  },
  {
    name: 'email',
    status: 'ok',
    durationMs: 310,
    findings: [],
    data: {
      domain: 'example.com',
      spf: { record: 'v=spf1 include:_spf.google.com -all', allQualifier: '-' },
      dmarc: { record: 'v=DMARC1; p=quarantine; rua=mailto:dmarc@example.com', policy: 'quarantine', effectivePolicy: 'quarantine' },
      dkim: { selectorsFound: ['google'] },
      mx: [{ host: 'aspmx.l.google.com', preference: 1, starttls: true, tlsVersion: 'TLSv1.3' }],
    },
  },
  {
    name: 'subdomains',
    status: 'ok',
    durationMs: 2100,
    findings: [],
    data: { domain: 'example.com', subdomainsFound: SUBDOMAINS.length, activeSubdomains: SUBDOMAINS.filter((s) => s.answers).length, list: SUBDOMAINS },
  },
  {
    name: 'tls',
    status: 'ok',
    durationMs: 1800,
    findings: [
      f('tls', {
        id: 'tls.protocol.tls10',
        title: 'TLS 1.0 is still accepted',
        severity: 'medium',
        category: 'SSL/TLS',
        evidence: 'port 443: TLS 1.0 accepted (ECDHE-RSA-AES128-SHA)',
        description: 'TLS 1.0 is obsolete (RFC 8996) and exposed to attacks such as BEAST; no current browser needs it.',
        recommendation: 'Disable TLS 1.0 and 1.1 on the web server; offer TLS 1.2 and 1.3 only.',
        cves: ['CVE-2011-3389'],
      }),
    ],
    data: {
      address: ADDRESS,
      servername: HOST,
      grade: 'B',
      ports: [
        {
          port: 443,
          grade: 'B',
          offered: ['TLSv1', 'TLSv1.2', 'TLSv1.3'],
          certificate: {
            subject: 'CN=www.example.com',
            issuer: 'C=US, O=Let\'s Encrypt, CN=R11',
            notAfter: '2025-03-20T08:00:00.000Z',
            daysLeft: 64,
            expired: false,
            selfSigned: false,
            trusted: true,
            hostnameMatch: true,
            keyType: 'rsa',
            keySize: 2048,
          },
        },
      ],
      hsts: { url: `https://${HOST}/`, valid: true, maxAge: 31_536_000 },
      redirect: { from: `http://${HOST}/`, finalUrl: `https://${HOST}/`, endsOnHttps: true },
    },
  },
  {
    name: 'http',
    status: 'ok',
    durationMs: 650,
    findings: [
      f('http', {
        id: 'http.csp.missing',
        title: 'No Content Security Policy',
        severity: 'medium',
        category: 'Web Security',
        evidence: 'No Content-Security-Policy header (or meta tag) on the page',
        description: 'Without a Content Security Policy, an injected script runs with the full rights of the site.',
        recommendation: "Add a Content-Security-Policy header, starting with default-src 'self' and the sources the site really uses.",
      }),
      f('http', {
        id: 'http.xcto.missing',
        title: 'No X-Content-Type-Options header',
        severity: 'low',
        category: 'Web Security',
        evidence: 'No X-Content-Type-Options header',
        description: 'Browsers may guess the type of a response and run an upload as a script.',
        recommendation: 'Send X-Content-Type-Options: nosniff on every response.',
      }),
    ],
    data: { url: `https://${HOST}/`, analyzed: 'https', observatory: { graded: true, score: 70, grade: 'B', url: `https://${HOST}/`, statusCode: 200 } },
  },
  {
    name: 'ports',
    status: 'ok',
    durationMs: 3200,
    findings: [
      f('ports', {
        id: 'ports.database.exposed',
        title: 'Database is open to the internet',
        severity: 'high',
        category: 'Network Security',
        evidence: `${ADDRESS}: 3306/tcp mysql (MySQL 5.7.44)`,
        description: 'Anyone can try passwords against the database and reach any flaw in it directly.',
        recommendation: 'Close port 3306 to the internet: let only the web server (or a VPN) reach the database.',
      }),
    ],
    data: {
      address: ADDRESS,
      scanned: 100,
      closed: 0,
      filtered: 97,
      firewall: 'filtering',
      open: [
        { port: 80, service: 'http', product: 'nginx', version: '1.24.0', risk: 'info' },
        { port: 443, tls: true, service: 'https', product: 'nginx', version: '1.24.0', risk: 'info' },
        { port: 3306, service: 'mysql', product: 'MySQL', version: '5.7.44', risk: 'high' },
      ],
    },
  },
  {
    name: 'software',
    status: 'ok',
    durationMs: 900,
    findings: [
      f('software', {
        id: 'software.eol.php',
        title: 'PHP 7.4 no longer receives security fixes',
        severity: 'high',
        category: 'Vulnerabilities',
        evidence: 'X-Powered-By header on https://www.example.com/: PHP/7.4.33',
        description: 'PHP 7.4 reached its end of life in November 2022: flaws found since then are not fixed.',
        recommendation: 'Upgrade the site to a supported PHP version (8.2 or later) and stop sending the X-Powered-By header.',
        cvssScore: 7.5,
      }),
    ],
    data: {
      url: `https://${HOST}/`,
      technologies: [
        { name: 'nginx', version: '1.24.0', category: 'web-server', knownVulnerabilities: 0 },
        { name: 'PHP', version: '7.4.33', category: 'language', knownVulnerabilities: 0 },
        { name: 'MySQL', version: '5.7.44', category: 'database', knownVulnerabilities: 0 },
        { name: 'WordPress', version: '6.7.1', category: 'cms', knownVulnerabilities: 0 },
      ],
      vulnerabilities: [],
    },
  },
  {
    name: 'exposure',
    status: 'ok',
    durationMs: 700,
    findings: [
      f('exposure', {
        id: 'exposure.security-txt-missing',
        title: 'No security.txt: no published way to report a vulnerability',
        severity: 'info',
        category: 'Web Security',
        evidence: 'GET /.well-known/security.txt: no file with a Contact field',
        description: 'Someone who finds a flaw in the site has no published way to tell you.',
        recommendation: 'Publish /.well-known/security.txt with a Contact and an Expires field (RFC 9116).',
      }),
    ],
    data: { checked: 34, hits: [] },
  },
  {
    name: 'breaches',
    status: 'ok',
    durationMs: 400,
    findings: [
      f('breaches', {
        id: 'breaches.none-found',
        title: 'No known breaches for the checked addresses',
        severity: 'info',
        category: 'Password Security',
        evidence: '1 address checked, no breaches found (o***@example.com)',
        description: 'None of the checked business addresses appears in a known data breach.',
        recommendation: 'Keep multi-factor authentication on email accounts: a password reused on a breached site is at risk the day that breach surfaces.',
      }),
    ],
    data: { status: 'ok', checked: 1, breached: 0, accounts: [{ email: 'o***@example.com', breaches: [] }] },
  },
];

/** The sample audit under the id it was asked for; its score, grade and risk come from the formula and its caps. */
export function sampleAudit(id: string): Audit {
  const { score, caps } = scoreChecks(checks);
  return {
    id,
    targetUrl: `https://${HOST}/`,
    host: HOST,
    status: 'completed',
    createdAt: CREATED_AT,
    startedAt: STARTED_AT,
    completedAt: COMPLETED_AT,
    score,
    grade: grade(score),
    riskLevel: riskLevel(score),
    ...(caps.length > 0 ? { gradeCaps: caps } : {}),
    checks: structuredClone(checks),
  };
}
