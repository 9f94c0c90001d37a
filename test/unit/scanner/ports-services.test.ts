import { describe, expect, it } from 'vitest';
import { analyzeExposure, firewallVerdict, type PortScanSummary } from '../../../lambdas/scanner/checks/ports/exposure.js';
import { identifyService, parseProductToken } from '../../../lambdas/scanner/checks/ports/services.js';
import { portsToScan } from '../../../lambdas/scanner/checks/ports.check.js';

const mysqlGreeting = (version: string) => `\x5b\x00\x00\x00\x0a${version}\x00\x08\x00\x00\x00abcdefgh\x00`;

describe('service identification from banners', () => {
  it.each([
    [22, 'SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3\r\n', { service: 'ssh', product: 'OpenSSH', version: '9.2p1', extra: 'Debian-2+deb12u3' }],
    [2222, 'SSH-2.0-OpenSSH_7.2p2 Ubuntu-4ubuntu2.8\r\n', { service: 'ssh', product: 'OpenSSH', version: '7.2p2', extra: 'Ubuntu-4ubuntu2.8' }],
    [22, 'SSH-2.0-dropbear_2022.83\r\n', { service: 'ssh', product: 'Dropbear', version: '2022.83' }],
    [80, 'HTTP/1.1 200 OK\r\nServer: nginx/1.22.1\r\nDate: x\r\n\r\n', { service: 'http', product: 'nginx', version: '1.22.1' }],
    [8081, 'HTTP/1.1 403 Forbidden\r\nServer: Apache/2.4.71 (Debian)\r\n\r\n', { service: 'http', product: 'Apache', version: '2.4.71', extra: '(Debian)' }],
    [80, 'HTTP/1.1 200 OK\r\nServer: Microsoft-IIS/10.0\r\n\r\n', { service: 'http', product: 'Microsoft-IIS', version: '10.0' }],
    [80, 'HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n', { service: 'http' }],
    [25, '220 mail.example.test ESMTP Postfix (Debian/GNU)\r\n', { service: 'smtp', product: 'Postfix', extra: 'Debian/GNU' }],
    [25, '220 mx.example.com ESMTP Exim 4.96 Mon, 23 Nov 2026 10:00:00 +0000\r\n', { service: 'smtp', product: 'Exim', version: '4.96' }],
    [21, '220 (vsFTPd 3.0.3)\r\n', { service: 'ftp', product: 'vsFTPd', version: '3.0.3' }],
    [21, '220 ProFTPD 1.3.5 Server (Debian) [::ffff:127.0.0.1]\r\n', { service: 'ftp', product: 'ProFTPD', version: '1.3.5' }],
    [3306, mysqlGreeting('5.5.5-10.11.6-MariaDB-0+deb12u1'), { service: 'mysql', product: 'MariaDB', version: '10.11.6', extra: '0+deb12u1' }],
    [3306, mysqlGreeting('8.0.36'), { service: 'mysql', product: 'MySQL', version: '8.0.36' }],
    [5900, 'RFB 003.008\n', { service: 'vnc', product: 'VNC', version: '003.008' }],
    [23, '\xff\xfd\x18\xff\xfd\x20', { service: 'telnet' }],
    [6379, '-NOAUTH Authentication required.\r\n', { service: 'redis', product: 'Redis' }],
    [110, '+OK Dovecot (Debian) ready.\r\n', { service: 'pop3', product: 'Dovecot' }],
    [143, '* OK [CAPABILITY IMAP4rev1] Dovecot ready.\r\n', { service: 'imap', product: 'Dovecot' }],
  ])('port %i: %j', (port, banner, expected) => {
    expect(identifyService(port, banner)).toEqual(expected);
  });

  it('names a silent port by its usual service, and a silent TLS port as ssl/…', () => {
    expect(identifyService(5432, undefined)).toEqual({ service: 'postgresql' });
    expect(identifyService(31337, undefined)).toEqual({ service: 'unknown' });
    expect(identifyService(8443, 'HTTP/1.1 200 OK\r\nServer: nginx/1.22.1\r\n\r\n', true)).toEqual({ service: 'https', product: 'nginx', version: '1.22.1' });
  });

  it('splits product tokens', () => {
    expect(parseProductToken('Apache/2.4.49 (Unix) OpenSSL/1.1.1k')).toEqual({ product: 'Apache', version: '2.4.49', extra: '(Unix) OpenSSL/1.1.1k' });
    expect(parseProductToken('cloudflare')).toEqual({ product: 'cloudflare' });
  });
});

describe('port exposure', () => {
  const summary = (open: PortScanSummary['open'], closed = 95, filtered = 0): PortScanSummary => ({ address: '203.0.113.9', scanned: 100, open, closed, filtered });

  it('flags remote access and databases with their severities', () => {
    const findings = analyzeExposure(
      summary(
        [
          { port: 22, service: 'ssh', product: 'OpenSSH', version: '9.2p1' },
          { port: 23, service: 'telnet' },
          { port: 3306, service: 'mysql', product: 'MariaDB', version: '10.11.6' },
          { port: 3389, service: 'ms-wbt-server' },
          { port: 443, service: 'https' },
        ],
        0,
        95,
      ),
    );
    expect(findings.map((f) => [f.id, f.severity])).toEqual([
      ['ports.remote-access.telnet', 'high'],
      ['ports.remote-access.rdp', 'high'],
      ['ports.database.exposed', 'high'],
      ['ports.remote-access.ssh', 'info'],
    ]);
    expect(findings.find((f) => f.id === 'ports.database.exposed')?.evidence).toBe('203.0.113.9: 3306/tcp mysql (MariaDB 10.11.6)');
  });

  it('reports that no firewall filters when every unused port refuses', () => {
    const findings = analyzeExposure(summary([{ port: 443, service: 'https' }], 99, 0));
    expect(findings.map((f) => f.id)).toEqual(['ports.firewall.none']);
    expect(firewallVerdict({ closed: 99, filtered: 0 })).toBe('none');
    expect(firewallVerdict({ closed: 0, filtered: 98 })).toBe('filtering');
    expect(analyzeExposure(summary([{ port: 443, service: 'https' }], 0, 99))).toEqual([]);
  });
});

describe('ports to scan', () => {
  it("takes nmap's most frequent ports first and leaves out excluded ones", () => {
    expect(portsToScan(5)).toEqual([80, 23, 443, 21, 22]);
    expect(portsToScan(5, [23, 2024])).toEqual([80, 443, 21, 22]);
    expect(portsToScan(1000)).toHaveLength(1000);
    expect(portsToScan(1000)).not.toContain(2024);
  });
});
