import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Audit } from '../../lambdas/domain/audit.js';
import { badgeReasons } from '../../lambdas/domain/badge.js';
import { riskScore } from '../../lambdas/domain/scoring.js';
import { api, setSubscription, signIn, type TestUser, verifyDomainByDns } from '../support/accounts.js';
import { startTestStack, TEST_ZONE_RECORDS, type TestStack, validLead, waitForAudit } from '../support/local-stack.js';
import { listenOnAddress } from '../support/loopback-servers.js';
import { arrived, mailbox } from '../support/post-from.js';
import { startZoneServer, type ZoneServer } from '../support/zone-server.js';

/**
 * DECISIONS "Grade caps" over the whole local stack: real scans of two sites that speak only plain
 * HTTP (nothing on 443 at their loopback addresses), with the headers a careful site sends, so the
 * formula alone would grade them well. One is a plain shop: it must never be above D. The other
 * loads jQuery 1.8.3 (CVE-2020-11023 is in CISA's KEV catalog): it must be F. The stored score,
 * the report, the report email and the badge all carry the capped score and name the caps.
 */

const PLAIN = { domain: 'caps-plain.example.test', address: '127.0.0.94' };
const KEV = { domain: 'caps-kev.example.test', address: '127.0.0.95' };
const WALLED = { domain: 'caps-walled.example.test', address: '127.0.0.96' };
/** Cloudflare's managed challenge, as it answers every request of a scanner it does not let through. */
const CHALLENGE = {
  status: 403,
  headers: { 'content-type': 'text/html; charset=UTF-8', server: 'cloudflare', 'cf-mitigated': 'challenge', 'cf-ray': '8f1c2d3e4f5a6b7c-SYD' },
  body: '<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title></head><body><div id="challenge-body-text">Verifying you are human.</div><script>window._cf_chl_opt={cvId: "3"};</script></body></html>',
};
const JQUERY_183 = '/*! jQuery v1.8.3 jquery.com | jquery.org/license */\n(function(e,t){var n,r,i=typeof t';
const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'self'; object-src 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
  'cross-origin-opener-policy': 'same-origin',
};

interface Site {
  port: number;
  close(): Promise<void>;
}

/** A site on `address` that answers only plain HTTP, with good headers; `script` is put on its landing page; `walled`: Cloudflare's challenge answers every request. */
async function startSite(address: string, script?: string, walled = false): Promise<Site> {
  const landing = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>${script ? `<script src="${script}"></script>` : ''}</head><body><h1>Shop</h1></body></html>`;
  const server = http.createServer((req, res) => {
    if (walled) return res.writeHead(CHALLENGE.status, CHALLENGE.headers).end(CHALLENGE.body);
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    if (path === '/') return res.writeHead(200, HEADERS).end(landing);
    if (script && path === script) return res.writeHead(200, { ...HEADERS, 'content-type': 'application/javascript' }).end(JQUERY_183);
    res.writeHead(404, HEADERS).end('<!doctype html><title>Not found</title><p>Not found</p>');
  });
  return listenOnAddress(server, address);
}

let t: TestStack;
let zone: ZoneServer;
let plain: Site;
let kev: Site;
let walled: Site;
let owner: TestUser;

/** The owner asks for a report of the site with the landing form and waits for it. */
async function scanned(domain: string, site: Site): Promise<Audit> {
  const reply = await api(t, 'POST', '/api/leads', owner.token, { ...validLead, email: owner.email, webUrl: `http://${domain}:${site.port}/` });
  expect(reply.status).toBe(201);
  const auditId = String(reply.body.auditId);
  expect((await waitForAudit(t.stack.url, auditId, 90_000)).status).toBe('completed');
  return (await t.stack.deps.audits.getAudit(auditId))!;
}

const findingsOf = (audit: Audit) => audit.checks.flatMap((check) => check.findings);

beforeAll(async () => {
  [plain, kev, walled] = await Promise.all([startSite(PLAIN.address), startSite(KEV.address, '/js/jquery-1.8.3.min.js'), startSite(WALLED.address, undefined, true)]);
  zone = await startZoneServer({
    records: [...TEST_ZONE_RECORDS, ...[PLAIN, KEV, WALLED].map((site) => ({ name: site.domain, type: 'A' as const, ttl: 60, data: site.address }))],
  });
  t = await startTestStack({ SCAN_ALLOW_PRIVATE_TARGETS: '1', SCAN_RESOLVERS: `127.0.0.1:${zone.port}`, SCAN_ACTIVE_PER_TARGET_PER_HOUR: '50' });
  owner = await signIn(t, 'owner@caps-plain.example.test', 'Carla');
  await setSubscription(t, owner.userId, 'monitor-lite', 'active');
  await verifyDomainByDns(t, zone, owner, PLAIN.domain);
  await verifyDomainByDns(t, zone, owner, KEV.domain);
  await verifyDomainByDns(t, zone, owner, WALLED.domain);
}, 90_000);

afterAll(async () => {
  await plain?.close();
  await kev?.close();
  await walled?.close();
  await t?.close();
  await zone?.close();
});

describe('a site without HTTPS', () => {
  let audit: Audit;

  it('is never above D, though the formula alone grades it higher, and the stored audit names the cap', async () => {
    audit = await scanned(PLAIN.domain, plain);
    expect(findingsOf(audit).map((f) => f.id)).toContain('tls.none');
    expect(riskScore(findingsOf(audit))).toBeGreaterThan(69);
    expect([audit.score, audit.grade, audit.riskLevel]).toEqual([69, 'D', 'medium']);
    expect(audit.gradeCaps).toEqual([{ id: 'no-https', limit: 69, reason: 'The site has no working HTTPS: port 443 does not answer with TLS.' }]);
  }, 120_000);

  it('shows the capped grade and the cap on the report, in the report email and on the badge', async () => {
    const report = await api(t, 'GET', `/api/audits/${audit.id}`);
    expect(report.status).toBe(200);
    expect([report.body.result.risk_score, report.body.result.grade, report.body.result.grade_caps]).toEqual([69, 'D', audit.gradeCaps]);
    expect(report.body.result.site_access).toBeNull();

    // The report email goes out just after the audit is marked completed.
    const reports = async () => (await mailbox(t.stack.mailboxUrl, owner.email)).filter((m) => m.subject === `Your Rampart security report for ${PLAIN.domain}: grade D`);
    const [mail] = await arrived(reports, 1);
    expect(mail?.body.text).toContain('Score: 69/100\nGrade capped at D (69): The site has no working HTTPS: port 443 does not answer with TLS.');

    const badge = await api(t, 'GET', `/api/badges/${PLAIN.domain}`);
    expect(badge.body).toMatchObject({ eligible: true, grade: 'D', score: 69 });
  });
});

describe('a site with a known-exploited vulnerability', () => {
  it('is F (59), names both caps lowest first, and loses the badge, which reads the stored score', async () => {
    const audit = await scanned(KEV.domain, kev);
    const jquery = findingsOf(audit).find((f) => f.cveDetails?.some((cve) => cve.exploited));
    expect(jquery?.cveDetails?.find((cve) => cve.exploited)?.id).toBe('CVE-2020-11023');
    expect(riskScore(findingsOf(audit))).toBeGreaterThan(69);
    expect([audit.score, audit.grade, audit.riskLevel]).toEqual([59, 'F', 'high']);
    expect(audit.gradeCaps?.map((cap) => [cap.id, cap.limit])).toEqual([
      ['kev', 59],
      ['no-https', 69],
    ]);
    expect(audit.gradeCaps?.[0]?.reason).toContain('CVE-2020-11023');

    const badge = await api(t, 'GET', `/api/badges/${KEV.domain}`);
    expect(badge.body).toMatchObject({ eligible: false, score: null });
    expect(badge.body.reasons).toContain(badgeReasons.lowScore);
  }, 120_000);
});

describe('a site whose pages answer with Cloudflare’s challenge', () => {
  it('is reported blocked, first, with the steps to let the scanner in, in the report and the email; the challenge page is never graded', async () => {
    const audit = await scanned(WALLED.domain, walled);
    const pageChecks = audit.checks.filter((check) => ['http', 'software', 'wordpress', 'exposure'].includes(check.name));
    expect(pageChecks.map((check) => [check.name, check.status, check.cause])).toEqual(
      pageChecks.map((check) => [check.name, 'skipped', 'blocked']),
    );
    expect(pageChecks.length).toBeGreaterThan(0);
    expect(findingsOf(audit).filter((f) => f.id.startsWith('http.'))).toEqual([]);

    const report = await api(t, 'GET', `/api/audits/${audit.id}`);
    const access = report.body.result.site_access;
    expect(access).toMatchObject({
      blocked: true,
      kind: 'challenge',
      vendor: 'cloudflare',
      vendorName: 'Cloudflare',
      status: 403,
      headline: 'We could not see your site: Cloudflare’s bot protection answered our scanner with a challenge (403) instead of the site.',
      guide: { title: 'Let the Rampart scanner in through Cloudflare' },
    });
    expect(access.checks.map((c: { check: string; cause: string }) => [c.check, c.cause])).toEqual(pageChecks.map((check) => [check.name, 'blocked']));
    expect(access.guide.steps.join(' ')).toContain('(http.user_agent contains "RampartScanner")');
    expect(report.body.result.coverage.notChecked.filter((item: { cause: string }) => item.cause === 'blocked')).toHaveLength(pageChecks.length);

    const reports = async () => (await mailbox(t.stack.mailboxUrl, owner.email)).filter((m) => m.subject.startsWith(`Your Rampart security report for ${WALLED.domain}`));
    const [mail] = await arrived(reports, 1);
    expect(mail?.body.text).toContain(`${access.headline} The report shows how to let the scanner in; then run the scan again.`);
  }, 120_000);
});
