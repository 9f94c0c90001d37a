import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeps } from '../../lambdas/composition.js';
import { scannerUserAgent } from '../../lambdas/domain/product.js';
import { scheduleMonitoringRescans } from '../../lambdas/use-cases/monitoring.js';
import { runScan } from '../../lambdas/use-cases/run-scan.js';
import { type OwnershipProbes } from '../../lambdas/use-cases/domains.js';
import { confirmOptOut, OptOutProofNotFoundError, removeOptOut } from '../../lambdas/use-cases/scanner-identity.js';
import { addDomain, api, setSubscription, signIn } from '../support/accounts.js';
import { startTestStack, TEST_ZONE_RECORDS, type TestStack, validLead, waitForAudit } from '../support/local-stack.js';
import { loopbackServers } from '../support/loopback-servers.js';
import { startZoneServer, type ZoneServer } from '../support/zone-server.js';

/**
 * DECISIONS "Scanner identity" over the local stack: the public scanner facts, the user agent a real
 * lead's scan sends, and the opt-out a site owner makes by publishing a TXT record in the zone the
 * scanner resolves through (zone-server), refused to strangers, and honoured by every way a scan starts.
 */

let t: TestStack;
let zone: ZoneServer;
const servers = loopbackServers();
const userAgents: string[] = [];
let sitePort: number;

beforeAll(async () => {
  sitePort = await servers.listen(
    http.createServer((request, response) => {
      userAgents.push(String(request.headers['user-agent']));
      response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>UA site</title><p>Hello</p>');
    }),
  );
  zone = await startZoneServer({
    records: [...TEST_ZONE_RECORDS, { name: 'ua-site.test', type: 'A', ttl: 60, data: '127.0.0.1' }],
  });
  t = await startTestStack({ SCAN_ALLOW_PRIVATE_TARGETS: '1', SCAN_RESOLVERS: `127.0.0.1:${zone.port}` });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await zone?.close();
  await servers.closeAll();
});

const requestOptOut = (domain: unknown) => api(t, 'POST', '/api/scanner/opt-outs', undefined, { domain });
const leadFor = (site: string, email: string) => api(t, 'POST', '/api/leads', undefined, { ...validLead, webUrl: site, email });

describe('GET /api/scanner', () => {
  it('states the user agent, no fixed addresses, the abuse address and the per-site politeness', async () => {
    const answer = await api(t, 'GET', '/api/scanner');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      productName: 'Rampart',
      userAgent: `RampartScanner/1.0 (+${t.stack.config.SITE_URL.replace(/\/$/, '')}/scanner)`,
      egressAddresses: null,
      abuseEmail: 'abuse@rampart.example',
      politeness: { maxInFlightPerSite: 4, maxRequestsPerSecondPerSite: expect.any(Number) },
      optOut: { dnsRecordName: '_rampart-scanner-opt-out.{domain}', filePath: '/.well-known/rampart-scanner-opt-out.txt' },
    });
  });
});

describe('a lead’s scan names itself', () => {
  it('sends the deployment’s user agent on every request to the site', async () => {
    // Act
    const lead = await leadFor(`http://ua-site.test:${sitePort}/`, 'owner@ua-site.test');
    expect(lead.status, lead.text).toBe(201);
    const audit = await waitForAudit(t.stack.url, String(lead.body.auditId), 60_000);

    // Assess
    expect(audit.status).toBe('completed');
    expect(userAgents.length).toBeGreaterThan(0);
    const expected = scannerUserAgent('Rampart', t.stack.config.SITE_URL);
    expect(userAgents.filter((ua) => ua !== expected)).toEqual([]);
  }, 90_000);
});

describe('opt-out: bad input', () => {
  it('answers 400 with a message for a missing, public-suffix, address or malformed domain and a malformed token, storing nothing', async () => {
    for (const domain of [undefined, '', 'github.io', '203.0.113.5', 'not a domain', 42]) {
      const answer = await requestOptOut(domain);
      expect(answer.status, String(domain)).toBe(400);
      expect(answer.body.error).toBe('validation_failed');
      expect(answer.body.message).toBeTruthy();
    }
    const badJson = await fetch(`${t.stack.url}/api/scanner/opt-outs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"domain":' });
    expect(badJson.status).toBe(400);
    expect((await api(t, 'POST', '/api/scanner/opt-outs/example.test/confirm', undefined, { token: 'short' })).status).toBe(400);
    expect((await api(t, 'POST', '/api/scanner/opt-outs/203.0.113.5/confirm', undefined, { token: 'A'.repeat(22) })).status).toBe(400);
    expect((await api(t, 'DELETE', '/api/scanner/opt-outs/github.io')).status).toBe(400);
  });
});

describe('opt-out: a stranger', () => {
  it('cannot opt out a domain without publishing the record: the request’s token alone, a made-up token or the verification record do not count', async () => {
    // Prepare
    const request = await requestOptOut('https://www.quiet-a.test/');
    expect(request.status).toBe(201);
    expect(request.body).toMatchObject({ domain: 'quiet-a.test', dns: { type: 'TXT', name: '_rampart-scanner-opt-out.quiet-a.test' } });
    const token = String(request.body.token);
    // A record that proves something else: domain verification at the apex, with the same token.
    zone.add({ name: 'quiet-a.test', type: 'TXT', ttl: 60, data: `rampart-verification=${token}` });

    // Act
    const unproven = await api(t, 'POST', '/api/scanner/opt-outs/quiet-a.test/confirm', undefined, { token });
    const madeUp = await api(t, 'POST', '/api/scanner/opt-outs/quiet-a.test/confirm', undefined, { token: 'B'.repeat(22) });

    // Assess
    expect(unproven.status).toBe(422);
    expect(unproven.body.error).toBe('opt_out_proof_not_found');
    expect(unproven.body.message).toContain(`rampart-scanner-opt-out=${token}`);
    expect(madeUp.status).toBe(404);
    expect(madeUp.body.error).toBe('opt_out_request_not_found');
    expect(await t.stack.deps.scannerOptOuts.get('quiet-a.test')).toBeUndefined();
    expect(zone.queries.some((q) => q.name === '_rampart-scanner-opt-out.quiet-a.test' && q.type === 'TXT')).toBe(true);
    // Nothing changed for anyone else: a lead for the domain is still taken.
    expect((await leadFor('https://www.quiet-a.test/', 'owner@quiet-a.test')).status).toBe(201);
  });
});

describe('opt-out by DNS TXT, then every scan of the domain is refused', () => {
  const owner = { email: '', userId: '', token: '' };

  beforeAll(async () => {
    const user = await signIn(t, 'it-team@example.test');
    Object.assign(owner, user);
    await setSubscription(t, user.userId, 'monitor-lite', 'active');
    await addDomain(t, user.userId, 'shop.example.test');
    await addDomain(t, user.userId, 'ua-site.test');
  }, 60_000);

  it('opts example.test out once its owner publishes the record', async () => {
    // Prepare
    const request = await requestOptOut('https://www.shop.example.test/contact');
    expect(request.status).toBe(201);
    expect(request.body.domain).toBe('example.test');
    zone.add({ name: String(request.body.dns.name), type: 'TXT', ttl: 60, data: String(request.body.dns.value) });

    // Act
    const confirmed = await api(t, 'POST', '/api/scanner/opt-outs/example.test/confirm', undefined, { token: request.body.token });

    // Assess
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body).toMatchObject({ domain: 'example.test', optedOut: true, method: 'dns' });
    expect(await t.stack.deps.scannerOptOuts.get('example.test')).toMatchObject({ domain: 'example.test', token: request.body.token, method: 'dns' });
  });

  it('refuses a lead for the domain or a subdomain with 403 scan_opted_out and the reason, and stores no audit', async () => {
    // Prepare
    const before = await t.stack.deps.audits.listByEmail('owner@example.test');

    // Act
    const refused = await leadFor('https://shop.example.test', 'owner@example.test');

    // Assess
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('scan_opted_out');
    expect(refused.body.message).toMatch(/^example\.test's owner asked not to be scanned by Rampart on \d{1,2} \w+ \d{4}\. /);
    expect(refused.body.message).toContain('/scanner');
    const after = await t.stack.deps.audits.listByEmail('owner@example.test');
    expect(after.audits.length).toBe(before.audits.length);
    expect(after.leads.length).toBe(before.leads.length);
    expect((await leadFor('https://www.example.test', 'owner@example.test')).body.error).toBe('scan_opted_out');
  });

  it('refuses the domain’s verified owner too: Quick Scan answers 403 scan_opted_out and counts nothing', async () => {
    const refused = await api(t, 'POST', '/api/me/scans', owner.token, { domain: 'shop.example.test' });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('scan_opted_out');
  });

  it('ends a job queued before the opt-out as failed, with the reason, without scanning', async () => {
    // Prepare: an audit queued (its job not yet run) before the owner opted out.
    const auditId = randomUUID();
    await t.stack.deps.audits.createAudit({ id: auditId, ownerId: owner.userId, targetUrl: 'https://shop.example.test/', host: 'shop.example.test', status: 'queued', createdAt: new Date().toISOString(), checks: [], mode: 'active' });

    // Act
    const outcome = await runScan(t.stack.deps, { auditId, kind: 'scan' });

    // Assess
    const audit = await t.stack.deps.audits.getAudit(auditId);
    expect(outcome).toBe('failed');
    expect(audit?.status).toBe('failed');
    expect(audit?.errorMessage).toContain("example.test's owner asked not to be scanned by Rampart");
    expect(audit?.checks).toEqual([]);
  });

  it('refuses the report’s unlock, the paid audit’s checkout and the Pro Audit’s free re-scan of the domain', async () => {
    // Prepare: the owner's passive report of the site, completed with an issue (what a paid audit deepens).
    const auditId = randomUUID();
    const at = new Date().toISOString();
    const { audits } = t.stack.deps;
    await audits.createAudit({ id: auditId, ownerId: owner.userId, targetUrl: 'https://shop.example.test/', host: 'shop.example.test', status: 'queued', createdAt: at, checks: [], mode: 'passive' });
    await audits.markInProgress(auditId, at);
    await audits.saveCheck(auditId, {
      name: 'http',
      status: 'ok',
      findings: [{ id: 'http.headers.csp-missing', check: 'http', title: 'No Content Security Policy', severity: 'medium', category: 'headers', description: 'No CSP.', recommendation: 'Add one.' }],
    });
    expect(await audits.complete(auditId, { score: 95, grade: 'A', riskLevel: 'low', completedAt: at })).toBe(true);

    // Act
    const unlock = await api(t, 'POST', `/api/audits/${auditId}/unlock`, owner.token);
    const checkout = await api(t, 'POST', '/api/checkout-sessions', owner.token, { planId: 'pro-audit', auditId });
    await audits.markPremium(auditId, { planType: 'pro', paymentSessionId: `cs_test_optout_${auditId.slice(-6)}`, badgeEligibleUntil: new Date(Date.now() + 90 * 86_400_000).toISOString(), updatedAt: new Date().toISOString() });
    const rescan = await api(t, 'POST', `/api/audits/${auditId}/rescans`, owner.token);

    // Assess
    expect([unlock.status, unlock.body.error]).toEqual([403, 'scan_opted_out']);
    expect([checkout.status, checkout.body.error]).toEqual([403, 'scan_opted_out']);
    expect([rescan.status, rescan.body.error]).toEqual([403, 'scan_opted_out']);
    expect(await t.stack.deps.billing.listOrders(owner.userId)).toEqual([]);
    expect((await audits.getAudit(auditId))?.status).toBe('completed');
  });

  it('leaves the domain out of the monitoring schedule while another of the subscriber’s domains is rescanned', async () => {
    const now = new Date();
    const { queued } = await scheduleMonitoringRescans(buildDeps(t.stack.config, { clock: { now: () => now } }), now);
    const mine = queued.filter((q) => q.userId === owner.userId).map((q) => q.domain);
    expect(mine).toContain('ua-site.test');
    expect(mine).not.toContain('shop.example.test');
  });

  it('is withdrawn by the owner while the record is still published, and a lead is taken again', async () => {
    const removed = await api(t, 'DELETE', '/api/scanner/opt-outs/example.test');
    expect(removed.status, removed.text).toBe(204);
    expect(await t.stack.deps.scannerOptOuts.get('example.test')).toBeUndefined();
    expect((await api(t, 'DELETE', '/api/scanner/opt-outs/example.test')).status).toBe(404);
    const lead = await leadFor('https://shop.example.test', 'owner@example.test');
    expect(lead.status, lead.text).toBe(201);
  });
});

describe('opt-out by file, and its removal', () => {
  it('needs the proof still published to be withdrawn: gone, the opt-out stays', async () => {
    // Prepare: the owner's site serves the file (production fetches https://{domain}/.well-known/…: the probes stand in for port 443).
    const request = await requestOptOut('filed.test');
    expect(request.status).toBe(201);
    const token = String(request.body.token);
    let served: string | undefined = `${token}\n`;
    const probes: OwnershipProbes = {
      txt: async () => [],
      fetchText: async (url) => (url === 'https://filed.test/.well-known/rampart-scanner-opt-out.txt' ? served : undefined),
    };
    const confirmed = await confirmOptOut(t.stack.deps, probes, 'filed.test', { token }, '198.51.100.1');
    expect(confirmed).toMatchObject({ domain: 'filed.test', method: 'file' });

    // Act: the file is taken down; a removal is asked for.
    served = undefined;
    const refused = removeOptOut(t.stack.deps, probes, 'filed.test', '198.51.100.1');

    // Assess
    await expect(refused).rejects.toBeInstanceOf(OptOutProofNotFoundError);
    expect(await t.stack.deps.scannerOptOuts.get('filed.test')).toMatchObject({ method: 'file' });
    served = token;
    await removeOptOut(t.stack.deps, probes, 'filed.test', '198.51.100.1');
    expect(await t.stack.deps.scannerOptOuts.get('filed.test')).toBeUndefined();
  });
});

describe('opt-out: what one address can make us do', () => {
  it('limits opt-out requests per source address: the eleventh well-formed one in an hour is 429 with Retry-After', async () => {
    // Three well-formed requests came from 127.0.0.1 above (quiet-a.test, example.test, filed.test); bad input is refused before it counts.
    const answers: number[] = [];
    let limited: Awaited<ReturnType<typeof requestOptOut>> | undefined;
    for (let i = 0; i < 10 && !limited; i++) {
      const answer = await requestOptOut(`many-${i}.test`);
      answers.push(answer.status);
      if (answer.status === 429) limited = answer;
    }
    expect(answers).toEqual([201, 201, 201, 201, 201, 201, 201, 429]);
    expect(limited?.body.error).toBe('rate_limited');
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
