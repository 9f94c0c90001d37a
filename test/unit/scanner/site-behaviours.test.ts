/**
 * Held-out truth (issue 27 item 6): whole scans of loopback sites that behave the way the internet
 * answers scanners, each stating what the report must say. The walls replay captured vendor pages
 * (test/fixtures/blocks); every site is on its own loopback address, so the port and TLS checks see
 * only it (nothing listens on its 443: none of these sites has HTTPS unless it says so).
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckResult } from '../../../lambdas/domain/audit.js';
import { parseWebTarget } from '../../../lambdas/domain/target.js';
import { defaultChecks } from '../../../lambdas/scanner/checks/index.js';
import { scan, type ScanReport } from '../../../lambdas/scanner/scan.js';
import { startZoneServer, type ZoneServer } from '../../support/zone-server.js';

interface Capture {
  status: number;
  headers: Record<string, string | string[]>;
  body: string;
}
const capture = (name: string): Capture => JSON.parse(readFileSync(new URL(`../../fixtures/blocks/${name}.json`, import.meta.url), 'utf8')) as Capture;

/** A site with every header the Observatory looks for: what a browser gets when nothing is in the way. */
const GOOD_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'self'; frame-ancestors 'none'; object-src 'none'; base-uri 'self'; form-action 'self'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};
const GOOD_PAGE = '<!doctype html><html><head><title>Harbour Bakery</title></head><body><h1>Fresh bread daily</h1></body></html>';

const send = (response: http.ServerResponse, answer: Capture) => response.writeHead(answer.status, answer.headers).end(answer.body);
const good = (response: http.ServerResponse, path: string) =>
  path === '/' ? response.writeHead(200, GOOD_HEADERS).end(GOOD_PAGE) : response.writeHead(404, GOOD_HEADERS).end('<!doctype html><title>Not found</title><p>Not found</p>');

type Behaviour = (request: http.IncomingMessage, response: http.ServerResponse, count: number) => void;

/** Each site: its name, its loopback address, and how it answers (count: requests so far, this one included). */
const SITES: Record<string, { address: string; behaviour: Behaviour }> = {
  // Cloudflare's managed challenge to every request, whoever asks.
  challenge: { address: '127.0.0.61', behaviour: (_q, r) => send(r, capture('cloudflare-managed-challenge')) },
  // Akamai's edge answers 403 Access Denied to user agents that name a bot or a scanner; browsers get the good site.
  akamai: {
    address: '127.0.0.62',
    behaviour: (q, r) => (/bot|scanner|crawl|spider/i.test(q.headers['user-agent'] ?? '') ? send(r, capture('akamai-access-denied')) : good(r, q.url ?? '/')),
  },
  // A good site that answers 429 with Retry-After 120 once it has had 6 requests (120 s: past any scan's deadline).
  ratelimit: {
    address: '127.0.0.63',
    behaviour: (q, r, count) => (count > 6 ? r.writeHead(429, { 'retry-after': '120', 'content-type': 'text/plain' }).end('Too Many Requests') : good(r, q.url ?? '/')),
  },
  // A good site without HTTPS at all (nothing on 443).
  plain: { address: '127.0.0.64', behaviour: (q, r) => good(r, q.url ?? '/') },
  // The site itself is fine; only its sensitive paths are behind a challenge (a WAF rule on /.env, /.git …).
  subpath: { address: '127.0.0.65', behaviour: (q, r) => (q.url === '/' ? good(r, '/') : send(r, capture('cloudflare-managed-challenge'))) },
  // A 503 maintenance page, no Retry-After.
  maintenance: { address: '127.0.0.66', behaviour: (_q, r) => send(r, capture('generic-503-maintenance')) },
  // Accepts the connection and never answers.
  tarpit: { address: '127.0.0.67', behaviour: () => undefined },
  // Answers, but only after 30 s: slower than the scan's deadline.
  slow: { address: '127.0.0.68', behaviour: (q, r) => void setTimeout(() => good(r, q.url ?? '/'), 30_000).unref() },
  // A geo block (451 "not available in your country"), whatever is asked.
  geo: { address: '127.0.0.69', behaviour: (_q, r) => send(r, capture('generic-451-geo')) },
  // Rate-limited once, briefly: 429 Retry-After 1 for the 7th–9th requests, then fine again. The scan waits it out once.
  brief: {
    address: '127.0.0.70',
    behaviour: (q, r, count) => (count > 6 && count <= 9 ? r.writeHead(429, { 'retry-after': '1', 'content-type': 'text/plain' }).end('Slow down') : good(r, q.url ?? '/')),
  },
};

const ports = new Map<string, number>();
const servers: http.Server[] = [];
const sockets = new Set<Socket>();
let zone: ZoneServer;
const reports = new Map<string, ScanReport>();

async function scanSite(name: string, scheme: 'http' | 'https' = 'http'): Promise<ScanReport> {
  const key = `${scheme}:${name}`;
  const known = reports.get(key);
  if (known) return known;
  const target = parseWebTarget(`${scheme}://${name}.behaviour.test:${ports.get(name)}/`)!;
  const report = await scan(
    target,
    { resolvers: [{ host: zone.host, port: zone.port }], dnsTimeoutMs: 800, allowPrivateTargets: true, excludePorts: [2024], topPorts: 20 },
    { checks: defaultChecks, mode: 'active', deadlineMs: 20_000 },
  );
  reports.set(key, report);
  return report;
}

const checkOf = (report: ScanReport, name: string): CheckResult => report.checks.find((check) => check.name === name)!;
const PAGE_CHECKS = ['http', 'software', 'wordpress', 'exposure'];

beforeAll(async () => {
  for (const [name, site] of Object.entries(SITES)) {
    let count = 0;
    const server = http.createServer((request, response) => site.behaviour(request, response, ++count));
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, site.address, resolve));
    const { port } = server.address() as AddressInfo;
    expect(port).not.toBe(2024);
    ports.set(name, port);
    servers.push(server);
  }
  zone = await startZoneServer({ records: Object.entries(SITES).map(([name, site]) => ({ name: `${name}.behaviour.test`, type: 'A' as const, ttl: 60, data: site.address })) });
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await zone?.close();
});

describe('what the report says when the internet answers the scanner with something other than the site', () => {
  it('Cloudflare challenge on every request: the page checks are "not checked — blocked by Cloudflare", nothing from the challenge page is graded', async () => {
    const report = await scanSite('challenge');

    for (const name of PAGE_CHECKS) {
      const check = checkOf(report, name);
      expect(check, name).toMatchObject({ status: 'skipped', cause: 'blocked', findings: [] });
      expect((check.data?.blocked as { vendorName: string }).vendorName).toBe('Cloudflare');
    }
    expect(report.findings.filter((f) => f.check === 'http')).toEqual([]);
    expect(report.partial).toBe(true);
    expect(report.score).toBeLessThanOrEqual(89);
    expect(report.notChecked.filter((item) => item.cause === 'blocked').map((item) => item.check).sort()).toEqual([...PAGE_CHECKS].sort());
    expect(report.siteAccess?.block).toMatchObject({ vendor: 'cloudflare', kind: 'challenge', status: 403 });
  }, 40_000);

  it('Akamai edge block of scanner user agents: blocked by Akamai, and none of the four false header findings', async () => {
    const report = await scanSite('akamai');

    expect(checkOf(report, 'http')).toMatchObject({ status: 'skipped', cause: 'blocked' });
    expect(report.siteAccess?.block).toMatchObject({ vendor: 'akamai', kind: 'block', status: 403 });
    expect(report.findings.map((f) => f.id).filter((id) => /csp|frame|content-type-options/.test(id))).toEqual([]);
    expect(report.partial).toBe(true);
  }, 40_000);

  it('429 with Retry-After past the deadline after 6 requests: the unanswered paths are "not checked — rate limited", never "not exposed", and the grade is not an A', async () => {
    const report = await scanSite('ratelimit');

    const limited = report.notChecked.filter((item) => item.cause === 'rate_limited');
    expect(limited.length).toBeGreaterThan(0);
    expect(limited.map((item) => item.check)).toContain('exposure');
    expect(report.partial).toBe(true);
    expect(report.score).toBeLessThanOrEqual(89);
    expect(report.grade).not.toBe('A');
    // The security.txt that got a 429 is not reported missing: it was not seen.
    const exposure = checkOf(report, 'exposure');
    if (exposure.status === 'ok') expect(exposure.findings.map((f) => f.id)).not.toContain('exposure.security-txt.missing');
  }, 40_000);

  it('a brief rate limit (Retry-After 1) is waited out once and the scan sees the site: nothing rate limited', async () => {
    const report = await scanSite('brief');

    expect(report.notChecked.filter((item) => item.cause === 'rate_limited')).toEqual([]);
    expect(checkOf(report, 'http').status).toBe('ok');
    expect(checkOf(report, 'exposure').status).toBe('ok');
  }, 40_000);

  it('no HTTPS at all: the grade is never above D, and the report names the cap', async () => {
    const report = await scanSite('plain');

    expect(checkOf(report, 'http').status).toBe('ok');
    expect(report.score).toBeLessThanOrEqual(69);
    expect(report.caps.map((cap) => cap.id)).toContain('no-https');
  }, 40_000);

  it('no HTTPS, asked as https:// (what a visitor typing the name gets): the pages are read over http, the software check included, and HTTPS is still judged missing', async () => {
    const report = await scanSite('plain', 'https');

    for (const name of PAGE_CHECKS) expect(checkOf(report, name).status, name).toBe('ok');
    expect(String(checkOf(report, 'software').data?.url)).toMatch(/^http:\/\/plain\.behaviour\.test:/);
    expect(report.siteAccess?.askedUrl).toMatch(/^http:\/\//);
    expect(report.score).toBeLessThanOrEqual(69);
  }, 40_000);

  it('a challenge on the sensitive paths only: the site is graded, the challenged paths are "not checked — blocked"', async () => {
    const report = await scanSite('subpath');

    expect(checkOf(report, 'http').status).toBe('ok');
    const blocked = report.notChecked.filter((item) => item.cause === 'blocked');
    expect(blocked.map((item) => item.check)).toContain('exposure');
    expect(blocked.find((item) => item.check === 'exposure')?.part).toMatch(/^Exposed files: \d+ of \d+ paths/);
    expect(checkOf(report, 'exposure').findings.filter((f) => f.severity !== 'info')).toEqual([]);
    expect(report.partial).toBe(true);
  }, 40_000);

  it('a 503 maintenance page: the page checks end in an error that says so, not a grade of the maintenance page', async () => {
    const report = await scanSite('maintenance');

    for (const name of PAGE_CHECKS) expect(checkOf(report, name), name).toMatchObject({ status: 'error', findings: [] });
    expect(checkOf(report, 'http').reason).toMatch(/server error or maintenance page/);
    expect(report.partial).toBe(true);
    expect(report.score).toBeLessThanOrEqual(89);
  }, 40_000);

  it('a tarpit that accepts and never answers: the page checks are not checked (the landing page did not load), no header is graded', async () => {
    const report = await scanSite('tarpit');

    for (const name of ['http', 'wordpress', 'exposure']) expect(checkOf(report, name), name).toMatchObject({ status: 'error', findings: [] });
    expect(checkOf(report, 'http').reason).toMatch(/landing page did not load/);
    // The software check still runs for the port scan's banners; with none to read, it says the page did not answer.
    expect(checkOf(report, 'software')).toMatchObject({ status: 'error', findings: [] });
    expect(checkOf(report, 'software').reason).toMatch(/The page did not answer/);
    expect(report.partial).toBe(true);
    expect(report.score).toBeLessThanOrEqual(89);
  }, 40_000);

  it('a site slower than the deadline: not checked, partial, never a pass', async () => {
    const report = await scanSite('slow');

    for (const name of ['http', 'wordpress', 'exposure']) expect(['error', 'timeout'], name).toContain(checkOf(report, name).status);
    expect(report.notChecked.some((item) => item.check === 'software')).toBe(true);
    expect(report.findings.filter((f) => f.check === 'http')).toEqual([]);
    expect(report.partial).toBe(true);
    expect(report.score).toBeLessThanOrEqual(89);
  }, 40_000);

  it('a geo block (451): blocked, with the status in the reason', async () => {
    const report = await scanSite('geo');

    expect(checkOf(report, 'http')).toMatchObject({ status: 'skipped', cause: 'blocked' });
    expect(checkOf(report, 'http').reason).toMatch(/451/);
    expect(report.partial).toBe(true);
  }, 40_000);
});
