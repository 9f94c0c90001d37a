import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Audit, CheckResult, CveDetail, Finding } from '../../lambdas/domain/audit.js';
import {
  type CertificateExpiringChange,
  certificateThreshold,
  diffScans,
  type KevCatalogue,
  kevMatchesWithoutRescan,
  knownExploitedIds,
  type MonitoringChange,
  monitoredTechnologies,
} from '../../lambdas/domain/monitoring-diff.js';
import { matchVulnerabilities } from '../../lambdas/scanner/vulndb/index.js';

/** A real stored audit (the range's WordPress host), the base every scan here is planted on. */
const stored = JSON.parse(readFileSync(new URL('../fixtures/audits/range-wordpress.json', import.meta.url), 'utf8')) as Audit;

let counter = 0;
/** A copy of the stored audit with its own id, completed a minute after the one before, changed by `plant`. */
function scan(plant: (audit: Audit) => void = () => {}): Audit {
  counter += 1;
  const audit = structuredClone(stored);
  audit.id = `scan-${counter}`;
  audit.completedAt = new Date(Date.parse('2026-11-01T00:00:00.000Z') + counter * 60_000).toISOString();
  plant(audit);
  return audit;
}

const check = (audit: Audit, name: string): CheckResult => audit.checks.find((c) => c.name === name)!;
const data = (audit: Audit, name: string) => check(audit, name).data as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const withoutFinding = (audit: Audit, id: string) => {
  for (const c of audit.checks) c.findings = c.findings.filter((f) => f.id !== id);
};
const finding = (id: string, severity: Finding['severity'], title = `Title of ${id}`): Finding => ({
  id,
  check: 'http',
  title,
  severity,
  category: 'Web Security',
  description: 'Planted.',
  recommendation: 'Fix it.',
});
const addFinding = (audit: Audit, checkName: string, planted: Finding) => check(audit, checkName).findings.push(planted);
const ofType = <T extends MonitoringChange['type']>(changes: MonitoringChange[], type: T) => changes.filter((c): c is Extract<MonitoringChange, { type: T }> => c.type === type);

/** Puts one certificate on the TLS check's ports: days left and expiry as given. */
function certificateOn(audit: Audit, ports: number[], daysLeft: number | undefined, notAfter = '2026-12-20T00:00:00.000Z') {
  const tls = data(audit, 'tls');
  const template = tls.ports[0];
  tls.ports = ports.map((port) => ({ ...structuredClone(template), port, certificate: { ...template.certificate, notAfter, daysLeft, expired: (daysLeft ?? 1) <= 0 } }));
}

describe('monitoring diff: findings', () => {
  it('finds nothing between two scans that saw the same things', () => {
    expect(diffScans({ previous: scan(), current: scan() })).toEqual([]);
  });

  it('reports a new issue by id with its title, severity and category, and no observation', () => {
    const previous = scan();
    const current = scan((a) => {
      addFinding(a, 'http', finding('http.cookies.no-secure', 'high', 'Session cookie sent without Secure'));
      addFinding(a, 'http', finding('http.new-observation', 'info'));
    });

    const changes = diffScans({ previous, current });

    expect(changes).toEqual([
      {
        type: 'finding_new',
        domain: 'wp.example.test',
        dedupeKey: `wp.example.test|finding_new|http.cookies.no-secure|after:${previous.id}`,
        findingId: 'http.cookies.no-secure',
        title: 'Session cookie sent without Secure',
        severity: 'high',
        category: 'Web Security',
      },
    ]);
  });

  it('reports a fixed issue as resolved, with its last severity', () => {
    const previous = scan();
    const current = scan((a) => withoutFinding(a, 'http.trace-enabled'));

    expect(diffScans({ previous, current })).toEqual([
      {
        type: 'finding_resolved',
        domain: 'wp.example.test',
        dedupeKey: `wp.example.test|finding_resolved|http.trace-enabled|after:${previous.id}`,
        findingId: 'http.trace-enabled',
        title: 'HTTP TRACE is enabled',
        severity: 'medium',
        category: 'Web Security',
      },
    ]);
  });

  it('lists new issues worst first, then the resolved ones', () => {
    const previous = scan();
    const current = scan((a) => {
      withoutFinding(a, 'dns.ns.single');
      addFinding(a, 'http', finding('http.b-low', 'low'));
      addFinding(a, 'http', finding('http.a-critical', 'critical'));
      addFinding(a, 'http', finding('http.c-medium', 'medium'));
    });

    const changes = diffScans({ previous, current });

    expect(changes.map((c) => [c.type, 'findingId' in c ? c.findingId : ''])).toEqual([
      ['finding_new', 'http.a-critical'],
      ['finding_new', 'http.c-medium'],
      ['finding_new', 'http.b-low'],
      ['finding_resolved', 'dns.ns.single'],
    ]);
  });

  it('treats an observation that became an issue as new, and an issue that became an observation as resolved', () => {
    const previous = scan();
    const current = scan((a) => {
      check(a, 'exposure').findings.find((f) => f.id === 'exposure.security-txt-missing')!.severity = 'low';
      check(a, 'tls').findings.find((f) => f.id === 'tls.hsts.missing')!.severity = 'info';
    });

    const changes = diffScans({ previous, current });

    expect(changes.map((c) => [c.type, 'findingId' in c ? c.findingId : ''])).toEqual([
      ['finding_new', 'exposure.security-txt-missing'],
      ['finding_resolved', 'tls.hsts.missing'],
    ]);
  });

  it('does not compare the findings of a check that did not finish in either scan', () => {
    const failedBefore = scan((a) => Object.assign(check(a, 'http'), { status: 'timeout', findings: [] }));
    const complete = scan();
    const failedNow = scan((a) => Object.assign(check(a, 'http'), { status: 'error', findings: [] }));
    const missingNow = scan((a) => (a.checks = a.checks.filter((c) => c.name !== 'wordpress')));

    expect(diffScans({ previous: failedBefore, current: complete })).toEqual([]);
    expect(diffScans({ previous: complete, current: failedNow })).toEqual([]);
    expect(diffScans({ previous: complete, current: missingNow })).toEqual([]);
  });

  it('leaves muted findings out of new and resolved', () => {
    const previous = scan();
    const current = scan((a) => {
      withoutFinding(a, 'http.trace-enabled');
      addFinding(a, 'http', finding('http.accepted-risk', 'medium'));
    });

    expect(diffScans({ previous, current, mutedFindingIds: ['http.trace-enabled', 'http.accepted-risk'] })).toEqual([]);
  });

  it('repeats its keys for the same two scans, and gives a finding that comes back after a fix a new key', () => {
    const before = scan();
    const broken = scan((a) => addFinding(a, 'http', finding('http.regression', 'high')));
    const fixed = scan();
    const brokenAgain = scan((a) => addFinding(a, 'http', finding('http.regression', 'high')));

    const first = diffScans({ previous: before, current: broken });
    const retried = diffScans({ previous: before, current: broken });
    const again = diffScans({ previous: fixed, current: brokenAgain });

    expect(retried.map((c) => c.dedupeKey)).toEqual(first.map((c) => c.dedupeKey));
    expect(again[0]!.dedupeKey).not.toBe(first[0]!.dedupeKey);
    expect(diffScans({ previous: broken, current: brokenAgain })).toEqual([]);
  });
});

describe('monitoring diff: a rescan that ran passive (DECISIONS "Scan modes": past the per-target active limit)', () => {
  /** What a passive rescan of the same site stores: ports and WordPress skipped, limited checks without their active findings. */
  const passive = () =>
    scan((a) => {
      for (const name of ['ports', 'wordpress']) Object.assign(check(a, name), { status: 'skipped', findings: [], data: undefined });
      withoutFinding(a, 'dns.axfr.open');
      withoutFinding(a, 'exposure.server-status');
      data(a, 'dns').notChecked = ['Zone transfer (AXFR) from the name servers'];
      data(a, 'exposure').notChecked = ['Exposed files and folders'];
      Object.assign(a, { grade: 'B', score: 89 });
    });

  it('reports nothing fixed or new for what it did not look at, and no grade change against a full scan', () => {
    const full = scan((a) => Object.assign(a, { grade: 'D', score: 62 }));
    const limited = passive();
    const fullAgain = scan((a) => Object.assign(a, { grade: 'D', score: 62 }));
    expect(diffScans({ previous: full, current: limited })).toEqual([]);
    expect(diffScans({ previous: limited, current: fullAgain })).toEqual([]);
  });

  it('still reports what it did look at: an issue fixed in a check that ran in full', () => {
    const full = scan();
    const fixed = passive();
    withoutFinding(fixed, 'http.csp.missing');
    expect(diffScans({ previous: full, current: fixed }).map((c) => [c.type, 'findingId' in c ? c.findingId : undefined])).toEqual([['finding_resolved', 'http.csp.missing']]);
  });
});

describe('monitoring diff: only the same site, seen (DECISIONS "Rescan target")', () => {
  /** The scan reached the landing page at `url` (the http check's page) after being asked for `targetUrl`. */
  const reached = (a: Audit, targetUrl: string, url: string, status = 200) => {
    a.targetUrl = targetUrl;
    Object.assign(data(a, 'http'), { url, analyzed: url.startsWith('https:') ? 'https' : 'http' });
    data(a, 'http').observatory.statusCode = status;
  };
  const types = (changes: MonitoringChange[]) => changes.map((c) => `${c.type} ${'findingId' in c ? c.findingId : ''}`.trim());

  it('resolves nothing the scan of http:// found when the rescan was asked for https:// of the http-only site, and alerts no grade', () => {
    const httpScan = scan((a) => reached(a, 'http://wp.example.test/', 'http://wp.example.test/'));
    const httpsRescan = scan((a) => {
      reached(a, 'https://wp.example.test/', 'http://wp.example.test/');
      for (const id of ['cve.wordpress', 'http.csp.missing', 'tls.protocol.tls10', 'exposure.server-status', 'wordpress.xmlrpc-enabled']) withoutFinding(a, id);
      Object.assign(a, { grade: 'B', score: 85 });
    });
    expect(diffScans({ previous: httpScan, current: httpsRescan })).toEqual([]);
  });

  it('still compares the checks that do not read the pages across the two sites (ports, DNS, email)', () => {
    const httpScan = scan((a) => reached(a, 'http://wp.example.test/', 'http://wp.example.test/'));
    const httpsRescan = scan((a) => {
      reached(a, 'https://wp.example.test/', 'https://wp.example.test/');
      withoutFinding(a, 'ports.database.exposed');
      withoutFinding(a, 'cve.wordpress');
    });
    expect(types(diffScans({ previous: httpScan, current: httpsRescan }))).toEqual(['finding_resolved ports.database.exposed']);
  });

  it('resolves nothing at all, alerts no grade, after a rescan whose landing page did not load', () => {
    const seen = scan((a) => Object.assign(a, { grade: 'F', score: 30 }));
    const down = scan((a) => {
      reached(a, 'https://wp.example.test/', 'https://wp.example.test/', 503);
      for (const c of a.checks) if (c.name !== 'http') c.findings = [];
      Object.assign(a, { grade: 'B', score: 88 });
    });
    expect(diffScans({ previous: seen, current: down })).toEqual([]);
  });

  it('reports nothing new against a previous scan that did not load the landing page, and compares again once both did', () => {
    const down = scan((a) => {
      reached(a, 'https://wp.example.test/', 'https://wp.example.test/', 502);
      data(a, 'ports').open = [];
    });
    const back = scan((a) => withoutFinding(a, 'http.csp.missing'));
    const again = scan();
    expect(data(back, 'ports').open.length).toBeGreaterThan(0);
    expect(diffScans({ previous: down, current: back })).toEqual([]);
    expect(types(diffScans({ previous: back, current: again }))).toEqual(['finding_new http.csp.missing']);
  });
});

describe('monitoring diff: grade', () => {
  it('reports a lower grade as down with both scores', () => {
    const previous = scan((a) => Object.assign(a, { grade: 'B', score: 84 }));
    const current = scan((a) => Object.assign(a, { grade: 'C', score: 72 }));

    expect(ofType(diffScans({ previous, current }), 'grade_changed')).toEqual([
      { type: 'grade_changed', domain: 'wp.example.test', dedupeKey: `wp.example.test|grade_changed|B>C|after:${previous.id}`, from: 'B', to: 'C', direction: 'down', fromScore: 84, toScore: 72 },
    ]);
  });

  it('reports a better grade as up, and nothing when the letter stays or is unknown', () => {
    const grade = (g: Audit['grade'], score?: number) => scan((a) => Object.assign(a, { grade: g, score }));

    expect(ofType(diffScans({ previous: grade('F', 40), current: grade('A', 95) }), 'grade_changed')[0]?.direction).toBe('up');
    expect(diffScans({ previous: grade('B', 89), current: grade('B', 80) })).toEqual([]);
    expect(diffScans({ previous: grade(undefined), current: grade('C', 70) })).toEqual([]);
  });
});

describe('monitoring diff: certificate expiry', () => {
  it.each([
    [31, 30, false],
    [30, 30, true],
    [15, 14, false],
    [14, 14, true],
    [7, 7, true],
    [0, 7, true],
    [-5, 7, true],
  ])('puts %i days left in the %i-day threshold (only when ≤ it: %s)', (days, threshold, inside) => {
    expect(certificateThreshold(days) === threshold).toBe(inside);
  });

  it.each([
    ['40 → 29 days', 40, 29, 30],
    ['20 → 13 days', 20, 13, 14],
    ['10 → 6 days', 10, 6, 7],
    ['35 → 5 days (only the tightest)', 35, 5, 7],
  ])('alerts once a threshold is newly crossed: %s', (_case, before, after, threshold) => {
    const previous = scan((a) => certificateOn(a, [443], before));
    const current = scan((a) => certificateOn(a, [443], after));

    expect(ofType(diffScans({ previous, current }), 'certificate_expiring')).toEqual([
      {
        type: 'certificate_expiring',
        domain: 'wp.example.test',
        dedupeKey: `wp.example.test|certificate_expiring|2026-12-20T00:00:00.000Z|${threshold}`,
        threshold,
        daysLeft: after,
        notAfter: '2026-12-20T00:00:00.000Z',
        subject: 'CN=old-shop.invalid, O=Old Shop',
        ports: [443],
        expired: false,
      },
    ]);
  });

  it.each([
    ['29 → 20 days (still the 30-day threshold)', 29, 20],
    ['6 → 2 days (still the 7-day threshold)', 6, 2],
    ['3 → −1 days (expiry itself is the tls.cert.expired finding)', 3, -1],
    ['60 → 45 days', 60, 45],
  ])('does not alert the same threshold twice: %s', (_case, before, after) => {
    const previous = scan((a) => certificateOn(a, [443], before));
    const current = scan((a) => certificateOn(a, [443], after));

    expect(ofType(diffScans({ previous, current }), 'certificate_expiring')).toEqual([]);
  });

  it('starts afresh with a renewed certificate, which has another expiry', () => {
    const previous = scan((a) => certificateOn(a, [443], 8, '2026-12-01T00:00:00.000Z'));
    const renewed = scan((a) => certificateOn(a, [443], 90, '2027-02-28T00:00:00.000Z'));
    const renewedLater = scan((a) => certificateOn(a, [443], 29, '2027-02-28T00:00:00.000Z'));

    expect(diffScans({ previous, current: renewed })).toEqual([]);
    expect(ofType(diffScans({ previous: renewed, current: renewedLater }), 'certificate_expiring').map((c) => c.dedupeKey)).toEqual([
      'wp.example.test|certificate_expiring|2027-02-28T00:00:00.000Z|30',
    ]);
  });

  it('alerts once per certificate, naming every port that presents it', () => {
    const previous = scan((a) => certificateOn(a, [443, 8443], 40));
    const current = scan((a) => certificateOn(a, [8443, 443], 12));

    const [change, ...rest] = ofType(diffScans({ previous, current }), 'certificate_expiring');
    expect(rest).toEqual([]);
    expect([change?.threshold, change?.ports]).toEqual([14, [443, 8443]]);
  });

  it('gives the same key when the previous reading is missing (a failed TLS check), so the alert store keeps it to one', () => {
    const seen = scan((a) => certificateOn(a, [443], 40));
    const alerted = scan((a) => certificateOn(a, [443], 25));
    const tlsFailed = scan((a) => Object.assign(check(a, 'tls'), { status: 'timeout', findings: [] }));
    const readAgain = scan((a) => certificateOn(a, [443], 24));

    const first = ofType(diffScans({ previous: seen, current: alerted }), 'certificate_expiring');
    const afterGap = ofType(diffScans({ previous: tlsFailed, current: readAgain }), 'certificate_expiring');

    expect(first.map((c) => c.dedupeKey)).toEqual(['wp.example.test|certificate_expiring|2026-12-20T00:00:00.000Z|30']);
    expect(afterGap.map((c) => c.dedupeKey)).toEqual(first.map((c) => c.dedupeKey));
  });

  it('counts the days from the scan when the stored certificate has no daysLeft', () => {
    const previous = scan((a) => certificateOn(a, [443], 40));
    const current = scan((a) => certificateOn(a, [443], undefined, new Date(Date.parse(a.completedAt!) + 10.5 * 86_400_000).toISOString()));

    const [change] = ofType(diffScans({ previous, current }), 'certificate_expiring') as CertificateExpiringChange[];
    expect([change?.daysLeft, change?.threshold]).toEqual([10, 14]);
  });
});

describe('monitoring diff: open ports', () => {
  const rdp = { port: 3389, service: 'ms-wbt-server', risk: 'high' };

  it('reports a port open now and not before, with its service and risk', () => {
    const previous = scan();
    const current = scan((a) => data(a, 'ports').open.push(rdp, { port: 2222, service: 'ssh', product: 'OpenSSH', version: '9.2p1', risk: 'low' }));

    expect(ofType(diffScans({ previous, current }), 'port_opened')).toEqual([
      { type: 'port_opened', domain: 'wp.example.test', dedupeKey: `wp.example.test|port_opened|2222|after:${previous.id}`, port: 2222, service: 'ssh', product: 'OpenSSH', version: '9.2p1', risk: 'low' },
      { type: 'port_opened', domain: 'wp.example.test', dedupeKey: `wp.example.test|port_opened|3389|after:${previous.id}`, port: 3389, service: 'ms-wbt-server', risk: 'high' },
    ]);
  });

  it('does not report a port that closed', () => {
    const previous = scan();
    const current = scan((a) => (data(a, 'ports').open = data(a, 'ports').open.filter((p: { port: number }) => p.port !== 3306)));

    expect(ofType(diffScans({ previous, current }), 'port_opened')).toEqual([]);
  });

  it('does not compare when the previous port scan failed or tried fewer ports', () => {
    const failed = scan((a) => Object.assign(check(a, 'ports'), { status: 'error', findings: [] }));
    const standard = scan();
    const deeper = scan((a) => {
      data(a, 'ports').scanned = 1000;
      data(a, 'ports').open.push(rdp);
    });

    expect(ofType(diffScans({ previous: failed, current: deeper }), 'port_opened')).toEqual([]);
    expect(ofType(diffScans({ previous: standard, current: deeper }), 'port_opened')).toEqual([]);
  });

  it('compares a standard rescan with a deeper scan before it', () => {
    const deep = scan((a) => (data(a, 'ports').scanned = 1000));
    const standard = scan((a) => data(a, 'ports').open.push(rdp));

    expect(ofType(diffScans({ previous: deep, current: standard }), 'port_opened').map((c) => c.port)).toEqual([3389]);
  });
});

describe('monitoring diff: known exploited vulnerabilities', () => {
  const markExploited = (audit: Audit, cve: string) => {
    const group = data(audit, 'software').vulnerabilities.find((g: { product: string }) => g.product === 'openssl');
    Object.assign(group.vulnerabilities.find((v: { id: string }) => v.id === cve), { exploited: true, kevDateAdded: '2026-11-20', ransomware: false });
  };

  it('reports a CVE the rescan newly finds known-exploited, for its product and version', () => {
    const previous = scan();
    const current = scan((a) => markExploited(a, 'CVE-2026-45447'));

    expect(ofType(diffScans({ previous, current }), 'kev_match')).toEqual([
      {
        type: 'kev_match',
        domain: 'wp.example.test',
        dedupeKey: 'wp.example.test|kev_match|openssl|CVE-2026-45447',
        cveId: 'CVE-2026-45447',
        product: 'openssl',
        productName: 'OpenSSL',
        version: '3.0.19',
        kevDateAdded: '2026-11-20',
        ransomware: false,
        cvssScore: 8.8,
        distribution: 'Debian',
        detectedBy: 'rescan',
      },
    ]);
  });

  /** As the scanner stores a scan now: each CVE's detail on its finding (`cveDetails`), none repeated in the check's data. */
  const detailsOnFindings = (audit: Audit) => {
    const software = check(audit, 'software');
    for (const group of data(audit, 'software').vulnerabilities) {
      const owner = software.findings.find((f) => f.id === group.findingId)!;
      owner.cveDetails = group.vulnerabilities.map(({ id, cvssScore, severity, exploited, fixedIn }: CveDetail) => ({ id, cvssScore, severity, exploited, fixedIn, summary: `About ${id}.` }));
      delete group.vulnerabilities;
    }
  };

  it("reads a newly exploited CVE from the finding's cveDetails in a scan stored now, against an older scan that kept records in its data", () => {
    // Prepare
    const previous = scan();
    const current = scan((a) => {
      detailsOnFindings(a);
      const detail = check(a, 'software').findings.find((f) => f.id === 'cve.openssl')!.cveDetails!.find((c) => c.id === 'CVE-2026-45447')!;
      Object.assign(detail, { exploited: true, kevDateAdded: '2026-11-20', ransomware: true });
    });

    // Act
    const changes = ofType(diffScans({ previous, current }), 'kev_match');
    const again = ofType(diffScans({ previous: current, current: scan((a) => detailsOnFindings(a)) }), 'kev_match');

    // Assess
    expect(changes).toEqual([expect.objectContaining({ cveId: 'CVE-2026-45447', product: 'openssl', version: '3.0.19', kevDateAdded: '2026-11-20', ransomware: true, cvssScore: 8.8, summary: 'About CVE-2026-45447.' })]);
    expect(knownExploitedIds(current)).toEqual(new Set(['CVE-2026-45447']));
    expect(again).toEqual([]);
  });

  it('does not report a CVE that was already known-exploited at the previous scan', () => {
    const previous = scan((a) => markExploited(a, 'CVE-2026-45447'));
    const current = scan((a) => markExploited(a, 'CVE-2026-45447'));

    expect(ofType(diffScans({ previous, current }), 'kev_match')).toEqual([]);
  });

  it('reads the technologies a stored scan can match against the knowledge base', () => {
    const audit = scan((a) => {
      data(a, 'software').technologies.push(
        { name: 'Drupal', product: 'drupal', version: '9', versionScope: 'line', confidence: 'high' },
        { name: 'jQuery', product: 'jquery', version: '1.12.4', confidence: 'low' },
      );
    });

    expect(monitoredTechnologies(audit).map((t) => `${t.product}@${t.version}`)).toEqual([
      'apache_http_server@2.4.71',
      'mariadb@10.11.19',
      'openssl@3.0.19',
      'php@8.2.36',
      'postfix@3.7.11',
      'wordpress@6.1.9',
    ]);
    expect(monitoredTechnologies(audit)[0]).toEqual({ domain: 'wp.example.test', product: 'apache_http_server', productName: 'Apache HTTP Server', version: '2.4.71', distribution: 'Debian' });
  });

  it('finds newly exploited CVEs when the knowledge base updates, without a rescan, with the key a rescan would use', () => {
    const audit = scan();
    const updated: KevCatalogue = (product, version) => {
      const today = matchVulnerabilities(product, version);
      return {
        vulnerabilities: today.vulnerabilities.map((v) => (v.id === 'CVE-2026-45447' ? { ...v, exploited: true, kevDateAdded: '2026-11-20', ransomware: true } : v)),
      };
    };

    const changes = kevMatchesWithoutRescan(monitoredTechnologies(audit), knownExploitedIds(audit), updated);
    const rescanned = diffScans({ previous: scan(), current: scan((a) => markExploited(a, 'CVE-2026-45447')) });

    expect(changes.map((c) => [c.cveId, c.product, c.version, c.ransomware, c.detectedBy, c.dedupeKey])).toEqual([
      ['CVE-2026-45447', 'openssl', '3.0.19', true, 'knowledge-base', 'wp.example.test|kev_match|openssl|CVE-2026-45447'],
    ]);
    expect(ofType(rescanned, 'kev_match').map((c) => c.dedupeKey)).toEqual(changes.map((c) => c.dedupeKey));
  });

  it('finds nothing when the knowledge base has no new exploited CVE for the stored versions', () => {
    const audit = scan();

    expect(kevMatchesWithoutRescan(monitoredTechnologies(audit), knownExploitedIds(audit), matchVulnerabilities)).toEqual([]);
  });

  it('skips CVEs already known to be exploited, and matches the real knowledge base (Apache 2.4.49), newest in the catalogue first', () => {
    const apache = { domain: 'WWW.Shop.Example.com', product: 'apache_http_server', productName: 'Apache HTTP Server', version: '2.4.49' };

    const all = kevMatchesWithoutRescan([apache], [], matchVulnerabilities);
    const unknownOnly = kevMatchesWithoutRescan([apache], ['CVE-2021-41773'], matchVulnerabilities);

    expect(all.map((c) => [c.domain, c.cveId, c.kevDateAdded, c.ransomware])).toEqual([
      ['shop.example.com', 'CVE-2024-38475', '2025-05-01', false],
      ['shop.example.com', 'CVE-2021-41773', '2021-11-03', true],
      ['shop.example.com', 'CVE-2021-42013', '2021-11-03', true],
    ]);
    expect(unknownOnly.map((c) => c.cveId)).not.toContain('CVE-2021-41773');
    expect(unknownOnly).toHaveLength(all.length - 1);
  });

  it('knows which CVEs a stored scan already saw exploited', () => {
    expect([...knownExploitedIds(scan())]).toEqual([]);
    expect([...knownExploitedIds(scan((a) => markExploited(a, 'CVE-2026-34182')))]).toEqual(['CVE-2026-34182']);
  });
});

describe('monitoring diff: what it compares', () => {
  it('keys the domain by its site key, so www. and case do not matter', () => {
    const previous = scan((a) => (a.host = 'WWW.wp.example.test'));
    const current = scan((a) => addFinding(a, 'http', finding('http.new', 'low')));

    expect(diffScans({ previous, current })[0]?.domain).toBe('wp.example.test');
  });

  it('refuses scans that are not completed, of other domains, the same scan twice, or in the wrong order', () => {
    const first = scan();
    const second = scan();

    expect(() => diffScans({ previous: scan((a) => (a.status = 'failed')), current: second })).toThrow(expect.objectContaining({ code: 'monitoring_scan_not_completed' }));
    expect(() => diffScans({ previous: scan((a) => (a.host = 'other.example')), current: second })).toThrow(expect.objectContaining({ code: 'monitoring_scans_not_comparable' }));
    expect(() => diffScans({ previous: second, current: second })).toThrow(expect.objectContaining({ code: 'monitoring_scans_not_comparable' }));
    expect(() => diffScans({ previous: second, current: first })).toThrow(expect.objectContaining({ code: 'monitoring_scans_out_of_order' }));
  });

  it('lists a planted set of differences in alert order', () => {
    const previous = scan((a) => {
      Object.assign(a, { grade: 'B', score: 85 });
      certificateOn(a, [443], 20);
    });
    const current = scan((a) => {
      Object.assign(a, { grade: 'C', score: 70 });
      certificateOn(a, [443], 12);
      withoutFinding(a, 'http.trace-enabled');
      addFinding(a, 'http', finding('http.new-critical', 'critical'));
      data(a, 'ports').open.push({ port: 23, service: 'telnet', risk: 'high' });
      markExploitedIn(a);
    });

    expect(diffScans({ previous, current }).map((c) => c.type)).toEqual(['finding_new', 'finding_resolved', 'grade_changed', 'certificate_expiring', 'port_opened', 'kev_match']);
  });
});

function markExploitedIn(audit: Audit) {
  const group = data(audit, 'software').vulnerabilities.find((g: { product: string }) => g.product === 'wordpress');
  Object.assign(group.vulnerabilities[0], { exploited: true });
}
