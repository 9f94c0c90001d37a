import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dnsCheck } from '../../../lambdas/scanner/checks/dns.check.js';
import { emailCheck } from '../../../lambdas/scanner/checks/email.check.js';
import { subdomainsCheck } from '../../../lambdas/scanner/checks/subdomains.check.js';
import type { ScanSettings } from '../../../lambdas/scanner/check.js';
import { createDnsClient } from '../../../lambdas/scanner/net/dns-client.js';
import { createHttpClient } from '../../../lambdas/scanner/net/http-client.js';
import { createSmtpClient } from '../../../lambdas/scanner/net/smtp-client.js';
import type { TcpClient } from '../../../lambdas/scanner/net/tcp-client.js';
import { createResolver } from '../../../lambdas/scanner/resolver.js';
import { scan } from '../../../lambdas/scanner/scan.js';
import { selfSignedCertificate, startSmtpServer, type TestSmtpServer } from '../../support/smtp-server.js';
import { startZoneServer, type ZoneServer } from '../../support/zone-server.js';
import { exampleZone } from '../../fixtures/dns/zones.js';

let dns: ZoneServer;
let smtp: TestSmtpServer;

beforeAll(async () => {
  dns = await startZoneServer({ records: exampleZone, allowTransfer: ['example.test'] });
  smtp = await startSmtpServer({ host: '127.0.0.2', tls: selfSignedCertificate('mail.example.test') });
});
afterAll(async () => {
  await dns.close();
  await smtp.close();
});

describe('dns, email and subdomains in one scan of the range zone', () => {
  it('runs the three checks side by side, the subdomains check reusing the transfer, each well under 2 s', async () => {
    // Prepare: real DNS, SMTP and HTTP clients, all on loopback; TCP answers "closed" (no web server in this test).
    const settings: ScanSettings = { resolvers: [{ host: '127.0.0.1', port: dns.port }], dnsTimeoutMs: 500, allowPrivateTargets: true, excludePorts: [2024], smtpPort: smtp.port };
    const tcp: TcpClient = { probe: async (_address, port) => ({ port, state: 'closed' }) };
    const net = {
      dns: createDnsClient({ resolvers: settings.resolvers, timeoutMs: settings.dnsTimeoutMs }),
      smtp: createSmtpClient({ allowPrivateTargets: true }),
      http: createHttpClient({ pinned: new Map(), resolve: async () => [], allowPrivateTargets: true }),
      tcp,
      tls: { handshake: () => Promise.reject(new Error('not in this test')) },
    };
    // Act
    const report = await scan({ url: 'https://www.example.test/', host: 'www.example.test' }, settings, {
      resolver: createResolver(settings),
      net,
      checks: [subdomainsCheck, emailCheck, dnsCheck],
    });
    // Assess
    expect(report.checks.map((c) => [c.name, c.status])).toEqual([
      ['subdomains', 'ok'],
      ['email', 'ok'],
      ['dns', 'ok'],
    ]);
    for (const check of report.checks) expect(check.durationMs).toBeLessThan(2000);
    console.log(report.checks.map((c) => `${c.name} ${c.durationMs} ms`).join(", "), `scan ${report.durationMs} ms`);
    expect(report.findings.map((f) => `${f.id} ${f.severity}`)).toEqual([
      'subdomains.exposed-environment info',
      'email.spf.softfail low',
      'email.dmarc.policy-none medium',
      'email.dkim.not-found info',
      'email.mx.certificate-untrusted info',
      'email.mta-sts.missing info',
      'email.tls-rpt.missing info',
      'dns.resolve.no-ipv6 info',
      'dns.axfr.open high',
      'dns.dnssec.unsigned low',
      'dns.ns.single low',
      'dns.caa.missing info',
    ]);
    expect(report.checks[0]?.data).toMatchObject({ axfr: { from: 'dns-check', count: 8 }, subdomainsFound: 8, activeSubdomains: 0 });
    expect(dns.queries.filter((q) => q.type === 'AXFR')).toHaveLength(1);
  });
});
