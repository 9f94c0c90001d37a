import http from 'node:http';
import net from 'node:net';
import { loopbackServers } from '../../support/loopback-servers.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckResult } from '../../../lambdas/domain/audit.js';
import type { CheckContext, CheckDefinition } from '../../../lambdas/scanner/check.js';
import { createSoftwareCheck, softwareCheck, type SoftwareData } from '../../../lambdas/scanner/checks/software.check.js';
import { identifyService } from '../../../lambdas/scanner/checks/ports/services.js';
import { createHttpClient } from '../../../lambdas/scanner/net/http-client.js';
import type { ScanNet } from '../../../lambdas/scanner/net/net.js';
import { runCheck } from '../../../lambdas/scanner/scan.js';
import { fixtureText } from './software-support.js';

const SITE = 'shop.rampart.test';
const loopback = loopbackServers();

const listen = loopback.listen;

const PAGE = `<!doctype html><html><head><title>Shop</title></head><body><h1>Shop</h1>
<script src="/js/jquery-1.8.3.min.js"></script>
<script src="/js/bootstrap.min.js"></script>
<script src="/js/app.js"></script>
</body></html>`;

/** An old Apache (ServerTokens Prod-like "Apache/2.4.49") serving a page with jQuery 1.8.3 and Bootstrap 3.3.7, and Apache's own 404 page. */
const requests: string[] = [];
const vulnerableSite = (port: () => number): http.RequestListener => (req, res) => {
  requests.push(`${req.method} ${req.url}`);
  res.setHeader('server', 'Apache/2.4.49');
  const files: Record<string, [string, string]> = {
    '/': ['text/html; charset=UTF-8', PAGE],
    '/js/jquery-1.8.3.min.js': ['application/javascript', '/*! jQuery v1.8.3 jquery.com | jquery.org/license */\n(function(e,t){var n,r,i=typeof t'],
    '/js/bootstrap.min.js': ['application/javascript', fixtureText('bootstrap-3.3.7.min.js.head')],
    '/js/app.js': ['application/javascript', 'document.querySelector("h1").textContent = "Welcome";\n'],
  };
  const file = files[req.url ?? ''];
  if (file) {
    res.writeHead(200, { 'content-type': file[0] }).end(file[1]);
    return;
  }
  res.writeHead(404, { 'content-type': 'text/html; charset=iso-8859-1' }).end(
    `<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>404 Not Found</title>\n</head><body>\n<h1>Not Found</h1>\n<p>The requested URL was not found on this server.</p>\n<hr>\n<address>Apache/2.4.49 Server at ${SITE} Port ${port()}</address>\n</body></html>\n`,
  );
};

const site = { port: 0 };
let closedPort = 0;

beforeAll(async () => {
  site.port = await listen(http.createServer(vulnerableSite(() => site.port)));
  // A port that refuses connections: listened on once, then closed.
  const probe = net.createServer();
  closedPort = await listen(probe);
  await new Promise((resolve) => probe.close(resolve));
});

afterAll(async () => {
  await loopback.closeAll();
});

/** The port scan's answer for an SSH port, built by the port check's own banner parser from the banner Ubuntu 16.04 sends. */
function portsResult(): CheckResult {
  const banner = 'SSH-2.0-OpenSSH_7.2p2 Ubuntu-4ubuntu2.8';
  return {
    name: 'ports',
    status: 'ok',
    findings: [],
    data: { address: '127.0.0.1', open: [{ port: 22, ...identifyService(22, `${banner}\r\n`), banner, risk: 'medium' }] },
  };
}

function contextFor(url: string, results: Record<string, Promise<CheckResult | undefined>> = {}): Omit<CheckContext, 'signal'> {
  const client = createHttpClient({ pinned: new Map([[SITE, ['127.0.0.1']]]), resolve: async () => [], allowPrivateTargets: false });
  return {
    mode: 'active',
    target: { url, host: SITE },
    domain: 'rampart.test',
    addresses: ['127.0.0.1'],
    subject: { emails: [], verifiedDomains: [] },
    settings: { resolvers: [], dnsTimeoutMs: 1000, allowPrivateTargets: false, excludePorts: [2024] },
    net: { http: client } as unknown as ScanNet,
    resultOf: (name) => results[name] ?? Promise.resolve(undefined),
  };
}

const run = (check: CheckDefinition, context: Omit<CheckContext, 'signal'>) => runCheck(check.name, check.budgetMs, (signal) => check.run({ ...context, signal }));

describe('software check against a loopback server and a port scan result', () => {
  it('finds Apache 2.4.49, jQuery 1.8.3, Bootstrap 3.3.7 and OpenSSH 7.2p2 and reports their CVEs with the knowledge base\'s advice, and what is past its end of life on the scan date', async () => {
    // Prepare: the clock pinned, since end of life is judged against the scan's date.
    requests.length = 0;
    const url = `http://${SITE}:${site.port}/`;
    const check = createSoftwareCheck({ now: () => new Date('2026-11-27T10:00:00Z') });

    // Act
    const result = await run(check, contextFor(url, { ports: Promise.resolve(portsResult()) }));

    // Assess
    expect(result.status).toBe('ok');
    const data = result.data as unknown as SoftwareData;
    expect(data.technologies.map((t) => [t.name, t.version, t.confidence, t.source, t.distribution ?? null, t.knownVulnerabilities, t.findingId])).toEqual([
      ['Apache HTTP Server', '2.4.49', 'high', 'server-header', null, 61, 'cve.apache_http_server'],
      ['Bootstrap', '3.3.7', 'high', 'script-content', null, 8, 'cve.bootstrap'],
      ['jQuery', '1.8.3', 'medium', 'script-filename', null, 6, 'cve.jquery'],
      ['OpenSSH', '7.2p2', 'high', 'ssh-banner', 'Ubuntu (4ubuntu2.8)', 21, 'cve.openssh'],
    ]);
    expect(data.technologies[0]!.evidence).toEqual([`Server header on ${url}: Apache/2.4.49`, expect.stringMatching(new RegExp(`^error page of ${url}rampart-not-found-[0-9a-f]{16}: Apache/2.4.49$`))]);

    expect(result.findings.map((f) => [f.id, f.check, f.category, f.severity, f.title])).toEqual([
      ['cve.apache_http_server', 'software', 'Vulnerabilities', 'critical', 'Apache HTTP Server 2.4.49 has 61 known vulnerabilities (3 exploited in the wild)'],
      ['cve.jquery', 'software', 'Vulnerabilities', 'high', 'jQuery 1.8.3 has 6 known vulnerabilities (1 exploited in the wild)'],
      ['cve.openssh', 'software', 'Vulnerabilities', 'high', 'OpenSSH 7.2p2 may have 21 known vulnerabilities: Ubuntu (4ubuntu2.8) may have backported fixes'],
      ['cve.bootstrap', 'software', 'Vulnerabilities', 'medium', 'Bootstrap 3.3.7 has 8 known vulnerabilities'],
      // The SSH banner's Ubuntu package 7.2p2 shipped only in Ubuntu 16.04.
      ['eol.ubuntu', 'software', 'Vulnerabilities', 'medium', 'Ubuntu 16.04 reached end of life on 2021-04-02: no security fixes since'],
      ['eol.bootstrap', 'software', 'Vulnerabilities', 'low', 'Bootstrap 3 reached end of life on 2019-07-24: no security fixes since'],
      ['eol.jquery', 'software', 'Vulnerabilities', 'low', 'jQuery 1 has reached end of life: no security fixes'],
    ]);
    expect(data.endOfLifeDate).toBe('2026-11-27');
    expect(data.endOfLife.map((s) => [s.product, s.cycle, s.eol, s.ended])).toEqual([
      ['apache-http-server', '2.4', false, false],
      ['bootstrap', '3', '2019-07-24', true],
      ['jquery', '1', true, true],
      ['ubuntu', '16.04', '2021-04-02', true],
    ]);
    const byId = new Map(data.vulnerabilities.map((v) => [v.findingId, v]));
    // Each CVE's detail is on its finding (DECISIONS "Per-CVE detail"), exploited first.
    const cvesOf = (id: string) => result.findings.find((f) => f.id === id)!.cveDetails!;

    const apache = byId.get('cve.apache_http_server')!;
    expect(cvesOf('cve.apache_http_server').slice(0, 3).map((v) => [v.id, v.exploited, v.cvssScore, v.fixedIn])).toEqual([
      ['CVE-2021-41773', true, 9.8, '2.4.50'],
      ['CVE-2021-42013', true, 9.8, '2.4.51'],
      ['CVE-2024-38475', true, 9.1, '2.4.60'],
    ]);
    expect([apache.fixedVersion, apache.fixedVersionScope, apache.confidence, apache.versionConfidence]).toEqual(['2.4.68', 'all-known', 'version-match', 'high']);
    expect(result.findings[0]!.recommendation).toContain('Upgrade Apache HTTP Server to 2.4.68 or later.');

    const jquery = byId.get('cve.jquery')!;
    expect(cvesOf('cve.jquery').map((v) => [v.id, v.exploited, v.fixedIn])).toEqual([
      ['CVE-2020-11023', true, '3.5.0'],
      ['CVE-2020-7656', false, '1.9.0'],
      ['CVE-2019-11358', false, '3.4.0'],
      ['CVE-2015-9251', false, '1.12.0'],
      ['CVE-2012-6708', false, '1.9.0'],
      ['RETIRE-jquery-issue-11974', false, '2.2.0'],
    ]);
    expect([jquery.fixedVersion, jquery.versionConfidence]).toEqual(['3.5.0', 'medium']);
    expect(result.findings[1]!.description).toContain("The version was read from the script's file name");

    const bootstrap = byId.get('cve.bootstrap')!;
    expect([bootstrap.fixedVersion, bootstrap.exploited, cvesOf('cve.bootstrap')[0]!.id]).toEqual(['3.4.2', 0, 'CVE-2024-6485']);

    const openssh = byId.get('cve.openssh')!;
    expect([openssh.confidence, openssh.distribution, openssh.fixedVersion, openssh.exploited]).toEqual(['backport-possible', 'Ubuntu (4ubuntu2.8)', '10.5', 0]);
    expect(cvesOf('cve.openssh').slice(0, 2).map((v) => [v.id, v.cvssScore, v.fixedIn])).toEqual([
      ['CVE-2023-51385', 9.8, '9.6'],
      ['CVE-2023-38408', 9.8, '9.4'],
    ]);
    const sshFinding = result.findings[2]!;
    expect(sshFinding.evidence).toBe('OpenSSH 7.2p2 Ubuntu-4ubuntu2.8 (seen in SSH banner on port 22)');
    expect(sshFinding.description).toContain('The banner shows a Ubuntu (4ubuntu2.8) package.');
    expect(sshFinding.recommendation).toContain('Upgrade OpenSSH to 10.5 or later.');
    expect(sshFinding.recommendation).toContain("install the distribution's security updates");

    // Read-only GETs: the page, one random path, and only the scripts whose name gave no version.
    expect(requests.sort()).toEqual([
      'GET /',
      'GET /js/app.js',
      'GET /js/bootstrap.min.js',
      expect.stringMatching(/^GET \/rampart-not-found-[0-9a-f]{16}$/),
    ]);
    expect(data.probed.checks).toEqual({ http: 'no result', ports: 'used', email: 'no result', wordpress: 'no result' });
  });

  it('stops waiting for a slow check shortly before its budget and reports what it read', async () => {
    const check = createSoftwareCheck({ budgetMs: 1_500, now: () => new Date('2026-11-27T10:00:00Z') });
    const never = new Promise<CheckResult | undefined>(() => {});

    const result = await run(check, contextFor(`http://${SITE}:${site.port}/`, { ports: never, wordpress: never }));

    expect(result.status).toBe('ok');
    expect(result.durationMs).toBeLessThan(1_500);
    const data = result.data as unknown as SoftwareData;
    expect(data.probed.checks).toMatchObject({ ports: 'not finished in time', wordpress: 'not finished in time' });
    expect(result.findings.map((f) => f.id)).toEqual(['cve.apache_http_server', 'cve.jquery', 'cve.bootstrap', 'eol.bootstrap', 'eol.jquery']);
  });

  it('reads the port scan’s banners when the site’s page does not answer, and lists the pages as not checked (so nothing on them counts as fixed)', async () => {
    const result = await run(softwareCheck, contextFor(`http://${SITE}:${closedPort}/`, { ports: Promise.resolve(portsResult()) }));

    expect(result.status).toBe('ok');
    expect(result.findings.map((f) => f.id)).toContain('cve.openssh');
    expect(result.data?.notChecked).toEqual([
      { part: 'The site’s pages and the scripts they load', cause: 'error', reason: expect.stringMatching(/^The landing page did not load \(ECONNREFUSED/) },
    ]);
  });

  it('ends in error with the reason when the site does not answer and no other check read anything', async () => {
    const result = await run(softwareCheck, contextFor(`http://${SITE}:${closedPort}/`));

    expect(result).toMatchObject({ status: 'error', findings: [] });
    expect(result.reason).toContain('The page did not answer (ECONNREFUSED');
  });
});
