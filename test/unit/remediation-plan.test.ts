import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { auditWith } from '../support/audit-fixtures.js';
import type { Audit, CheckResult, Finding } from '../../lambdas/domain/audit.js';
import { buildAuditView } from '../../lambdas/domain/audit-view.js';
import { buildRemediationPlan, portsInEvidence, type RemediationItemView, splitIntoSteps, webServerFromName } from '../../lambdas/domain/remediation-plan.js';

/** A completed scan of the range's WordPress site (Apache 2.4 on Debian, MariaDB on 3306). */
const rangeAudit = JSON.parse(readFileSync(new URL('../fixtures/audits/range-wordpress.json', import.meta.url), 'utf8')) as Audit;

const SEVERITY_RANK = { critical: 0, high: 1, medium: 2, low: 3, info: 4 } as const;

const finding = (id: string, severity: Finding['severity'], extra: Partial<Finding> = {}): Finding => ({
  id,
  check: id.split('.')[0]!,
  title: `Title of ${id}`,
  severity,
  category: 'Web Security',
  description: `Why ${id} matters`,
  recommendation: `Fix ${id}.`,
  ...extra,
});


const http = (server: string | undefined, findings: Finding[]): CheckResult => ({
  name: 'http',
  status: 'ok',
  findings,
  data: server ? { server: { header: 'server', value: server, product: server.split('/')[0] } } : {},
});

const item = (items: RemediationItemView[], id: string) => {
  const found = items.find((i) => i.findingId === id);
  if (!found) throw new Error(`no plan item for ${id}`);
  return found;
};

describe('the remediation plan of the range WordPress scan', () => {
  const plan = buildRemediationPlan(rangeAudit);
  const issues = rangeAudit.checks.flatMap((c) => c.findings).filter((f) => f.severity !== 'info');

  it('has one item per issue and none for observations', () => {
    expect(plan.items).toHaveLength(33);
    expect(new Set(plan.items.map((i) => i.findingId))).toEqual(new Set(issues.map((f) => f.id)));
    for (const observation of ['dns.caa.missing', 'email.dkim.not-found', 'wordpress.readme-exposed', 'breaches.not-configured']) {
      expect(plan.items.map((i) => i.findingId)).not.toContain(observation);
    }
  });

  it('orders worst severity first, then by category', () => {
    const keys = plan.items.map((i) => [SEVERITY_RANK[i.severity], i.category] as const);
    const sorted = [...keys].sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1]));
    expect(keys).toEqual(sorted);
    expect(plan.items.slice(0, 2).map((i) => [i.severity, i.category, i.findingId])).toEqual([
      ['high', 'Infrastructure', 'dns.axfr.open'],
      ['high', 'Network Security', 'ports.database.exposed'],
    ]);
    expect(plan.items.at(-1)).toMatchObject({ severity: 'low', category: 'WordPress', findingId: 'wordpress.version-disclosed' });
  });

  it("carries each finding's title, severity, category, evidence and why it matters", () => {
    const database = item(plan.items, 'ports.database.exposed');
    expect(database).toMatchObject({
      title: 'Database is open to the internet',
      severity: 'high',
      category: 'Network Security',
      evidence: '127.0.0.3: 3306/tcp mysql (MariaDB 10.11.19)',
      whyItMatters: expect.stringContaining('A database reachable from the internet can be attacked directly'),
    });
  });

  it('writes the configuration for the web server the scan saw (Apache) and no other', () => {
    expect(plan.webServer).toBe('apache');
    const hsts = item(plan.items, 'tls.hsts.missing');
    expect(hsts.effort).toBe('quick');
    expect(hsts.steps.map((s) => s.examples?.map((e) => `${e.label}: ${e.code}`))).toEqual([
      undefined,
      ['Apache: Header always set Strict-Transport-Security "max-age=300"'],
      ['Apache: sudo apachectl configtest && sudo systemctl reload apache2   # httpd on Red Hat family systems'],
      ['Apache: Header always set Strict-Transport-Security "max-age=31536000; includeSubDomains"'],
    ]);
    expect(hsts.verify).toEqual({
      text: 'https://wp.example.test/ answers with Strict-Transport-Security and max-age=31536000.',
      command: "curl -sI https://wp.example.test/ | grep -i '^strict-transport-security:'",
    });
    const banner = item(plan.items, 'http.disclosure.server-version');
    expect(banner.steps[0]!.examples).toEqual([{ label: 'Apache', code: 'ServerTokens Prod\nServerSignature Off' }]);
  });

  it('gives a CSP in report-only mode first, then enforced, as an involved piece of work', () => {
    const csp = item(plan.items, 'http.csp.missing');
    expect(csp.effort).toBe('involved');
    const codes = csp.steps.flatMap((s) => s.examples ?? []).map((e) => e.code);
    expect(codes[0]).toBe(`Header always set Content-Security-Policy-Report-Only "default-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'self'; form-action 'self'"`);
    expect(codes.at(-1)).toBe(`Header always set Content-Security-Policy "default-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'self'; form-action 'self'"`);
    expect(csp.steps).toHaveLength(5);
  });

  it('moves DMARC from p=none to quarantine, then reject, on the domain the email check looked at', () => {
    const dmarc = item(plan.items, 'email.dmarc.policy-none');
    expect(dmarc.steps.flatMap((s) => s.examples ?? []).map((e) => e.code)).toEqual([
      '_dmarc.example.test. 3600 IN TXT "v=DMARC1; p=quarantine; rua=mailto:dmarc-reports@example.test"',
      '_dmarc.example.test. 3600 IN TXT "v=DMARC1; p=reject; rua=mailto:dmarc-reports@example.test"',
    ]);
    expect(dmarc.verify.command).toBe('dig +short TXT _dmarc.example.test');
    expect(dmarc.effort).toBe('moderate');
  });

  it('closes an exposed database: what listens, bind to localhost for its kind, firewall, check from outside', () => {
    const database = item(plan.items, 'ports.database.exposed');
    expect(database.steps.flatMap((s) => s.examples ?? [])).toEqual([
      { label: 'Shell', code: "sudo ss -tlnp | grep -E ':(3306)\\b'" },
      { label: 'Shell', code: 'sudo systemctl disable --now <service>' },
      { label: 'MySQL / MariaDB (my.cnf, [mysqld])', code: 'bind-address = 127.0.0.1' },
      { label: 'ufw', code: 'sudo ufw deny 3306/tcp' },
    ]);
    expect(database.verify.command).toBe('nc -zv -w 5 wp.example.test 3306');
    expect(database.effort).toBe('moderate');
  });

  it('updates outdated software: the fixed version from the finding, the package manager of the distribution, then a restart', () => {
    const openssl = item(plan.items, 'cve.openssl');
    const texts = openssl.steps.map((s) => s.text);
    expect(texts[0]).toMatch(/^Find where OpenSSL runs \(the scan saw it in: Server header on https:\/\/wp\.example\.test\/; Server header on http:\/\/wp\.example\.test\/ and elsewhere\)/);
    expect(texts).toContain('Upgrade OpenSSL to 3.0.21 or later.');
    expect(openssl.steps.find((s) => s.text === 'Upgrade OpenSSL to 3.0.21 or later.')!.examples).toEqual([{ label: 'Debian / Ubuntu', code: 'sudo apt update && sudo apt upgrade' }]);
    expect(texts.at(-1)).toBe('Restart the services that use OpenSSL (the web server, PHP-FPM, the mail server) so they load the new version.');
    expect(openssl.effort).toBe('moderate');
    // WordPress updates itself: no package manager, no restart.
    const wordpress = item(plan.items, 'cve.wordpress');
    expect(wordpress.steps.map((s) => s.text).slice(2)).toEqual([
      'Upgrade WordPress to 7.0.4 or later.',
      "Use WordPress's own updater for this (in WordPress: Dashboard → Updates), then update its plugins and themes, and test the site's forms and checkout.",
    ]);
    expect(wordpress.steps.some((s) => s.examples)).toBe(false);
  });

  it("falls back to the recommendation's own sentences, the re-scan as the check and an effort by area", () => {
    const trace = item(plan.items, 'http.trace-enabled');
    expect(trace.steps.map((s) => s.text)).toEqual([
      'Turn TRACE off: in Apache `TraceEnable Off` (in the main server configuration), in IIS deny the TRACE verb with request filtering; nginx refuses TRACE unless a module enables it.',
      'No website needs TRACE.',
    ]);
    expect(trace.verify).toEqual({ text: 'Run the re-scan: "HTTP TRACE is enabled" should no longer be reported.', command: 'curl -sI https://wp.example.test/' });
    expect(trace.effort).toBe('quick');
    expect(item(plan.items, 'wordpress.xmlrpc-enabled').effort).toBe('moderate');
    expect(item(plan.items, 'dns.ns.single').verify.command).toBe('dig +short NS example.test');
  });

  it('gives every item at least one step, none of them empty', () => {
    for (const planItem of plan.items) {
      expect(planItem.steps.length, planItem.findingId).toBeGreaterThan(0);
      for (const step of planItem.steps) expect(step.text.trim(), planItem.findingId).not.toBe('');
    }
  });
});

describe('web server examples', () => {
  const hstsMissing = finding('tls.hsts.missing', 'medium', { category: 'SSL/TLS' });
  const tls: CheckResult = { name: 'tls', status: 'ok', findings: [hstsMissing] };

  it('writes nginx lines when the Server header says nginx', () => {
    const plan = buildRemediationPlan(auditWith([tls, http('nginx/1.24.0', [])]));
    expect(plan.webServer).toBe('nginx');
    expect(plan.items[0]!.steps[1]!.examples).toEqual([{ label: 'nginx', code: 'add_header Strict-Transport-Security "max-age=300" always;' }]);
    expect(plan.items[0]!.steps[2]!.examples).toEqual([{ label: 'nginx', code: 'sudo nginx -t && sudo systemctl reload nginx' }]);
  });

  it('writes both nginx and Apache lines when the scan saw no web server', () => {
    const plan = buildRemediationPlan(auditWith([tls, http(undefined, [])]));
    expect(plan.webServer).toBeNull();
    expect(plan.items[0]!.steps[1]!.examples!.map((e) => e.label)).toEqual(['nginx', 'Apache']);
  });

  it('writes web.config for IIS, where there is nothing to reload', () => {
    const plan = buildRemediationPlan(auditWith([tls, http('Microsoft-IIS/10.0', [])]));
    expect(plan.webServer).toBe('iis');
    expect(plan.items[0]!.steps[1]!.examples![0]!.code).toContain('<add name="Strict-Transport-Security" value="max-age=300" />');
    expect(plan.items[0]!.steps[2]).toEqual({ text: expect.stringContaining('IIS applies web.config at once') });
  });

  it.each([
    ['nginx', 'nginx'],
    ['openresty/1.21', 'nginx'],
    ['Apache', 'apache'],
    ['Apache HTTP Server', 'apache'],
    ['LiteSpeed', 'apache'],
    ['Microsoft-IIS', 'iis'],
    ['Apache Tomcat', undefined],
    ['cloudflare', undefined],
  ])('reads %s as %s', (name, server) => {
    expect(webServerFromName(name)).toBe(server);
  });
});

describe('known fixes on a site without a web server banner', () => {
  it('publishes an SPF record ending in -all at the mail domain', () => {
    const email: CheckResult = { name: 'email', status: 'ok', data: { domain: 'shop.example.test' }, findings: [finding('email.spf.missing', 'medium', { category: 'Email Security' })] };
    const [spf] = buildRemediationPlan(auditWith([email], { host: 'www.shop.example.test' })).items;
    expect(spf!.steps.flatMap((s) => s.examples ?? [])).toEqual([{ label: 'DNS', code: 'shop.example.test. 3600 IN TXT "v=spf1 include:_spf.google.com -all"' }]);
    expect(spf!.verify.command).toBe('dig +short TXT shop.example.test | grep spf1');
    expect(spf!.effort).toBe('quick');
  });

  it('re-checks mail transport findings on the record each one is about', () => {
    const email: CheckResult = {
      name: 'email',
      status: 'ok',
      data: { domain: 'shop.example.test' },
      findings: [
        finding('email.mta-sts.mx-not-covered', 'high', { category: 'Email Security' }),
        finding('email.tls-rpt.missing', 'low', { category: 'Email Security' }),
        finding('email.bimi.invalid', 'low', { category: 'Email Security' }),
        finding('email.dane.mismatch', 'high', { category: 'Email Security', evidence: '_25._tcp.mx.shop.example.test: 3 1 1 abababababababab…: none matches the presented certificate chain' }),
      ],
    };
    const commands = Object.fromEntries(buildRemediationPlan(auditWith([email], { host: 'www.shop.example.test' })).items.map((i) => [i.findingId, i.verify.command]));
    expect(commands).toEqual({
      'email.mta-sts.mx-not-covered': 'dig +short TXT _mta-sts.shop.example.test && curl -s https://mta-sts.shop.example.test/.well-known/mta-sts.txt',
      'email.tls-rpt.missing': 'dig +short TXT _smtp._tls.shop.example.test',
      'email.bimi.invalid': 'dig +short TXT default._bimi.shop.example.test',
      'email.dane.mismatch': 'dig +dnssec TLSA _25._tcp.mx.shop.example.test',
    });
  });

  it('starts DMARC in monitoring mode when there is none, taking the domain from the host without www.', () => {
    const email: CheckResult = { name: 'email', status: 'ok', findings: [finding('email.dmarc.missing', 'medium', { category: 'Email Security' })] };
    const [dmarc] = buildRemediationPlan(auditWith([email], { host: 'www.shop.example.test' })).items;
    expect(dmarc!.steps[0]!.examples).toEqual([{ label: 'DNS', code: '_dmarc.shop.example.test. 3600 IN TXT "v=DMARC1; p=none; rua=mailto:dmarc-reports@shop.example.test"' }]);
    expect(dmarc!.steps).toHaveLength(4);
  });

  it('redirects HTTP to HTTPS in the port-80 server block', () => {
    const [redirect] = buildRemediationPlan(auditWith([{ name: 'tls', status: 'ok', findings: [finding('tls.redirect.no-https-redirect', 'medium')] }])).items;
    expect(redirect!.steps[0]!.examples!.map((e) => e.code)).toEqual([
      'server {\n  listen 80;\n  server_name shop.example.test;\n  return 301 https://$host$request_uri;\n}',
      '<VirtualHost *:80>\n  ServerName shop.example.test\n  Redirect permanent / https://shop.example.test/\n</VirtualHost>',
    ]);
    expect(redirect!.verify.command).toBe("curl -sI http://shop.example.test/ | grep -iE '^(HTTP|location)'");
  });

  it('allows only key-based SSH logins without telling the owner to close port 22', () => {
    const ports: CheckResult = {
      name: 'ports',
      status: 'ok',
      findings: [finding('ports.remote-access.ssh', 'medium', { category: 'Network Security', evidence: '203.0.113.5: 22/tcp ssh (OpenSSH 9.2p1)', recommendation: 'Allow key-based logins only (PasswordAuthentication no), and limit who can reach port 22 if you can.' })],
    };
    const [ssh] = buildRemediationPlan(auditWith([ports])).items;
    const codes = ssh!.steps.flatMap((s) => s.examples ?? []).map((e) => e.code);
    expect(codes).toContain('PasswordAuthentication no\nPermitRootLogin prohibit-password');
    expect(codes).not.toContain('sudo ufw deny 22/tcp');
  });

  it('calls software without a known fixed release involved', () => {
    const software: CheckResult = {
      name: 'software',
      status: 'ok',
      findings: [finding('cve.acme', 'high', { category: 'Vulnerabilities', evidence: 'Acme Server 1.0', recommendation: "No fixed Acme Server release is known for these in the vulnerability data: apply the vendor's mitigations, or replace it." })],
    };
    expect(buildRemediationPlan(auditWith([software])).items[0]!.effort).toBe('involved');
  });
});

describe('splitting a recommendation into steps', () => {
  it.each([
    ['One thing. Then another.', ['One thing.', 'Then another.']],
    ['Upgrade OpenSSL to 3.0.21 or later. Restart it.', ['Upgrade OpenSSL to 3.0.21 or later.', 'Restart it.']],
    ['Use a header, e.g. Foo. Then test.', ['Use a header, e.g. Foo.', 'Then test.']],
    ['Set `a. B` in the file. Reload.', ['Set `a. B` in the file.', 'Reload.']],
    ['Send "max-age=1. Really" now. Then check.', ['Send "max-age=1. Really" now.', 'Then check.']],
    ['Add the header. Rated medium: it needs another flaw first.', ['Add the header.']],
    ['No full stop at the end', ['No full stop at the end']],
  ])('%s', (text, steps) => {
    expect(splitIntoSteps(text)).toEqual(steps);
  });

  it('reads ports and services from port evidence', () => {
    expect(portsInEvidence('203.0.113.5: 3306/tcp mysql (MariaDB 10.11), 6379/tcp redis, 993/tcp ssl/imap')).toEqual([
      { port: 3306, service: 'mysql' },
      { port: 6379, service: 'redis' },
      { port: 993, service: 'imap' },
    ]);
  });
});

describe('the remediation plan in the audit view', () => {
  const premium = { isPremium: true, paymentSessionId: 'cs_test_pro', badgeEligibleUntil: '2026-04-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' };

  it('is in the report of a completed Pro Audit, with the free re-scan block', () => {
    const view = buildAuditView({ ...rangeAudit, ...premium, planType: 'pro' });
    // The plan's own items, each with the platform guides of its finding where it has some (issue 21).
    const withoutGuides = view.remediation_plan!.items.map(({ platformGuides: _guides, ...item }) => item);
    expect({ ...view.remediation_plan, items: withoutGuides }).toEqual(buildRemediationPlan(rangeAudit));
    expect(view.remediation_plan!.items.find((i) => i.findingId === 'email.spf.softfail')!.platformGuides?.access).toBe('included');
    expect(view.free_rescan).toEqual({ availableUntil: '2026-01-31T00:00:00.000Z', usedAt: null });
  });

  it('is not in a Basic Audit, nor a free report', () => {
    for (const audit of [{ ...rangeAudit, ...premium, planType: 'basic' as const }, rangeAudit]) {
      const view = buildAuditView(audit);
      expect(view.remediation_plan).toBeUndefined();
      expect(view.free_rescan).toBeUndefined();
    }
  });

  it('waits for a running re-scan to finish, while the re-scan block says it was used', () => {
    const view = buildAuditView({ ...rangeAudit, ...premium, planType: 'pro', status: 'in_progress', freeRescanUsedAt: '2026-01-10T00:00:00.000Z' });
    expect(view.remediation_plan).toBeUndefined();
    expect(view.free_rescan).toEqual({ availableUntil: '2026-01-31T00:00:00.000Z', usedAt: '2026-01-10T00:00:00.000Z' });
  });
});
