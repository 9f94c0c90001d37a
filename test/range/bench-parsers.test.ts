/**
 * The bench's readers of each tool's output, on excerpts captured from real runs on the range
 * (nmap 7.93, testssl 3.0.8, sslscan 2.0.7, whatweb 0.5.5, Rampart's CLI).
 */
import { describe, expect, it } from 'vitest';
import { parseNmapXml, parseRampartJson, parseSslscanXml, parseTestsslJson, parseWhatwebJson } from '../../bench/parsers.js';
import { computeRecall, type FirewalledRun, type FreeScanRun, renderFreeScan, summarizeFirewalled, summarizeFreeScan } from '../../bench/report.js';

const NMAP_XML = `<?xml version="1.0"?><nmaprun scanner="nmap">
<host starttime="1" endtime="2"><status state="up"/><address addr="127.0.0.3" addrtype="ipv4"/><ports><extraports state="closed" count="996"/>
<port protocol="tcp" portid="80"><state state="open" reason="syn-ack" reason_ttl="0"/><service name="http" product="Apache httpd" version="2.4.71" extrainfo="(Debian) OpenSSL/3.0.19" method="probed" conf="10"><cpe>cpe:/a:apache:http_server:2.4.71</cpe></service></port>
<port protocol="tcp" portid="443"><state state="open" reason="syn-ack" reason_ttl="0"/><service name="http" product="Apache httpd" version="2.4.71" tunnel="ssl" method="probed" conf="10"/></port>
<port protocol="tcp" portid="8080"><state state="closed" reason="conn-refused" reason_ttl="0"/><service name="http-proxy" method="table" conf="3"/></port>
<port protocol="tcp" portid="3306"><state state="open" reason="syn-ack" reason_ttl="0"/><service name="mysql" product="MySQL" version="5.5.5-10.11.19-MariaDB-0+deb12u1" method="probed" conf="10"/></port>
</ports></host></nmaprun>`;

const TESTSSL_JSON = JSON.stringify([
  { id: 'TLS1', ip: '127.0.0.3/127.0.0.3', port: '443', severity: 'LOW', finding: 'offered (deprecated)' },
  { id: 'TLS1_1', ip: '127.0.0.3/127.0.0.3', port: '443', severity: 'LOW', finding: 'offered (deprecated)' },
  { id: 'TLS1_2', ip: '127.0.0.3/127.0.0.3', port: '443', severity: 'OK', finding: 'offered' },
  { id: 'TLS1_3', ip: '127.0.0.3/127.0.0.3', port: '443', severity: 'OK', finding: 'offered with final' },
  { id: 'SSLv3', ip: '127.0.0.3/127.0.0.3', port: '443', severity: 'OK', finding: 'not offered' },
  { id: 'cert_signatureAlgorithm', ip: '127.0.0.3/127.0.0.3', port: '443', severity: 'MEDIUM', finding: 'SHA1 with RSA' },
  { id: 'cert_keySize', ip: '127.0.0.3/127.0.0.3', port: '443', severity: 'MEDIUM', finding: 'RSA 1024 bits' },
  { id: 'cert_trust', ip: '127.0.0.3/127.0.0.3', port: '443', severity: 'HIGH', finding: 'certificate does not match supplied URI' },
  { id: 'cert_chain_of_trust', ip: '127.0.0.3/127.0.0.3', port: '443', severity: 'CRITICAL', finding: 'failed (self signed).' },
  { id: 'cert_expirationStatus', ip: '127.0.0.3/127.0.0.3', port: '443', severity: 'CRITICAL', finding: 'expired' },
]);

const SSLSCAN_XML = `<?xml version="1.0" encoding="UTF-8"?>
<document title="SSLScan Results" version="2.0.7" web="http://github.com/rbsec/sslscan">
 <ssltest host="127.0.0.2" sniname="127.0.0.2" port="443">
  <protocol type="ssl" version="3" enabled="0" />
  <protocol type="tls" version="1.0" enabled="0" />
  <protocol type="tls" version="1.2" enabled="1" />
  <protocol type="tls" version="1.3" enabled="0" />
 <certificates>
  <certificate type="short">
   <signature-algorithm>sha256WithRSAEncryption</signature-algorithm>
   <pk error="false" type="RSA" bits="2048" />
   <subject><![CDATA[www.example.test]]></subject>
   <issuer><![CDATA[www.example.test]]></issuer>
   <self-signed>true</self-signed>
   <expired>false</expired>
  </certificate>
 </certificates>
 </ssltest>
</document>`;

const WHATWEB_JSON = `[
{"target":"http://127.0.0.3/","http_status":200,"plugins":{"Apache":{"version":["2.4.71"]},"Country":{"string":["RESERVED"]},"MetaGenerator":{"string":["WordPress 6.1.9"]},"PHP":{"version":["8.2.36"]},"WordPress":{"version":["6.1.9"]}}}
]
`;

const RAMPART_JSON = JSON.stringify({
  addresses: ['127.0.0.3'],
  ports: { address: '127.0.0.3', open: [{ port: 80, service: 'http', product: 'Apache', version: '2.4.71' }, { port: 443, tls: true, service: 'https', product: 'Apache', version: '2.4.71' }] },
  tls: {
    address: '127.0.0.3',
    ports: [
      {
        port: 443,
        offered: ['TLSv1.3', 'TLSv1', 'TLSv1.2', 'TLSv1.1'],
        durationMs: 170,
        certificate: { expired: true, selfSigned: true, hostnameMatch: false, keyType: 'rsa', keySize: 1024, weakSignature: 'sha1' },
      },
    ],
  },
  email: { mx: [{ address: '127.0.0.4', starttls: true, tlsVersion: 'TLSv1.3', certificate: { selfSigned: true, nameMatches: true, keyType: 'rsa', keyBits: 2048 } }] },
  findings: [{ id: 'http.disclosure.powered-by', evidence: 'X-Powered-By: PHP/8.2.36' }],
  checks: [{ name: 'email', status: 'ok', durationMs: 120 }],
});

describe('bench parsers', () => {
  it('reads open ports with product and version from nmap XML, skipping closed ones', () => {
    // Act
    const hosts = parseNmapXml(NMAP_XML);

    // Assess
    expect(hosts.get('127.0.0.3')).toEqual([
      { port: 80, service: 'http', product: 'Apache httpd', version: '2.4.71' },
      { port: 443, service: 'ssl/http', product: 'Apache httpd', version: '2.4.71' },
      { port: 3306, service: 'mysql', product: 'MySQL', version: '5.5.5-10.11.19-MariaDB-0+deb12u1' },
    ]);
  });

  it('reads protocols offered and every certificate fault from testssl JSON', () => {
    // Act
    const fact = parseTestsslJson(TESTSSL_JSON, '127.0.0.3:443');

    // Assess
    expect(fact.protocols).toEqual(['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3']);
    expect(fact.certFaults).toEqual(['expired', 'self-signed', 'name-mismatch', 'sha1-signature', 'weak-key']);
  });

  it('reads sslscan XML, and says sslscan does not judge host names', () => {
    // Act
    const fact = parseSslscanXml(SSLSCAN_XML, '127.0.0.2:443');

    // Assess
    expect(fact.protocols).toEqual(['TLSv1.2']);
    expect(fact.certFaults).toEqual(['self-signed']);
    expect(fact.faultsReported).not.toContain('name-mismatch');
  });

  it('reads whatweb plugins with their versions, leaving out the noise', () => {
    // Act
    const found = parseWhatwebJson(WHATWEB_JSON);

    // Assess
    expect(found).toEqual({ Apache: '2.4.71', MetaGenerator: 'WordPress 6.1.9', PHP: '8.2.36', WordPress: '6.1.9' });
  });

  it("reads Rampart's ports, TLS endpoints (443 and the MX's STARTTLS) and disclosed software", () => {
    // Act
    const facts = parseRampartJson(RAMPART_JSON);

    // Assess
    expect(facts.ports.get('127.0.0.3')?.map((p) => p.port)).toEqual([80, 443]);
    expect(facts.tls).toEqual([
      { endpoint: '127.0.0.3:443', protocols: ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'], certFaults: ['expired', 'self-signed', 'name-mismatch', 'sha1-signature', 'weak-key'], faultsReported: expect.any(Array), ms: 170 },
      { endpoint: '127.0.0.4:25', protocols: ['TLSv1.3'], certFaults: ['self-signed'], faultsReported: expect.any(Array), ms: 120 },
    ]);
    expect(facts.software).toEqual({ Apache: '2.4.71', PHP: '8.2.36' });
  });

  it('counts recall against the planted truth, and lists only planted facts as missed by Rampart', () => {
    // Prepare
    const testssl = parseTestsslJson(TESTSSL_JSON, '127.0.0.3:443');
    const rampart = { ...testssl, protocols: ['TLSv1.2', 'TLSv1.3'], certFaults: [] };

    // Act
    const { recall, missedByRampart } = computeRecall({
      ports: [],
      tls: [{ endpoint: '127.0.0.3:443', truth: { protocols: ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'], certFaults: ['expired'] }, testssl, rampart }],
    });

    // Assess
    expect(recall).toEqual([
      { tool: 'testssl', protocols: '4/4', certFaults: '1/1' },
      { tool: 'rampart', protocols: '2/4', certFaults: '0/1' },
    ]);
    expect(missedByRampart).toEqual(['127.0.0.3:443 TLSv1 offered (testssl)', '127.0.0.3:443 TLSv1.1 offered (testssl)', '127.0.0.3:443 certificate expired (testssl)']);
  });

  it("takes each tool's median on the firewalled host, the ratio, and whether every run found exactly the open ports", () => {
    // Prepare
    const run = (n: number, tool: FirewalledRun['tool'], seconds: number, open = [22, 80, 443]): FirewalledRun => ({ run: n, tool, seconds, processSeconds: seconds, ok: true, open });
    const base = { address: '10.203.19.2', lossPercent: 2, truth: [443, 22, 80], target: 0.5, load: { before: 1, after: 1 } };
    const runs = [run(1, 'nmap', 5.2), run(1, 'rampart', 1.7), run(2, 'nmap', 11.1), run(2, 'rampart', 1.9), run(3, 'nmap', 4.8), run(3, 'rampart', 3.5)];

    // Act
    const all = summarizeFirewalled({ ...base, runs });
    const missed = summarizeFirewalled({ ...base, runs: [...runs.slice(0, 5), run(3, 'rampart', 1.6, [22, 80])] });

    // Assess
    expect(all.median).toEqual({ nmap: 5.2, rampartSweep: 1.9, rampartCheck: undefined });
    expect(all.ratio).toBeCloseTo(1.9 / 5.2, 6);
    expect(all.sameOpenPorts).toBe(true);
    expect(missed.sameOpenPorts).toBe(false);
  });

  it("takes the free scan's p50 per target and per check, today against the baseline, and judges each ratio against the 20% limit", () => {
    // Prepare
    const run = (totalMs: number, email: number): FreeScanRun => ({ totalMs, checks: { dns: 10, email } });
    const base = { today: { rev: 'abc1234' }, baseline: { rev: '654b80e' }, limit: 1.2, load: { before: 1, after: 1 }, failures: [] };

    // Act
    const within = summarizeFreeScan({ ...base, rows: [{ target: 'https://example.test', today: [run(2400, 300), run(2000, 100), run(2100, 200)], baseline: [run(2000, 90), run(1900, 80), run(1800, 70)] }] });
    const over = summarizeFreeScan({ ...base, rows: [{ target: 'https://wp.example.test', today: [run(3000, 1), run(3000, 1)], baseline: [run(2000, 1), run(2400, 1)] }] });
    const unjudged = summarizeFreeScan({ today: base.today, limit: 1.2, load: base.load, failures: [], rows: [{ target: 'https://example.test', today: [run(2000, 1)] }] });

    // Assess
    expect(within.rows[0]).toMatchObject({ today: { p50Ms: 2100 }, baseline: { p50Ms: 1900 }, checks: [{ name: 'dns', todayMs: 10, baselineMs: 10 }, { name: 'email', todayMs: 200, baselineMs: 80 }] });
    expect(within.rows[0]!.ratio).toBeCloseTo(2100 / 1900, 6);
    expect(within.met).toBe(true);
    expect(over.rows[0]!.ratio).toBeCloseTo(3000 / 2200, 6);
    expect(over.met).toBe(false);
    expect(unjudged.met).toBeUndefined();
    expect(renderFreeScan(over)).toContain('https://wp.example.test  2/2   3000          2200             1.364  NO');
  });
});
