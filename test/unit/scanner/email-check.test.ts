import { generateKeyPairSync } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { emailCheck } from '../../../lambdas/scanner/checks/email.check.js';
import { createSmtpClient } from '../../../lambdas/scanner/net/smtp-client.js';
import { checkContext, runWith } from '../../support/check-context.js';
import { selfSignedCertificate, startSmtpServer, type TestSmtpServer } from '../../support/smtp-server.js';
import { startZoneServer, type ZoneServer } from '../../support/zone-server.js';
import { exampleZone, mailZones } from '../../fixtures/dns/zones.js';

let dns: ZoneServer;
let smtp: TestSmtpServer | undefined;
let certificate: { key: string; cert: string };
const dkimKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'der', type: 'spki' }).toString('base64');

beforeAll(async () => {
  certificate = selfSignedCertificate('mail.example.test');
  dns = await startZoneServer({
    records: [
      ...exampleZone,
      ...mailZones,
      // A 2048-bit key under Google's default selector; 255-byte TXT strings, as DNS requires.
      { name: 'google._domainkey.signed.test', type: 'TXT', ttl: 300, data: `v=DKIM1; k=rsa; p=${dkimKey}`.match(/.{1,255}/g)! },
    ],
  });
});
afterAll(() => dns.close());
afterEach(async () => {
  await smtp?.close();
  smtp = undefined;
});

const ids = (findings: { id: string; severity: string }[]) => findings.map((f) => [f.id, f.severity]);
const contextFor = (domain: string, smtpPort: number, allowPrivateTargets = true) =>
  checkContext({
    dnsPort: dns.port,
    host: `www.${domain}`,
    domain,
    settings: { smtpPort, allowPrivateTargets },
    net: { smtp: createSmtpClient({ allowPrivateTargets }) },
  });

describe('email check against loopback DNS and SMTP', () => {
  it("judges the range's mail: SPF ~all, DMARC p=none, no DKIM, STARTTLS with a self-signed certificate, in well under 2 s", async () => {
    // Prepare
    smtp = await startSmtpServer({ host: '127.0.0.2', tls: certificate });
    // Act
    const result = await runWith(emailCheck, contextFor('example.test', smtp.port));
    // Assess
    expect(result.status).toBe('ok');
    expect(result.durationMs).toBeLessThan(2000);
    expect(ids(result.findings)).toEqual([
      ['email.spf.softfail', 'low'],
      ['email.dmarc.policy-none', 'medium'],
      ['email.dkim.not-found', 'info'],
      ['email.mx.certificate-untrusted', 'info'],
      ['email.mta-sts.missing', 'info'],
      ['email.tls-rpt.missing', 'info'],
    ]);
    expect(result.data).toMatchObject({
      domain: 'example.test',
      spf: { record: 'v=spf1 mx a ~all', mechanisms: ['mx', 'a', '~all'], lookups: 2, voidLookups: 0, allQualifier: '~', errors: [] },
      dmarc: { record: 'v=DMARC1; p=none; rua=mailto:dmarc@example.test', tags: { v: 'DMARC1', p: 'none', rua: 'mailto:dmarc@example.test' }, effectivePolicy: 'none' },
      dkim: { domainkey: 'NXDOMAIN', selectorsFound: [] },
      mx: [
        {
          host: 'mail.example.test',
          preference: 10,
          addresses: ['127.0.0.2'],
          address: '127.0.0.2',
          starttls: true,
          tlsVersion: 'TLSv1.3',
          tlsVersionsOffered: ['TLSv1.2', 'TLSv1.3'],
          banner: 'mail.example.test ESMTP Postfix (Debian/GNU)',
          certificate: { subject: 'CN=mail.example.test', selfSigned: true, nameMatches: true, trusted: false, expired: false, authorizationError: 'DEPTH_ZERO_SELF_SIGNED_CERT', keyType: 'ec', keyBits: 256 },
          dane: false,
        },
      ],
      nullMx: false,
      mtaSts: false,
    });
    // One conversation to read the server, then one per other TLS version (EHLO, STARTTLS and QUIT
    // only when the handshake succeeded): never MAIL, RCPT or AUTH.
    expect([...smtp.commands].sort()).toEqual(
      ['EHLO scanner.rampart.example', 'STARTTLS', 'QUIT (tls)', ...Array(3).fill('EHLO scanner.rampart.example'), ...Array(3).fill('STARTTLS'), 'QUIT (tls)'].sort(),
    );
  });

  it('rates a mail server without STARTTLS high', async () => {
    smtp = await startSmtpServer({ host: '127.0.0.3', starttls: false });
    const result = await runWith(emailCheck, contextFor('plain.test', smtp.port));
    expect(ids(result.findings)).toEqual([
      ['email.dkim.not-found', 'info'],
      ['email.mx.no-starttls', 'high'],
      ['email.mta-sts.missing', 'info'],
      ['email.tls-rpt.missing', 'info'],
    ]);
    expect(result.findings[1]?.evidence).toBe('mx.plain.test (127.0.0.3): EHLO lists no STARTTLS; banner "mail.example.test ESMTP Postfix (Debian/GNU)"');
  });

  it('reports an MX without an address and still checks the other one', async () => {
    smtp = await startSmtpServer({ host: '127.0.0.4', tls: selfSignedCertificate('backup.lost.test') });
    const result = await runWith(emailCheck, contextFor('lost.test', smtp.port));
    expect(ids(result.findings)).toEqual([
      ['email.dkim.not-found', 'info'],
      ['email.mx.no-address', 'medium'],
      ['email.mx.certificate-untrusted', 'info'],
      ['email.mta-sts.missing', 'info'],
      ['email.tls-rpt.missing', 'info'],
    ]);
    expect(result.findings[1]?.evidence).toBe('MX 10 gone.lost.test: NXDOMAIN');
    expect((result.data as { mx: { host: string; starttls?: boolean }[] }).mx.map((m) => [m.host, m.starttls])).toEqual([
      ['gone.lost.test', undefined],
      ['backup.lost.test', true],
    ]);
  });

  it('does not talk to a mail server at a private address unless private targets are allowed', async () => {
    smtp = await startSmtpServer({ host: '127.0.0.3' });
    const result = await runWith(emailCheck, contextFor('plain.test', smtp.port, false));
    expect(ids(result.findings)).toEqual([
      ['email.dkim.not-found', 'info'],
      ['email.mx.private-address', 'medium'],
      ['email.mta-sts.missing', 'info'],
      ['email.tls-rpt.missing', 'info'],
    ]);
    expect(smtp.commands).toEqual([]);
  });

  it('reports an unreachable mail server as info: port 25 is often blocked on the way out', async () => {
    const closed = await startSmtpServer({ host: '127.0.0.3' });
    const port = closed.port;
    await closed.close();
    const result = await runWith(emailCheck, contextFor('plain.test', port));
    expect(ids(result.findings)).toEqual([
      ['email.dkim.not-found', 'info'],
      ['email.mx.unreachable', 'info'],
      ['email.mta-sts.missing', 'info'],
      ['email.tls-rpt.missing', 'info'],
    ]);
    expect(result.findings[1]?.evidence).toMatch(/^mx\.plain\.test \(127\.0\.0\.3\): ECONNREFUSED/);
  });

  it('says a domain without MX has no mail servers, and skips SMTP', async () => {
    const result = await runWith(emailCheck, contextFor('nomx.test', 9));
    expect(ids(result.findings)).toEqual([
      ['email.spf.missing', 'medium'],
      ['email.dmarc.missing', 'medium'],
      ['email.dkim.not-found', 'info'],
      ['email.mx.none', 'info'],
    ]);
  });

  it('finds nothing wrong with a domain that declares it sends and receives no mail', async () => {
    const result = await runWith(emailCheck, contextFor('nomail.test', 9));
    expect(ids(result.findings)).toEqual([]);
    expect(result.data).toMatchObject({ nullMx: true, sendsNoMail: true, mx: [] });
  });

  it('finds a DKIM key under a common selector with its size, and an authorised external report address', async () => {
    smtp = await startSmtpServer({ host: '127.0.0.5', tls: selfSignedCertificate('mx.signed.test') });
    const result = await runWith(emailCheck, contextFor('signed.test', smtp.port));
    expect(ids(result.findings)).toEqual([
      ['email.mx.certificate-untrusted', 'info'],
      ['email.mta-sts.missing', 'info'],
      ['email.tls-rpt.missing', 'info'],
    ]);
    expect(result.data).toMatchObject({
      spf: { lookups: 1, allQualifier: '-' },
      dkim: { domainkey: 'NOERROR', selectorsFound: [{ selector: 'google', keyType: 'rsa', bits: 2048, revoked: false, testing: false }] },
      dmarc: { reporting: [{ kind: 'rua', uri: 'mailto:reports@vendor.test', domain: 'vendor.test', external: true, authorized: true }] },
    });
  });

  it('ends in error when no DNS server answers', async () => {
    const closed = await startZoneServer({ records: [] });
    const port = closed.port;
    await closed.close();
    const result = await runWith(emailCheck, checkContext({ dnsPort: port, host: 'www.example.test', domain: 'example.test', settings: { smtpPort: 9 } }));
    expect([result.status, result.reason]).toEqual(['error', "No DNS server answered about example.test's mail records"]);
  });
});
