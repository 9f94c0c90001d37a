import http from 'node:http';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, signIn, type TestUser, verifyDomainByDns } from '../support/accounts.js';
import { listenOnAddress } from '../support/loopback-servers.js';
import { startTestStack, TEST_ZONE_RECORDS, type TestStack, validLead, waitForAudit } from '../support/local-stack.js';
import { startZoneServer, type ZoneServer } from '../support/zone-server.js';

/**
 * Issue 27's table over the whole local stack (the Cloudflare challenge and the site without HTTPS
 * are in grade-caps.test.ts, the monitored http-only site in rescan-target.test.ts): a lead's scan
 * of a site whose edge blocks scanner user agents (Akamai's page; browsers get a well-kept site),
 * and of a good site that answers 429 once it has had 6 requests. What the report must say:
 * blocked by Akamai, and rate limited, with no false findings and no A.
 */

const AKAMAI = { domain: 'edge-akamai.example.test', address: '127.0.0.97' };
const LIMITED = { domain: 'rate-limited.example.test', address: '127.0.0.98' };

const akamaiPage = JSON.parse(readFileSync(new URL('../fixtures/blocks/akamai-access-denied.json', import.meta.url), 'utf8')) as {
  status: number;
  headers: Record<string, string>;
  body: string;
};
const GOOD_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'self'; frame-ancestors 'none'; object-src 'none'; base-uri 'self'; form-action 'self'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};
const good = (path: string, response: http.ServerResponse) =>
  path === '/'
    ? response.writeHead(200, GOOD_HEADERS).end('<!doctype html><html lang="en"><title>Shop</title><h1>Shop</h1></html>')
    : response.writeHead(404, GOOD_HEADERS).end('<!doctype html><title>Not found</title><p>Not found</p>');

interface Site {
  port: number;
  requests: { path: string; userAgent: string; status: number }[];
  close(): Promise<void>;
}

async function startSite(address: string, answer: (request: http.IncomingMessage, response: http.ServerResponse, count: number) => void): Promise<Site> {
  const requests: Site['requests'] = [];
  const server = http.createServer((request, response) => {
    answer(request, response, requests.length + 1);
    requests.push({ path: request.url ?? '', userAgent: request.headers['user-agent'] ?? '', status: response.statusCode });
  });
  return { ...(await listenOnAddress(server, address)), requests };
}

let t: TestStack;
let zone: ZoneServer;
let akamai: Site;
let limited: Site;
let owner: TestUser;

interface ReportBody {
  result: {
    grade: string;
    risk_score: number;
    coverage: { partial: boolean; notChecked: { check: string; part?: string; cause: string; reason: string }[] };
    site_access: { vendorName?: string; kind?: string; status?: number; checks?: { check: string }[] } | null;
  };
}

/** The owner asks for a report of the site with the landing form and waits for it. */
async function reportOf(domain: string, site: Site): Promise<ReportBody & { auditId: string }> {
  const reply = await api(t, 'POST', '/api/leads', owner.token, { ...validLead, email: owner.email, webUrl: `http://${domain}:${site.port}/` });
  expect(reply.status).toBe(201);
  const auditId = String(reply.body.auditId);
  expect((await waitForAudit(t.stack.url, auditId, 90_000)).status).toBe('completed');
  const report = await api(t, 'GET', `/api/audits/${auditId}`);
  expect(report.status).toBe(200);
  return { ...(report.body as ReportBody), auditId };
}

beforeAll(async () => {
  [akamai, limited] = await Promise.all([
    // Akamai's edge refuses user agents that name a bot or a scanner; a browser gets the well-kept site.
    startSite(AKAMAI.address, (request, response) =>
      /bot|scanner|crawl|spider/i.test(request.headers['user-agent'] ?? '') ? response.writeHead(akamaiPage.status, akamaiPage.headers).end(akamaiPage.body) : good(request.url ?? '/', response),
    ),
    // A good site that answers 429 (Retry-After 300: past any scan's deadline) once it has had 6 requests.
    startSite(LIMITED.address, (request, response, count) =>
      count > 6 ? response.writeHead(429, { 'retry-after': '300', 'content-type': 'text/plain' }).end('Too Many Requests') : good(request.url ?? '/', response),
    ),
  ]);
  zone = await startZoneServer({ records: [...TEST_ZONE_RECORDS, ...[AKAMAI, LIMITED].map((site) => ({ name: site.domain, type: 'A' as const, ttl: 60, data: site.address }))] });
  t = await startTestStack({ SCAN_ALLOW_PRIVATE_TARGETS: '1', SCAN_RESOLVERS: `127.0.0.1:${zone.port}`, SCAN_ACTIVE_PER_TARGET_PER_HOUR: '50' });
  owner = await signIn(t, 'owner@edge-akamai.example.test', 'Edgar');
  await verifyDomainByDns(t, zone, owner, AKAMAI.domain);
  await verifyDomainByDns(t, zone, owner, LIMITED.domain);
}, 90_000);

afterAll(async () => {
  await akamai?.close();
  await limited?.close();
  await t?.close();
  await zone?.close();
});

describe('the internet answering the scanner, over the local stack', () => {
  it('an edge that blocks scanner user agents: the report says blocked by Akamai, the page checks are not checked, and none of the false header findings', async () => {
    const report = await reportOf(AKAMAI.domain, akamai);

    // The scanner named itself, and the edge answered that name with its block page.
    expect(akamai.requests.length).toBeGreaterThan(0);
    expect(akamai.requests.every((r) => r.userAgent.startsWith('RampartScanner/1.0 (+') && r.status === 403)).toBe(true);
    expect(report.result.site_access).toMatchObject({ vendorName: 'Akamai', kind: 'block', status: 403 });
    const blocked = report.result.coverage.notChecked.filter((item) => item.cause === 'blocked').map((item) => item.check);
    expect(blocked.sort()).toEqual(['exposure', 'http', 'software', 'wordpress']);
    expect(report.result.coverage.partial).toBe(true);
    expect(report.result.grade).not.toBe('A');
    const checks = (await t.stack.deps.audits.getAudit(report.auditId))?.checks ?? [];
    expect(checks.length).toBeGreaterThan(0);
    expect(checks.flatMap((check) => check.findings).filter((f) => /csp|frame|content-type-options|referrer/.test(f.id))).toEqual([]);
  }, 120_000);

  it('a site that rate-limits after 6 requests: the paths that got 429 are "not checked — rate limited", never "not exposed", and the grade is not an A', async () => {
    const report = await reportOf(LIMITED.domain, limited);

    expect(limited.requests.filter((r) => r.status === 429).length).toBeGreaterThan(0);
    const rateLimited = report.result.coverage.notChecked.filter((item) => item.cause === 'rate_limited');
    expect(rateLimited.length).toBeGreaterThan(0);
    expect(rateLimited.some((item) => item.check === 'exposure' || item.check === 'http')).toBe(true);
    expect(report.result.coverage.partial).toBe(true);
    expect(report.result.risk_score).toBeLessThanOrEqual(89);
    expect(report.result.grade).not.toBe('A');
  }, 120_000);
});
