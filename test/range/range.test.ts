/**
 * The scan range is what it claims: each server, checked with plain sockets (not Rampart's
 * scanner) for the protocol facts the scanner's findings will be judged against. The global setup
 * (global-setup.ts) brings the range up; scanner assertions go in their own describe blocks,
 * through `scanRangeHost` (engine.ts), comparing to `rangeFacts` and `rangeLayout`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { rangeFacts, rangeLayout, rangeTcpPorts, rangeTlsEndpoints } from './layout.js';
import { banner, dnsAxfr, dnsQuery, httpRequest, mysqlGreeting, recordData, signatureAlgorithm, smtpSession, sshKexInit, tlsHandshake } from './probes.js';
import { assertRangeUp, tcpOpen } from './range.js';

const { nginx, apache, mail, ssh } = rangeLayout.hosts;
const resolver = rangeLayout.resolver;
const SECURITY_HEADERS = ['strict-transport-security', 'content-security-policy', 'x-frame-options', 'x-content-type-options', 'referrer-policy', 'permissions-policy'];

beforeAll(async () => {
  await assertRangeUp();
});

describe('the range listens where its layout says', () => {
  it.each(rangeTcpPorts())('$host accepts TCP connections on $address:$port ($service)', async ({ address, port }) => {
    // Act
    const open = await tcpOpen(address, port, 2_000);

    // Assess
    expect(open).toBe(true);
  });
});

describe('nginx (www.example.test)', () => {
  it('names itself and its version in the Server header, over HTTP and HTTPS', async () => {
    // Act
    const [plain, secure] = await Promise.all([
      httpRequest(nginx.address, 80, { host: 'www.example.test' }),
      httpRequest(nginx.address, 443, { host: 'www.example.test', tls: true }),
    ]);

    // Assess
    expect(plain.status).toBe(200);
    expect(plain.headers.server).toBe(rangeFacts.nginx.server);
    expect(secure.status).toBe(200);
    expect(secure.headers.server).toBe(rangeFacts.nginx.server);
  });

  it('sends none of the security headers', async () => {
    // Act
    const secure = await httpRequest(nginx.address, 443, { host: 'www.example.test', tls: true });

    // Assess
    expect(SECURITY_HEADERS.filter((name) => name in secure.headers)).toEqual([]);
  });

  it('lists /files/ with a backup.sql anyone can download', async () => {
    // Act
    const listing = await httpRequest(nginx.address, 80, { host: 'www.example.test', path: '/files/' });
    const dump = await httpRequest(nginx.address, 80, { host: 'www.example.test', path: '/files/backup.sql' });

    // Assess
    expect(listing.status).toBe(200);
    expect(listing.body).toContain('<title>Index of /files/</title>');
    expect(listing.body).toContain('<a href="backup.sql">backup.sql</a>');
    expect(dump.status).toBe(200);
    expect(dump.body).toContain('CREATE TABLE `customers`');
  });

  it('speaks TLS 1.2 only: 1.0, 1.1 and 1.3 are refused', async () => {
    // Act
    const results = Object.fromEntries(
      await Promise.all((['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'] as const).map(async (v) => [v, await tlsHandshake(nginx.address, 443, v, 'www.example.test')] as const)),
    );

    // Assess
    expect(results['TLSv1.2']).toMatchObject({ ok: true, protocol: 'TLSv1.2' });
    expect(results['TLSv1']!.ok).toBe(false);
    expect(results['TLSv1.1']!.ok).toBe(false);
    expect(results['TLSv1.3']!.ok).toBe(false);
  });

  it('serves a self-signed RSA-2048 certificate for www.example.test', async () => {
    // Act
    const result = await tlsHandshake(nginx.address, 443, 'TLSv1.2', 'www.example.test');

    // Assess
    if (!result.ok || !result.certificate) throw new Error(`no handshake: ${JSON.stringify(result)}`);
    const cert = result.certificate;
    expect(cert.issuer).toBe(cert.subject);
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(cert.publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(cert.checkHost('www.example.test')).toBe('www.example.test');
    expect(new Date(cert.validTo).getTime()).toBeGreaterThan(Date.now());
  });
});

describe('Apache + WordPress (wp.example.test)', () => {
  it('shows its full version, OS and OpenSSL in the Server header', async () => {
    // Act
    const answer = await httpRequest(apache.address, 80, { host: 'wp.example.test' });

    // Assess
    expect(answer.headers.server).toMatch(rangeFacts.apache.serverPattern);
    expect(answer.headers.server).toMatch(/OpenSSL\/3\.0\.\d+/);
  });

  it('answers TRACE with 200, echoing the request', async () => {
    // Act
    const answer = await httpRequest(apache.address, 80, { host: 'wp.example.test', method: 'TRACE', path: '/' });

    // Assess
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('message/http');
    expect(answer.body).toMatch(/^TRACE \/ HTTP\/1\.1\r\n/);
  });

  it('opens /server-status to anyone', async () => {
    // Act
    const answer = await httpRequest(apache.address, 80, { host: 'wp.example.test', path: '/server-status' });

    // Assess
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('Apache Server Status for wp.example.test');
  });

  it('signs its error pages with the server version (ServerSignature On)', async () => {
    // Act
    const answer = await httpRequest(apache.address, 80, { host: 'wp.example.test', path: '/no-such-file.txt' });

    // Assess
    expect(answer.status).toBe(404);
    expect(answer.body).toMatch(/<address>Apache\/2\.4\.\d+ \(Debian\) .*Server at wp\.example\.test Port 80<\/address>/);
  });

  it('negotiates every TLS version from 1.0 to 1.3', async () => {
    // Act
    const results = await Promise.all(rangeFacts.apache.tlsProtocols.map((v) => tlsHandshake(apache.address, 443, v, 'wp.example.test')));

    // Assess
    expect(results.map((r) => (r.ok ? r.protocol : r.error))).toEqual(rangeFacts.apache.tlsProtocols);
  });

  it('serves an expired, self-signed SHA-1 RSA-1024 certificate for another name', async () => {
    // Act
    const result = await tlsHandshake(apache.address, 443, 'TLSv1.2', 'wp.example.test');

    // Assess
    if (!result.ok || !result.certificate) throw new Error(`no handshake: ${JSON.stringify(result)}`);
    const cert = result.certificate;
    const planted = rangeFacts.apache.certificate;
    expect(new Date(cert.validTo).toISOString().slice(0, 10)).toBe(planted.notAfter);
    expect(new Date(cert.validTo).getTime()).toBeLessThan(Date.now());
    expect(cert.subject).toContain(`CN=${planted.commonName}`);
    expect(cert.checkHost('wp.example.test')).toBeUndefined();
    expect(cert.issuer).toBe(cert.subject);
    expect(cert.publicKey.asymmetricKeyDetails?.modulusLength).toBe(planted.keyBits);
    expect(signatureAlgorithm(cert)).toBe(planted.signature);
  });

  it('serves WordPress 6.1.9 with its version in the generator meta and the feed, and PHP in X-Powered-By', async () => {
    // Act
    const [home, feed] = await Promise.all([
      httpRequest(apache.address, 443, { host: 'wp.example.test', tls: true }),
      httpRequest(apache.address, 80, { host: 'wp.example.test', path: '/?feed=rss2' }),
    ]);

    // Assess
    expect(home.status).toBe(200);
    expect(home.body).toContain(`<meta name="generator" content="WordPress ${rangeFacts.wordpress.version}"`);
    expect(home.headers['x-powered-by']).toMatch(rangeFacts.php.poweredByPattern);
    expect(feed.body).toContain(`<generator>https://wordpress.org/?v=${rangeFacts.wordpress.version}</generator>`);
  });

  it('lists its users to anyone through the REST API', async () => {
    // Act
    const answer = await httpRequest(apache.address, 80, { host: 'wp.example.test', path: '/?rest_route=/wp/v2/users' });

    // Assess
    expect(answer.status).toBe(200);
    const users = JSON.parse(answer.body) as { slug: string }[];
    expect(users.map((u) => u.slug).sort()).toEqual([...rangeFacts.wordpress.users]);
  });

  it('exposes MariaDB on 3306 with its version in the greeting', async () => {
    // Act
    const version = await mysqlGreeting(apache.address, 3306);

    // Assess
    expect(version).toMatch(/^(5\.5\.5-)?10\.11\.\d+-MariaDB/);
  });
});

describe('bind9 (ns1.example.test)', () => {
  it('answers version.bind', async () => {
    // Act
    const answer = await dnsQuery(resolver, 'version.bind', 'TXT', 'CH');

    // Assess
    expect(answer.answers?.map(recordData)).toEqual([expect.stringMatching(/^9\.18\.\d+/)]);
  });

  it('points every name of the zone at its range address', async () => {
    // Prepare
    const expected = Object.values(rangeLayout.hosts).flatMap((h) => h.names.map((name) => [name, h.address] as const));

    // Act
    const answers = await Promise.all(expected.map(([name]) => dnsQuery(resolver, name, 'A')));

    // Assess
    expect(answers.map((a) => a.answers?.map(recordData))).toEqual(expected.map(([, address]) => [address]));
  });

  it('publishes MX mail.example.test, SPF ~all and DMARC p=none', async () => {
    // Act
    const [mx, spf, dmarc] = await Promise.all([
      dnsQuery(resolver, 'example.test', 'MX'),
      dnsQuery(resolver, 'example.test', 'TXT'),
      dnsQuery(resolver, '_dmarc.example.test', 'TXT'),
    ]);

    // Assess
    expect(mx.answers?.map(recordData)).toEqual([{ preference: 10, exchange: 'mail.example.test' }]);
    expect(spf.answers?.map(recordData)).toEqual([rangeFacts.dns.spf]);
    expect(dmarc.answers?.map(recordData)).toEqual([rangeFacts.dns.dmarc]);
  });

  it('transfers the whole zone to anyone (AXFR over TCP)', async () => {
    // Act
    const records = await dnsAxfr(resolver, rangeLayout.zone);

    // Assess
    expect(records.length).toBe(rangeFacts.dns.axfrRecords);
    expect(records.length).toBeGreaterThanOrEqual(10);
    const names = new Set(records.map((r) => r.name));
    expect(rangeFacts.dns.names.filter((n) => !names.has(`${n}.${rangeLayout.zone}`))).toEqual([]);
    expect(records.filter((r) => r.type === 'SOA')).toHaveLength(2);
  });
});

describe('OpenSSH (vpn.example.test)', () => {
  it('announces OpenSSH 9.2p1', async () => {
    // Act
    const line = await banner(ssh.address, 22);

    // Assess
    expect(line.startsWith(rangeFacts.ssh.bannerPrefix)).toBe(true);
  });

  it('offers the legacy key exchange, cipher and MAC planted in its config', async () => {
    // Act
    const kexinit = await sshKexInit(ssh.address, 22);

    // Assess
    expect(kexinit.banner.startsWith(rangeFacts.ssh.bannerPrefix)).toBe(true);
    expect(kexinit.kex).toContain('diffie-hellman-group1-sha1');
    expect(kexinit.ciphers).toContain('3des-cbc');
    expect(kexinit.macs).toContain('hmac-md5');
  });
});

describe('postfix (mail.example.test)', () => {
  it.each([mail.ports.smtp, mail.ports.submission])('greets with 220 and its version on %i, and offers STARTTLS', async (port) => {
    // Act
    const session = await smtpSession(mail.address, port);

    // Assess
    expect(session.banner).toMatch(rangeFacts.mail.bannerPattern);
    expect(session.ehlo).toContain('STARTTLS');
  });

  it('upgrades to TLS with a self-signed certificate for mail.example.test', async () => {
    // Act
    const session = await smtpSession(mail.address, mail.ports.smtp, { starttls: true, servername: 'mail.example.test' });

    // Assess
    const cert = session.certificate;
    if (!cert) throw new Error('no certificate after STARTTLS');
    expect(session.tlsProtocol).toBe('TLSv1.3');
    expect(cert.issuer).toBe(cert.subject);
    expect(cert.checkHost('mail.example.test')).toBe('mail.example.test');
  });

  it.each(rangeTlsEndpoints.find((e) => e.host === 'mail')!.protocols)('still negotiates %s after STARTTLS (postfix defaults)', async (version) => {
    // Act
    const session = await smtpSession(mail.address, mail.ports.smtp, { starttls: true, servername: 'mail.example.test', tlsVersion: version });

    // Assess
    expect(session.tlsProtocol).toBe(version);
  });
});
