/**
 * Rampart's engine on the range, through `scanRangeHost` (engine.ts): the range's bind9 is the
 * only resolver, port 2024 is excluded, private targets are allowed. Scanner findings are asserted
 * here by value against `rangeFacts` / `rangeTlsEndpoints` as the checks land.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { scanRangeHost } from './engine.js';
import { rangeFacts, rangeLayout } from './layout.js';
import { assertRangeUp } from './range.js';

beforeAll(async () => {
  await assertRangeUp();
});

describe("Rampart's engine on the range", () => {
  it('resolves a range name through the range DNS only and pins its address', async () => {
    // Act
    const report = await scanRangeHost('https://wp.example.test');

    // Assess
    expect(report.target.host).toBe('wp.example.test');
    expect(report.addresses).toEqual([rangeLayout.hosts.apache.address]);
    expect(report.checks.length).toBeGreaterThan(0);
  });
});

interface RangeCheckData {
  tls: { ports: { port: number; offered: string[]; certificate?: { commonName?: string; keySize?: number; signatureAlgorithm?: string } }[] };
  http: { server: { value: string } | null; poweredBy: { value: string }[]; trace: { enabled: boolean } | null; observatory: { grade: string } };
  ports: { open: { port: number; service: string; product?: string; version?: string; tls?: boolean }[]; firewall: string };
  dns: { axfr: { allowed: boolean; names: string[]; recordCount: number }[] };
  email: { spf: { record: string; allQualifier: string }; dmarc: { record: string; policy: string }; mx: { host: string; starttls: boolean; tlsVersionsOffered?: string[] }[] };
  subdomains: { subdomainsFound: number; activeSubdomains: number; list: { name: string }[] };
}

describe('what the engine finds on the range, by value', () => {
  let wp: Awaited<ReturnType<typeof scanRangeHost>>;
  let www: Awaited<ReturnType<typeof scanRangeHost>>;
  let vpn: Awaited<ReturnType<typeof scanRangeHost>>;
  const data = <K extends keyof RangeCheckData>(report: typeof wp, name: K) => report.checks.find((c) => c.name === name)?.data as unknown as RangeCheckData[K];
  const ids = (report: typeof wp) => report.findings.map((f) => f.id);

  beforeAll(async () => {
    [wp, www, vpn] = await Promise.all([scanRangeHost('https://wp.example.test'), scanRangeHost('https://www.example.test'), scanRangeHost('http://vpn.example.test')]);
  });

  it('runs every check to the end, well inside the deadline', () => {
    for (const report of [wp, www]) {
      expect(report.checks.filter((c) => c.status !== 'ok').map((c) => `${c.name}: ${c.status} ${c.reason}`)).toEqual([]);
      expect(report.durationMs).toBeLessThan(15_000);
    }
    // The SSH host serves no web site: the web checks say so instead of passing it.
    expect(vpn.checks.filter((c) => c.status !== 'ok').map((c) => [c.name, c.status])).toEqual([
      ['tls', 'error'], ['http', 'error'], ['wordpress', 'error'], ['exposure', 'error'],
    ]);
  });

  it("reads Apache's TLS: every protocol 1.0–1.3 offered, and each fault of its expired SHA-1 RSA-1024 certificate", () => {
    const port443 = data(wp, 'tls').ports.find((p) => p.port === 443)!;
    expect(port443.offered).toEqual([...rangeFacts.apache.tlsProtocols]);
    expect(port443.certificate).toMatchObject({ commonName: rangeFacts.apache.certificate.commonName, keySize: 1024, signatureAlgorithm: 'sha1WithRSAEncryption' });
    expect(ids(wp)).toEqual(
      expect.arrayContaining([
        'tls.protocol.tls10', 'tls.protocol.tls11', 'tls.cert.expired', 'tls.cert.self-signed', 'tls.cert.hostname-mismatch',
        'tls.cert.weak-key', 'tls.cert.weak-signature', 'tls.cipher.weak-dh', 'tls.hsts.missing', 'tls.redirect.no-https-redirect',
      ]),
    );
  });

  it("reads nginx's TLS: TLS 1.2 only, self-signed, no HSTS", () => {
    expect(data(www, 'tls').ports.find((p) => p.port === 443)!.offered).toEqual([...rangeFacts.nginx.tlsProtocols]);
    expect(ids(www)).toEqual(expect.arrayContaining(['tls.cert.self-signed', 'tls.hsts.missing']));
    expect(ids(www)).not.toContain('tls.protocol.tls10');
  });

  it('finds each open port with its product and version, and no firewall', () => {
    const open = (report: typeof wp) => data(report, 'ports').open.map(({ port, product, version }) => [port, product, version]);
    expect(open(wp)).toEqual([
      [80, 'Apache', expect.stringMatching(/^2\.4\.\d+$/)],
      [443, 'Apache', expect.stringMatching(/^2\.4\.\d+$/)],
      [3306, 'MariaDB', expect.stringMatching(/^10\.11\.\d+$/)],
    ]);
    expect(open(www)).toEqual([[80, 'nginx', '1.22.1'], [443, 'nginx', '1.22.1']]);
    expect(open(vpn)).toEqual([[22, 'OpenSSH', '9.2p1']]);
    expect(ids(wp)).toEqual(expect.arrayContaining(['ports.database.exposed', 'ports.firewall.none']));
    expect(data(wp, 'ports').firewall).toBe('none');
  });

  it('leaks the zone through open AXFR and says which names', () => {
    const transfer = data(wp, 'dns').axfr.find((a) => a.allowed)!;
    expect(transfer.recordCount).toBe(rangeFacts.dns.axfrRecords - 1); // the closing SOA is not counted twice
    expect(transfer.names).toEqual(expect.arrayContaining(rangeFacts.dns.names.map((n) => `${n}.${rangeLayout.zone}`)));
    expect(ids(wp)).toContain('dns.axfr.open');
  });

  it('judges SPF ~all and DMARC p=none, and finds STARTTLS on the MX', () => {
    const email = data(wp, 'email');
    expect(email.spf).toMatchObject({ record: rangeFacts.dns.spf, allQualifier: '~' });
    expect(email.dmarc).toMatchObject({ record: rangeFacts.dns.dmarc, policy: 'none' });
    expect(email.mx).toEqual([expect.objectContaining({ host: 'mail.example.test', starttls: true, tlsVersionsOffered: ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'] })]);
    expect(ids(wp)).toEqual(expect.arrayContaining(['email.spf.softfail', 'email.dmarc.policy-none', 'email.mx.tls-legacy-accepted']));
  });

  it('maps the subdomains and counts those that answer', () => {
    const subdomains = data(wp, 'subdomains');
    expect(subdomains.list.map((s) => s.name)).toEqual(expect.arrayContaining(['www.example.test', 'dev.example.test', 'staging.example.test', 'vpn.example.test']));
    expect(subdomains.activeSubdomains).toBeGreaterThanOrEqual(5);
  });

  it('reads the missing headers, the version disclosure and TRACE', () => {
    const apache = data(wp, 'http');
    expect(apache.server?.value).toMatch(rangeFacts.apache.serverPattern);
    expect(apache.poweredBy.map((p) => p.value)).toEqual([expect.stringMatching(rangeFacts.php.poweredByPattern)]);
    expect(apache.trace?.enabled).toBe(true);
    expect(ids(wp)).toEqual(expect.arrayContaining(['http.trace-enabled', 'http.disclosure.server-version', 'http.disclosure.powered-by', 'http.csp.missing', 'http.xfo.missing']));
    expect(data(www, 'http').server?.value).toBe(rangeFacts.nginx.server);
    expect(data(www, 'http').observatory.grade).toBe('F');
  });
});

describe('what runs there: WordPress and exposed files on the range', () => {
  let wp: Awaited<ReturnType<typeof scanRangeHost>>;
  let www: Awaited<ReturnType<typeof scanRangeHost>>;
  beforeAll(async () => {
    [wp, www] = await Promise.all([scanRangeHost('https://wp.example.test'), scanRangeHost('https://www.example.test')]);
  });
  const dataOf = (report: typeof wp, name: string) => report.checks.find((c) => c.name === name)?.data as Record<string, unknown>;

  it('finds WordPress 6.1.9 and the users its REST API gives away', () => {
    const wordpress = dataOf(wp, 'wordpress') as { detected: boolean; version: string; versionConfidence: string; users: { slug: string }[] };
    expect(wordpress).toMatchObject({ detected: true, version: rangeFacts.wordpress.version, versionConfidence: 'high' });
    expect(wordpress.users.map((u) => u.slug).sort()).toEqual([...rangeFacts.wordpress.users].sort());
    expect(wp.findings.map((f) => f.id)).toEqual(expect.arrayContaining(['wordpress.user-enumeration', 'wordpress.xmlrpc-enabled', 'wordpress.version-disclosed']));
  });

  it("finds Apache's open /server-status and nginx's listing of backup.sql", () => {
    expect(wp.findings.map((f) => f.id)).toContain('exposure.server-status');
    const listing = www.findings.find((f) => f.id === 'exposure.directory-listing-sensitive');
    expect(listing?.evidence).toContain('/files/');
    expect(listing?.evidence).toContain('backup.sql');
    expect(www.findings.find((f) => f.id === 'exposure.sql-dump')?.severity).toBe('critical');
  });
});

describe('what runs there: software versions and their CVEs on the range', () => {
  let wp: Awaited<ReturnType<typeof scanRangeHost>>;
  let www: Awaited<ReturnType<typeof scanRangeHost>>;
  let vpn: Awaited<ReturnType<typeof scanRangeHost>>;
  beforeAll(async () => {
    [wp, www, vpn] = await Promise.all([scanRangeHost('https://wp.example.test'), scanRangeHost('https://www.example.test'), scanRangeHost('http://vpn.example.test')]);
  });
  const technologies = (report: typeof wp) =>
    ((report.checks.find((c) => c.name === 'software')?.data as { technologies: { name: string; version?: string }[] }).technologies ?? []).map((t) => [t.name, t.version]);

  it('names each product with its version: nginx, Apache, PHP, WordPress, OpenSSH, MariaDB', () => {
    expect(technologies(www)).toEqual(expect.arrayContaining([['nginx', '1.22.1']]));
    expect(technologies(wp)).toEqual(
      expect.arrayContaining([
        ['Apache HTTP Server', expect.stringMatching(/^2\.4\.\d+$/)],
        ['PHP', expect.stringMatching(/^8\.2\.\d+$/)],
        ['WordPress', rangeFacts.wordpress.version],
        ['MariaDB', expect.stringMatching(/^10\.11\.\d+$/)],
      ]),
    );
    expect(technologies(vpn)).toEqual(expect.arrayContaining([['OpenSSH', '9.2p1']]));
  });

  it('matches versions to CVEs, KEV first, with the backport caveat where the banner names a distribution', () => {
    const nginx = www.findings.find((f) => f.id === 'cve.nginx')!;
    expect(nginx).toMatchObject({ category: 'Vulnerabilities', severity: 'critical' });
    expect(nginx.cves?.[0]).toBe('CVE-2023-44487');
    const openssh = vpn.findings.find((f) => f.id === 'cve.openssh')!;
    expect(openssh.title).toMatch(/may have \d+ known vulnerabilities/);
    expect(`${openssh.title} ${openssh.description}`).toMatch(/Debian .*backported/);
  });
});
