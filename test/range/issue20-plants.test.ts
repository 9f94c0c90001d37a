/**
 * Issue 20's plants on the range (layout.ts `rangeMailPlants`, `rangeWebPlants`; DNSSEC is in
 * dnssec.test.ts): first what the servers serve, read with plain sockets, then what Rampart's
 * scanner finds, by value, and what each check costs on the range. The scans run one after another
 * so each check's duration is its own, not the machine's share of four scans at once.
 */
import { createHash, X509Certificate } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { emailCheck } from '../../lambdas/scanner/checks/email.check.js';
import type { ScanReport } from '../../lambdas/scanner/scan.js';
import { scanRangeHost } from './engine.js';
import { rangeLayout, rangeMailPlants, rangeWebPlants } from './layout.js';
import { dnsQuery, httpRequest, recordData, smtpSession } from './probes.js';
import { assertRangeUp } from './range.js';

const { nginx, apache, mail } = rangeLayout.hosts;
const resolver = rangeLayout.resolver;
const { mtaSts, dane, bimi } = rangeMailPlants;
const { securityTxt, wordpressPlugin: plugin, takeover } = rangeWebPlants;

/** `3 1 1` association data of a certificate: SHA-256 of its SubjectPublicKeyInfo. */
const spkiSha256 = (cert: X509Certificate) => createHash('sha256').update(cert.publicKey.export({ type: 'spki', format: 'der' })).digest('hex');

beforeAll(async () => {
  await assertRangeUp();
});

describe('the plants, as the servers serve them', () => {
  let postfixKey: string;
  beforeAll(async () => {
    const session = await smtpSession(mail.address, mail.ports.smtp, { starttls: true, servername: 'mail.example.test' });
    postfixKey = spkiSha256(session.certificate!);
  });
  const tlsaAt = async (name: string) => (await dnsQuery(resolver, name, 'TLSA')).answers?.map(recordData) as { usage: number; selector: number; matchingType: number; certificate: Buffer }[];

  it('announces MTA-STS and serves an enforce policy whose mx is another provider, from a host with a certificate of the range CA', async () => {
    const [record, host, policy] = await Promise.all([
      dnsQuery(resolver, `_mta-sts.${rangeLayout.zone}`, 'TXT'),
      dnsQuery(resolver, mtaSts.host, 'A'),
      httpRequest(nginx.address, 443, { host: mtaSts.host, tls: true, path: '/.well-known/mta-sts.txt' }),
    ]);
    expect(record.answers?.map(recordData)).toEqual([mtaSts.record]);
    expect(host.answers?.map(recordData)).toEqual([nginx.address]);
    expect([policy.status, policy.headers['content-type']]).toEqual([200, 'text/plain']);
    expect(policy.body).toBe('version: STSv1\r\nmode: enforce\r\nmx: mx.other-provider.test\r\nmax_age: 604800\r\n');
  });

  it("publishes TLSA 3 1 1 of postfix's key for mail.example.test (unsigned) and mail.signed.test, and of a retired key for mail2.signed.test", async () => {
    const [unsigned, current, retired, mx] = await Promise.all([
      tlsaAt(`_25._tcp.${dane.unsignedMx.host}`),
      tlsaAt(`_25._tcp.${dane.signedMx[0].host}`),
      tlsaAt(`_25._tcp.${dane.signedMx[1].host}`),
      dnsQuery(resolver, dane.signedZone, 'MX'),
    ]);
    const shape = (records: typeof unsigned) => records.map((r) => [r.usage, r.selector, r.matchingType, r.certificate.toString('hex')]);
    expect(shape(unsigned)).toEqual([[3, 1, 1, postfixKey]]);
    expect(shape(current)).toEqual([[3, 1, 1, postfixKey]]);
    expect(shape(retired)).toEqual([[3, 1, 1, expect.stringMatching(/^[0-9a-f]{64}$/)]]);
    expect(shape(retired)[0]![3]).not.toBe(postfixKey);
    // named rotates an RRset's order from answer to answer: compared as a set, by preference.
    const byPreference = (a: { preference: number }, b: { preference: number }) => a.preference - b.preference;
    expect((mx.answers?.map(recordData) as { preference: number }[]).sort(byPreference)).toEqual(
      dane.signedMx.map((m) => ({ preference: m.preference, exchange: m.host })).sort(byPreference),
    );
  });

  it('publishes a BIMI record, an expired security.txt on nginx, and a CNAME into Azure that does not exist', async () => {
    const [bimiRecord, file, cname, target] = await Promise.all([
      dnsQuery(resolver, bimi.name, 'TXT'),
      httpRequest(nginx.address, 443, { host: 'www.example.test', tls: true, path: securityTxt.path }),
      dnsQuery(resolver, takeover.name, 'A'),
      dnsQuery(resolver, takeover.target, 'A'),
    ]);
    expect(bimiRecord.answers?.map(recordData)).toEqual([bimi.record]);
    expect([file.status, file.body]).toEqual([200, `Contact: ${securityTxt.contact}\nExpires: ${securityTxt.expires}\n`]);
    expect(cname.answers?.map((a) => [a.type, recordData(a)])).toEqual([['CNAME', takeover.target]]);
    // dns-packet decodes the rcode; its types leave it out.
    expect((target as { rcode?: string }).rcode).toBe('NXDOMAIN');
  });

  it("has the plugin's readme.txt at the vulnerable version, and its stylesheet in the page with ?ver=", async () => {
    const [readme, page] = await Promise.all([
      httpRequest(apache.address, 80, { host: 'wp.example.test', path: `/wp-content/plugins/${plugin.slug}/readme.txt` }),
      httpRequest(apache.address, 80, { host: 'wp.example.test' }),
    ]);
    expect(readme.status).toBe(200);
    expect(readme.body).toContain(`=== ${plugin.name} ===`);
    expect(readme.body).toContain(`Stable tag: ${plugin.version}`);
    expect(page.body).toContain(`/wp-content/plugins/${plugin.slug}/${plugin.asset}?ver=${plugin.version}`);
  });
});

interface MxData {
  host: string;
  tlsa?: { usage: number; selector: number; matchingType: number; data: string }[];
  tlsaSigned?: boolean;
  tlsaDnssec?: string;
  daneResult?: string;
}
interface EmailData {
  mx: MxData[];
  mtaStsPolicy: Record<string, unknown>;
  bimi: { record?: string; logo?: string; authority?: string; errors: string[] };
}

describe("Rampart's scanner on the plants", () => {
  let www: ScanReport;
  let wp: ScanReport;
  let wpPassive: ScanReport;
  let signed: ScanReport;
  let postfixKey: string;
  const check = (report: ScanReport, name: string) => report.checks.find((c) => c.name === name)!;
  const finding = (report: ScanReport, id: string) => report.findings.find((f) => f.id === id);
  const emailOf = (report: ScanReport) => check(report, 'email').data as unknown as EmailData;

  beforeAll(async () => {
    // One at a time: each check's duration is then its own.
    www = await scanRangeHost('https://www.example.test');
    wp = await scanRangeHost('https://wp.example.test');
    wpPassive = await scanRangeHost('https://wp.example.test', { mode: 'passive' });
    signed = await scanRangeHost(`https://www.${dane.signedZone}`, { checks: [emailCheck] });
    const session = await smtpSession(mail.address, mail.ports.smtp, { starttls: true, servername: 'mail.example.test' });
    postfixKey = spkiSha256(session.certificate!);
  });

  it('fetches the MTA-STS policy through the range CA and finds the real MX outside it (enforce: high)', () => {
    expect(emailOf(www).mtaStsPolicy).toEqual({
      records: [mtaSts.record],
      id: '20261127T000000',
      url: `https://${mtaSts.host}/.well-known/mta-sts.txt`,
      status: 200,
      certificateTrusted: true,
      fetchError: undefined,
      mode: 'enforce',
      maxAge: 604800,
      mx: ['mx.other-provider.test'],
      errors: [],
    });
    expect(finding(www, 'email.mta-sts.mx-not-covered')).toMatchObject({
      severity: 'high',
      evidence: 'policy mx: mx.other-provider.test; not covered: mail.example.test',
      title: 'A mail server is missing from the MTA-STS policy: senders refuse to deliver to it',
    });
    // Postfix's certificate stays self-signed: the range CA vouches for the policy host only.
    expect(finding(www, 'email.mta-sts.mx-certificate-rejected')).toMatchObject({ severity: 'high', evidence: 'mail.example.test: untrusted (DEPTH_ZERO_SELF_SIGNED_CERT)' });
    expect(finding(www, 'email.mta-sts.policy-unavailable')).toBeUndefined();
  });

  it('leaves every other certificate of the range untrusted, the range CA given', () => {
    const trusted = (report: ScanReport) => (check(report, 'tls').data as { ports: { port: number; certificate?: { trusted?: boolean } }[] }).ports.map((p) => [p.port, p.certificate?.trusted]);
    expect(trusted(www)).toEqual([[443, false]]);
    expect(trusted(wp)).toEqual([[443, false]]);
    expect([www, wp].map((report) => report.findings.some((f) => f.id === 'tls.cert.self-signed'))).toEqual([true, true]);
    expect(finding(www, 'email.mx.certificate-untrusted')?.evidence).toBe('mail.example.test: self-signed (DEPTH_ZERO_SELF_SIGNED_CERT)');
  });

  it('checks each MX of signed.test against its TLSA records, validated from the range trust anchor: mail matches, mail2 (a retired key) does not (high)', () => {
    expect(emailOf(signed).mx.map(({ host, tlsa, tlsaDnssec, daneResult }) => ({ host, tlsa, tlsaDnssec, daneResult }))).toEqual([
      { host: 'mail.signed.test', tlsa: [{ usage: 3, selector: 1, matchingType: 1, data: postfixKey }], tlsaDnssec: 'secure', daneResult: 'match' },
      { host: 'mail2.signed.test', tlsa: [{ usage: 3, selector: 1, matchingType: 1, data: expect.not.stringMatching(postfixKey) }], tlsaDnssec: 'secure', daneResult: 'mismatch' },
    ]);
    const retired = emailOf(signed).mx[1]!.tlsa![0]!.data;
    expect(signed.findings.filter((f) => f.id.startsWith('email.dane')).map((f) => [f.id, f.severity, f.evidence])).toEqual([
      ['email.dane.mismatch', 'high', `_25._tcp.mail2.signed.test: 3 1 1 ${retired.slice(0, 16)}…: none matches the presented certificate chain`],
    ]);
  });

  it('reads the matching TLSA record of mail.example.test, and says senders ignore it: example.test is not signed', () => {
    expect(emailOf(www).mx.map(({ host, tlsa, tlsaSigned, tlsaDnssec, daneResult }) => ({ host, tlsa, tlsaSigned, tlsaDnssec, daneResult }))).toEqual([
      { host: 'mail.example.test', tlsa: [{ usage: 3, selector: 1, matchingType: 1, data: postfixKey }], tlsaSigned: false, tlsaDnssec: 'insecure', daneResult: 'match' },
    ]);
    expect(www.findings.filter((f) => f.id.startsWith('email.dane')).map((f) => [f.id, f.severity, f.evidence])).toEqual([
      ['email.dane.unsigned', 'medium', '_25._tcp.mail.example.test: 1 TLSA record, no RRSIG'],
    ]);
  });

  it('reads the BIMI record and finds its logo location malformed (http:), and DMARC not enforcing it', () => {
    expect(emailOf(www).bimi).toEqual({
      record: bimi.record,
      logo: 'http://example.test/bimi/logo.svg',
      authority: 'https://example.test/bimi/vmc.pem',
      errors: ['l=http://example.test/bimi/logo.svg is not an https: URL (the logo must be an SVG Tiny PS file over HTTPS)'],
    });
    expect(www.findings.filter((f) => f.id.startsWith('email.bimi')).map((f) => [f.id, f.severity, f.evidence])).toEqual([
      ['email.bimi.invalid', 'low', `${bimi.name}: "${bimi.record}": l=http://example.test/bimi/logo.svg is not an https: URL (the logo must be an SVG Tiny PS file over HTTPS)`],
      ['email.bimi.dmarc-not-enforced', 'low', `${bimi.name} is published; the DMARC policy is not quarantine or reject at pct=100`],
    ]);
  });

  it('finds security.txt expired since 2024-01-01 (RFC 9116), with its Contact read', () => {
    const daysAgo = -Math.floor((Date.parse(securityTxt.expires) - Date.now()) / 86_400_000);
    const url = `https://www.example.test${securityTxt.path}`;
    const data = (check(www, 'exposure').data as { securityTxt: { rfc9116: Record<string, unknown> } }).securityTxt.rfc9116;
    expect(data).toMatchObject({ url, signed: false, contacts: [securityTxt.contact], expires: { value: securityTxt.expires, valid: true, count: 1 }, expiresInDays: -daysAgo });
    expect(www.findings.filter((f) => f.id.startsWith('exposure.security-txt')).map((f) => [f.id, f.severity, f.evidence])).toEqual([
      ['exposure.security-txt.expired', 'low', `GET ${url}: Expires ${securityTxt.expires} (${daysAgo} days ago)`],
      ['exposure.security-txt.unsigned', 'info', `GET ${url}: no OpenPGP cleartext signature`],
    ]);
  });

  it("matches Duplicator 1.3.26 to its CVEs from readme.txt in an active scan, and from the page's ?ver= in a passive one, the KEV one first", () => {
    const id = `cve.wordpress-plugin.${plugin.slug}`;
    const cves = ['CVE-2020-11738', 'CVE-2022-2551', 'CVE-2023-6114', 'CVE-2022-2552', 'CVE-2024-6210', 'CVE-2023-51681'];
    const advice = "a release later than 1.5.9 (Plugins → Installed Plugins in the WordPress admin): the data does not name the first fixed release, each CVE's Wordfence record does. CVE-2020-11738 is being exploited in the wild (CISA KEV)";
    expect(wpPassive.mode).toBe('passive');
    expect(check(wpPassive, 'wordpress').status).toBe('skipped');
    expect(finding(wp, id)).toMatchObject({
      severity: 'critical',
      title: 'WordPress plugin Duplicator (duplicator) 1.3.26 has 6 known vulnerabilities (1 exploited in the wild)',
      evidence: 'duplicator 1.3.26 from the Stable tag of its readme.txt (seen in the WordPress check)',
      cves,
      recommendation: expect.stringContaining(`Update Duplicator to ${advice}`),
    });
    expect(finding(wpPassive, id)).toMatchObject({
      severity: 'critical',
      title: 'WordPress plugin duplicator 1.3.26 has 6 known vulnerabilities (1 exploited in the wild)',
      evidence: 'duplicator 1.3.26 from the ?ver= on its asset URLs (seen in asset URLs on https://wp.example.test/)',
      cves,
      recommendation: expect.stringContaining(`Update duplicator to ${advice}`),
    });
    expect(finding(wp, id)!.cveDetails?.[0]).toMatchObject({ id: plugin.kevCve, fixedIn: '1.3.28' });
    const vulnerability = (report: ScanReport) =>
      (check(report, 'software').data as { vulnerabilities: { findingId: string; version: string; fixedAfter?: string; exploited: number; versionSource: string; versionConfidence: string }[] }).vulnerabilities.find((v) => v.findingId === id);
    expect(vulnerability(wp)).toMatchObject({ version: plugin.version, fixedAfter: '1.5.9', exploited: 1, versionSource: 'readme.txt', versionConfidence: 'high' });
    expect(vulnerability(wpPassive)).toMatchObject({ version: plugin.version, fixedAfter: '1.5.9', exploited: 1, versionSource: 'asset-ver', versionConfidence: 'medium' });
  });

  it('finds old-shop.example.test by AXFR and its dangling CNAME into Microsoft Azure (rated vulnerable): takeover, high', () => {
    const subdomains = check(wp, 'subdomains').data as { list: { name: string; cname?: string; source: string[] }[] };
    expect(subdomains.list.find((s) => s.name === takeover.name)).toMatchObject({ cname: takeover.target, source: ['axfr'] });
    expect(wp.findings.filter((f) => f.id === 'subdomains.dangling-cname').map((f) => [f.severity, f.title, f.evidence])).toEqual([
      [
        'high',
        `${takeover.name} can be taken over (dangling CNAME to ${takeover.service})`,
        `${takeover.name} → ${takeover.target}: ${takeover.target} does not exist (NXDOMAIN) at ${takeover.service}. can-i-take-over-xyz rates ${takeover.service} "Vulnerable"; discussion: https://github.com/EdOverflow/can-i-take-over-xyz/issues/35`,
      ],
    ]);
  });

  it('runs every check to the end, well inside its budget; the cost of each on the range', () => {
    for (const report of [www, wp, wpPassive, signed]) {
      expect(report.checks.filter((c) => c.status !== 'ok' && c.status !== 'skipped').map((c) => `${c.name}: ${c.status} ${c.reason}`)).toEqual([]);
      console.log(`${report.mode} scan of ${report.target.host}: ${report.durationMs} ms; ${report.checks.map((c) => `${c.name} ${c.durationMs} ms`).join(', ')}`);
    }
    expect(check(www, 'email').durationMs).toBeLessThan(15_000);
  });
});
