import { createHash, X509Certificate } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EHLO_NAME, emailCheck } from '../../../lambdas/scanner/checks/email.check.js';
import { probeEmail } from '../../../lambdas/scanner/checks/email/email.probe.js';
import { DKIM_SELECTORS } from '../../../lambdas/scanner/checks/email/dkim.js';
import { createDnsClient } from '../../../lambdas/scanner/net/dns-client.js';
import { createHttpClient, type HttpClient } from '../../../lambdas/scanner/net/http-client.js';
import { createSmtpClient } from '../../../lambdas/scanner/net/smtp-client.js';
import { resolveName } from '../../../lambdas/scanner/checks/dns/lookup.js';
import { certificateChain } from '../../support/certificate-chain.js';
import { signZone } from '../../support/dnssec-signer.js';
import { checkContext, runWith } from '../../support/check-context.js';
import { startSmtpServer, type TestSmtpServer } from '../../support/smtp-server.js';
import { startZoneServer, type ZoneRecord, type ZoneServer } from '../../support/zone-server.js';

// The mail domain of this test: MX mail.sts.test (TLSA 2 1 1 on the issuing CA: matches),
// mail2.sts.test (a stale 3 1 1: does not), both in the zone sts.test, signed at run time (its key
// the trust anchor: the TLSA records validate), and mail3.relay.test
// (TLSA in an unsigned zone), all served by one loopback SMTP server; an enforced
// MTA-STS policy whose mx does not cover them, served over HTTPS by a loopback server; TLS-RPT and
// BIMI records.
const MX_ADDRESS = '127.0.0.6';
const POLICY_ADDRESS = '127.0.0.7';
const POLICY = 'version: STSv1\r\nmode: enforce\r\nmx: mx.sts.test\r\nmax_age: 604800\r\n';

let dns: ZoneServer;
let smtp: TestSmtpServer;
let policyServer: Server;
let policyPort: number;
const policyRequests: { host?: string; url?: string }[] = [];
let trust: string;
let stsAnchor: string;

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const spki = (pem: string) => new X509Certificate(pem).publicKey.export({ type: 'spki', format: 'der' });
const soa: ZoneRecord = { name: 'sts.test', type: 'SOA', ttl: 3600, data: { mname: 'ns1.sts.test', rname: 'hostmaster.sts.test', serial: 1, refresh: 3600, retry: 600, expire: 604800, minimum: 300 } };

beforeAll(async () => {
  const mail = certificateChain('mail.sts.test');
  const policyHost = certificateChain('mta-sts.sts.test');
  trust = policyHost.ca;
  smtp = await startSmtpServer({ host: MX_ADDRESS, tls: { key: mail.key, cert: mail.cert + mail.ca } });
  policyServer = createServer({ key: policyHost.key, cert: policyHost.cert }, (request, response) => {
    policyRequests.push({ host: request.headers.host, url: request.url });
    if (request.url !== '/.well-known/mta-sts.txt') return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/plain' }).end(POLICY);
  });
  await new Promise<void>((resolve) => policyServer.listen(0, POLICY_ADDRESS, () => resolve()));
  policyPort = (policyServer.address() as { port: number }).port;
  const sts = signZone('sts.test', [
    soa,
    { name: 'sts.test', type: 'TXT', ttl: 300, data: 'v=spf1 mx -all' },
      { name: '_dmarc.sts.test', type: 'TXT', ttl: 300, data: 'v=DMARC1; p=reject; rua=mailto:dmarc@sts.test' },
      { name: 'sts.test', type: 'MX', ttl: 300, data: { preference: 10, exchange: 'mail.sts.test' } },
      { name: 'sts.test', type: 'MX', ttl: 300, data: { preference: 20, exchange: 'mail2.sts.test' } },
      { name: 'sts.test', type: 'MX', ttl: 300, data: { preference: 30, exchange: 'mail3.relay.test' } },
      { name: 'mail.sts.test', type: 'A', ttl: 300, data: MX_ADDRESS },
      { name: 'mail2.sts.test', type: 'A', ttl: 300, data: MX_ADDRESS },
      { name: '_25._tcp.mail.sts.test', type: 'TLSA', ttl: 300, data: { usage: 2, selector: 1, matchingType: 1, certificate: Buffer.from(sha256(spki(mail.ca)), 'hex') } },
      { name: '_25._tcp.mail2.sts.test', type: 'TLSA', ttl: 300, data: { usage: 3, selector: 1, matchingType: 1, certificate: Buffer.alloc(32, 0xab) } },
      { name: '_mta-sts.sts.test', type: 'TXT', ttl: 300, data: 'v=STSv1; id=20261127T0900' },
      { name: 'mta-sts.sts.test', type: 'A', ttl: 300, data: POLICY_ADDRESS },
      { name: '_smtp._tls.sts.test', type: 'TXT', ttl: 300, data: 'v=TLSRPTv1; rua=mailto:tls-reports@sts.test' },
      { name: 'default._bimi.sts.test', type: 'TXT', ttl: 300, data: 'v=BIMI1; l=http://sts.test/logo.png; a=https://sts.test/bimi/vmc.pem' },
  ]);
  stsAnchor = sts.trustAnchor;
  dns = await startZoneServer({
    records: [
      { ...soa, name: 'relay.test' },
      { name: 'mail3.relay.test', type: 'A', ttl: 300, data: MX_ADDRESS },
      { name: '_25._tcp.mail3.relay.test', type: 'TLSA', ttl: 300, data: { usage: 3, selector: 1, matchingType: 1, certificate: Buffer.alloc(32, 0xcd) } },
    ],
    // sts.test signed for real, RRSIGs with DO as its own server gives them; relay.test unsigned.
    dnssecZones: sts.records,
  });
});
afterAll(async () => {
  await smtp.close();
  await new Promise<void>((resolve) => policyServer.close(() => resolve()));
  await dns.close();
});

/**
 * The scanner's guarded HTTP client, resolving through the test's zone server and trusting the
 * test CA; the policy URL gets the loopback server's port (senders always use 443).
 */
function policyClient(): HttpClient {
  const resolver = createDnsClient({ resolvers: [{ host: '127.0.0.1', port: dns.port }], timeoutMs: 400 });
  const client = createHttpClient({ pinned: new Map(), resolve: async (host) => (await resolveName(resolver, host)).addresses, allowPrivateTargets: true, ca: [trust] });
  return { request: (url, options) => client.request(url.replace('https://mta-sts.sts.test/', `https://mta-sts.sts.test:${policyPort}/`), options) };
}

describe('email check: MTA-STS, TLS-RPT, DANE and BIMI against loopback DNS, HTTPS and SMTP', () => {
  it('fetches the policy, finds the MX outside it and its certificate rejected, matches DANE-TA on one MX and not the other, calls unsigned TLSA records ignored, and reads TLS-RPT and BIMI', async () => {
    // Prepare
    const context = checkContext({
      dnsPort: dns.port,
      host: 'www.sts.test',
      domain: 'sts.test',
      settings: { smtpPort: smtp.port, allowPrivateTargets: true, dnssecTrustAnchors: [stsAnchor] },
      net: { smtp: createSmtpClient({ allowPrivateTargets: true }), http: policyClient() },
      mode: 'passive',
    });
    // Act
    const result = await runWith(emailCheck, context);
    // Assess
    expect(result.status).toBe('ok');
    const transport = result.findings.filter((f) => /^email\.(mta-sts|tls-rpt|dane|bimi)\./.test(f.id));
    expect(transport.map((f) => [f.id, f.severity, f.evidence])).toEqual([
      ['email.mta-sts.mx-not-covered', 'high', 'policy mx: mx.sts.test; not covered: mail.sts.test, mail2.sts.test, mail3.relay.test'],
      [
        'email.mta-sts.mx-certificate-rejected',
        'high',
        'mail.sts.test: untrusted (SELF_SIGNED_CERT_IN_CHAIN); mail2.sts.test: untrusted (SELF_SIGNED_CERT_IN_CHAIN), does not name the host; mail3.relay.test: untrusted (SELF_SIGNED_CERT_IN_CHAIN), does not name the host',
      ],
      ['email.dane.unsigned', 'medium', '_25._tcp.mail3.relay.test: 1 TLSA record, no RRSIG'],
      ['email.dane.mismatch', 'high', `_25._tcp.mail2.sts.test: 3 1 1 abababababababab…: none matches the presented certificate chain`],
      [
        'email.bimi.invalid',
        'low',
        'default._bimi.sts.test: "v=BIMI1; l=http://sts.test/logo.png; a=https://sts.test/bimi/vmc.pem": l=http://sts.test/logo.png is not an https: URL (the logo must be an SVG Tiny PS file over HTTPS)',
      ],
    ]);
    expect(result.data).toMatchObject({
      mtaSts: true,
      mtaStsPolicy: { records: ['v=STSv1; id=20261127T0900'], id: '20261127T0900', status: 200, certificateTrusted: true, mode: 'enforce', maxAge: 604800, mx: ['mx.sts.test'], errors: [] },
      tlsRpt: { record: 'v=TLSRPTv1; rua=mailto:tls-reports@sts.test', rua: ['mailto:tls-reports@sts.test'], errors: [] },
      bimi: { logo: 'http://sts.test/logo.png', authority: 'https://sts.test/bimi/vmc.pem' },
    });
    const mx = (result.data as { mx: { host: string; dane: boolean; daneResult?: string; tlsa?: unknown[]; tlsaSigned?: boolean; tlsaDnssec?: string }[] }).mx;
    expect(mx.map((m) => [m.host, m.dane, m.daneResult, m.tlsa?.length, m.tlsaSigned, m.tlsaDnssec])).toEqual([
      ['mail.sts.test', true, 'match', 1, true, 'secure'],
      ['mail2.sts.test', true, 'mismatch', 1, true, 'secure'],
      ['mail3.relay.test', true, 'mismatch', 1, false, 'insecure'],
    ]);
    // TLSA asked with DO and CD, as the dns check asks its DNSSEC questions: a validating resolver hands over bogus records too.
    expect(dns.queries.filter((q) => q.type === 'TLSA').every((q) => q.dnssec && q.checkingDisabled)).toBe(true);
    // Every DKIM selector of the knowledge base asked once, in the same run.
    const dkimQueries = dns.queries.filter((q) => q.type === 'TXT' && q.name.endsWith('._domainkey.sts.test')).map((q) => q.name.split('.')[0]);
    expect(new Set(dkimQueries)).toEqual(new Set(DKIM_SELECTORS));
    expect((result.data as { dkim: { selectorsTried: string[] } }).dkim.selectorsTried).toEqual(DKIM_SELECTORS);
    // One GET for the policy, with the name senders use, nothing else.
    expect(policyRequests).toEqual([{ host: `mta-sts.sts.test:${policyPort}`, url: '/.well-known/mta-sts.txt' }]);
  });

  it('reports a policy file that is not there (HTTP 404) as unavailable, and two TLS-RPT records as invalid', async () => {
    // Prepare: the same domain, but the policy server answers 404 for the path senders ask.
    const context = checkContext({
      dnsPort: dns.port,
      host: 'www.sts.test',
      domain: 'sts.test',
      settings: { smtpPort: smtp.port, allowPrivateTargets: true },
      net: {
        smtp: createSmtpClient({ allowPrivateTargets: true }),
        http: { request: (url, options) => policyClient().request(url.replace('/.well-known/', '/moved/'), options) },
      },
    });
    dns.add({ name: '_smtp._tls.sts.test', type: 'TXT', ttl: 300, data: 'v=TLSRPTv1; rua=tls-reports@sts.test' });
    // Act
    const result = await runWith(emailCheck, context);
    // Assess
    const transport = result.findings.filter((f) => /^email\.(mta-sts|tls-rpt)\./.test(f.id));
    expect(transport.map((f) => [f.id, f.severity, f.evidence])).toEqual([
      ['email.mta-sts.policy-unavailable', 'medium', 'https://mta-sts.sts.test/.well-known/mta-sts.txt: HTTP 404'],
      ['email.tls-rpt.invalid', 'low', '_smtp._tls.sts.test: "v=TLSRPTv1; rua=mailto:tls-reports@sts.test", "v=TLSRPTv1; rua=tls-reports@sts.test": 2 records start with v=TLSRPTv1; senders use none of them'],
    ]);
  });

  it('asks the DKIM selectors a dozen at a time and starts none after its budget, so silent name servers cost no more time', async () => {
    // Prepare: a name server that never answers under _domainkey.
    const silent = await startZoneServer({ records: [soa], silentWhen: (name) => name.endsWith('._domainkey.sts.test') });
    const started = Date.now();
    try {
      // Act
      const snapshot = await probeEmail({
        dns: createDnsClient({ resolvers: [{ host: '127.0.0.1', port: silent.port }], timeoutMs: 400 }),
        smtp: { starttls: () => Promise.reject(new Error('no SMTP in this test')) },
        http: { request: () => Promise.reject(new Error('no HTTP in this test')) },
        domain: 'sts.test',
        allowPrivateTargets: true,
        smtpPort: 25,
        smtpTimeoutMs: 1000,
        ehloName: EHLO_NAME,
        dkimBudgetMs: 200,
      });
      // Assess: the first twelve were asked (and timed out), the rest never.
      expect(snapshot.dkim.selectorsTried).toEqual(DKIM_SELECTORS.slice(0, 12));
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(new Set(silent.queries.filter((q) => q.name.endsWith('._domainkey.sts.test') && q.name !== '_domainkey.sts.test').map((q) => q.name.split('.')[0]))).toEqual(new Set(DKIM_SELECTORS.slice(0, 12)));
    } finally {
      await silent.close();
    }
  });
});
