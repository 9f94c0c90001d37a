import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotCheckedItem } from '../../lambdas/domain/coverage.js';
import { PARTIAL_SCORE_CAP } from '../../lambdas/domain/coverage.js';
import { unlockMessages } from '../../lambdas/domain/unlock.contract.js';
import { SECURITY_TXT_PATH, SENSITIVE_PATHS } from '../../lambdas/scanner/checks/exposure/catalog.js';
import { api, signIn, type TestUser, verifyAddressByCode, verifyDomainByDns } from '../support/accounts.js';
import { startTestStack, TEST_ZONE_RECORDS, type TestStack, validLead, waitForAudit } from '../support/local-stack.js';
import { readPdf } from '../support/pdf-text.js';
import { mailbox, postJsonFrom } from '../support/post-from.js';
import { type RecordingTarget, SITE_PATHS, startRecordingTarget } from '../support/recording-target.js';
import { startZoneServer, type ZoneRecord, type ZoneServer } from '../support/zone-server.js';

/**
 * The proof of scan modes (issue 18, DECISIONS "Scan modes") over the whole local stack: a site on
 * its own loopback address writes down every connection and HTTP request it gets, and the zone
 * server every DNS question (AXFR included). What a scan did is read off the target, not the report.
 *
 * Each scenario has its own registrable domain, all pointing at the one recording target:
 * beta.test (a foreign address's lead, passive, then unlocked), alpha.test (a same-domain lead,
 * passive until the code mailed to its address is confirmed, then rescanned active) and gamma.test
 * (the per-target limit). The stack allows one active scan per target per
 * hour, so the limit is reached by the second scan of a domain.
 */
const ADDRESS = '127.0.0.18';
const ACTIVE_PER_HOUR = 1;
const DOMAINS = ['alpha.test', 'beta.test', 'gamma.test'];
/** Methods a browser (and so a passive scan) sends. */
const BROWSER_METHODS = ['GET', 'HEAD', 'OPTIONS'];

let t: TestStack;
let zone: ZoneServer;
let target: RecordingTarget;

/** A registrable domain served by `zone`: SOA, a name server on the zone server's own address (so an AXFR reaches it), and sites. */
function domainRecords(domain: string, sites: string[]): ZoneRecord[] {
  return [
    { name: domain, type: 'SOA', ttl: 3600, data: { mname: `ns1.${domain}`, rname: `hostmaster.${domain}`, serial: 1, refresh: 3600, retry: 600, expire: 604800, minimum: 300 } },
    { name: domain, type: 'NS', ttl: 3600, data: `ns1.${domain}` },
    { name: `ns1.${domain}`, type: 'A', ttl: 300, data: '127.0.0.1' },
    ...sites.map((site): ZoneRecord => ({ name: `${site}.${domain}`, type: 'A', ttl: 300, data: ADDRESS })),
  ];
}

beforeAll(async () => {
  target = await startRecordingTarget(ADDRESS);
  zone = await startZoneServer({ records: [...TEST_ZONE_RECORDS, ...DOMAINS.flatMap((domain) => domainRecords(domain, ['shop', 'blog']))] });
  t = await startTestStack({ SCAN_ALLOW_PRIVATE_TARGETS: '1', SCAN_RESOLVERS: `127.0.0.1:${zone.port}`, SCAN_ACTIVE_PER_TARGET_PER_HOUR: String(ACTIVE_PER_HOUR) });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await zone?.close();
  await target?.close();
});

const url = (path: string) => `${t.stack.url}${path}`;
const siteOf = (host: string) => target.siteUrl(host);

/** The report (`result` of GET /api/audits/{id}), read as the public reads it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a large view, read field by field
async function report(auditId: string, query = ''): Promise<Record<string, any>> {
  const body = (await fetch(url(`/api/audits/${auditId}${query}`)).then((r) => r.json())) as { result: Record<string, unknown> };
  return body.result;
}

/** Runs one scan from its request to its end, with the target's records cleared first; answers the audit id. */
async function scanned(start: () => Promise<string>): Promise<string> {
  target.reset();
  const auditId = await start();
  const audit = await waitForAudit(t.stack.url, auditId, 60_000);
  expect(audit.status, JSON.stringify(audit.errorMessage)).toBe('completed');
  return auditId;
}

const axfrs = (domain?: string) => zone.queries.filter((q) => q.type === 'AXFR' && (domain === undefined || q.name === domain));

/** The lead form as a visitor sends it, from its own source address. */
async function submitLead(sourceIp: string, lead: { email: string; webUrl: string; businessName?: string }): Promise<string> {
  const reply = await postJsonFrom(sourceIp, url('/api/leads'), { ...validLead, businessName: 'Recording Shop', ...lead });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return String(reply.body.auditId);
}

const verifyAddress = (sourceIp: string, email: string, webUrl: string) => verifyAddressByCode(t, sourceIp, email, webUrl, 'Recording Shop');

/** What the recording target saw that a passive scan must not do; [] when it all was browser traffic. */
function nonPassiveTraffic(siteUrl: string): string[] {
  // Written out, not browserPorts() (the function under test): a browser's 443 and 80, and the port the site's URL names.
  const allowedPorts = new Set([443, 80, Number(new URL(siteUrl).port)]);
  const allowedPaths = new Set<string>(SITE_PATHS);
  return [
    ...target.connections.filter((c) => !allowedPorts.has(c.port)).map((c) => `connection to port ${c.port}${c.firstLine ? ` (${c.firstLine})` : ''}`),
    ...target.requests
      .filter((r) => !BROWSER_METHODS.includes(r.method) || !allowedPaths.has(new URL(r.path, 'http://site').pathname))
      .map((r) => `${r.method} ${r.path} on port ${r.port}`),
  ];
}

const connectedServicePorts = () => [...new Set(target.connections.map((c) => c.port))].filter((port) => target.servicePorts.includes(port)).sort((a, b) => a - b);
const requestedPaths = () => new Set(target.requests.map((r) => new URL(r.path, 'http://site').pathname));
const causes = (items: NotCheckedItem[]) => [...new Set(items.map((item) => item.cause))];

/** The report's PDF as the results page downloads it (the API's redirect to the stored file), as text. */
async function pdfText(auditId: string): Promise<string> {
  const reply = await fetch(url(`/api/audits/${auditId}/report.pdf`), { redirect: 'manual' });
  expect(reply.status).toBe(302);
  const file = await fetch(reply.headers.get('location')!);
  return (await readPdf(new Uint8Array(await file.arrayBuffer()))).text;
}

/** What the PDF says about the scan's mode (lambdas/reports/pdf-report.ts), whichever of its sentences it holds (wrapped lines joined). */
const PDF_MODES = {
  passive: 'Passive (partial report): only what a visitor’s browser or a mail server does; proving control of the site unlocks the full scan',
  limited: 'Passive (partial report): the site had its hourly share of active scans, so this one ran passive',
  active: 'Full (active) scan',
} as const;
const modeLine = (pdf: string) => {
  const flat = pdf.replace(/\s+/g, ' ');
  return (Object.keys(PDF_MODES) as (keyof typeof PDF_MODES)[]).filter((mode) => flat.includes(PDF_MODES[mode]));
};

/** A foreign address's passive report, its owner signed in with the domain verified by TXT: what unlocking needs. */
async function passiveReportOfVerifiedOwner(email: string, sourceIp: string, host: string, domain: string): Promise<{ auditId: string; owner: TestUser }> {
  await verifyAddress(sourceIp, email, siteOf(host));
  const auditId = await scanned(() => submitLead(sourceIp, { email, webUrl: siteOf(host) }));
  const owner = await signIn(t, email, 'Vera');
  await verifyDomainByDns(t, zone, owner, domain);
  return { auditId, owner };
}

const visitor = { email: 'visitor@mailbox.test', sourceIp: '127.0.18.1' };
const betaSite = () => siteOf('shop.beta.test');
/** The foreign address's passive report of shop.beta.test, unlocked later. */
let passiveAudit: string;
/** The same-domain lead's active report of shop.alpha.test. */
let activeAudit: string;
let visitorUser: TestUser;

describe('a lead verified through a foreign address', () => {
  it('gets a passive scan: only browser ports and browser requests of the site, no zone transfer', async () => {
    // Prepare
    await verifyAddress(visitor.sourceIp, visitor.email, betaSite());

    // Act
    passiveAudit = await scanned(() => submitLead(visitor.sourceIp, { email: visitor.email, webUrl: betaSite() }));

    // Assess: the site was scanned (its pages were read) …
    expect(target.requests.length).toBeGreaterThan(0);
    expect([...requestedPaths()]).toEqual(expect.arrayContaining(['/', '/welcome', '/robots.txt', SECURITY_TXT_PATH, '/assets/app.js']));
    // … and nothing else: no other listening port, no path off the passive list, no TRACE, no AXFR.
    expect(nonPassiveTraffic(betaSite())).toEqual([]);
    expect(connectedServicePorts()).toEqual([]);
    expect(axfrs('beta.test')).toEqual([]);
  });

  it('has a report that says passive and partial: ports not checked, the score at most 89', async () => {
    const view = await report(passiveAudit);

    expect(view.scan_mode).toBe('passive');
    expect(view.coverage).toMatchObject({ mode: 'passive', allowedMode: 'passive', partial: true });
    const notChecked = view.coverage.notChecked as NotCheckedItem[];
    expect(notChecked.filter((item) => item.part === undefined).map((item) => [item.check, item.cause])).toEqual(
      expect.arrayContaining([
        ['ports', 'passive'],
        ['wordpress', 'passive'],
      ]),
    );
    expect(notChecked.map((item) => `${item.check}: ${item.part ?? '(all)'}`)).toEqual(
      expect.arrayContaining(['dns: Zone transfer (AXFR) from the name servers', 'http: Whether the server answers TRACE (cross-site tracing)', expect.stringMatching(/^exposure: Exposed files/)]),
    );
    expect(causes(notChecked)).toEqual(['passive']);
    expect(view.risk_score).toBeLessThanOrEqual(PARTIAL_SCORE_CAP);
    expect(view.network.status).toBe('skipped');
    expect(view.counters.openPorts).toBeNull();
  });

  it('says so in the completion email and the PDF too', async () => {
    const mails = (await mailbox(t.stack.mailboxUrl, visitor.email)).filter((m) => m.subject.startsWith('Your Rampart security report for shop.beta.test'));

    expect(mails.map((m) => m.subject)).toEqual([expect.stringMatching(/: grade [A-F] \(partial\)$/)]);
    expect(mails[0]!.body.text).toContain('This was a passive scan (a partial report)');
    expect(modeLine(await pdfText(passiveAudit))).toEqual(['passive']);
  });
});

describe('a same-domain lead', () => {
  it('before its address is proven gets a passive scan at once: browser traffic only, no zone transfer, and the code mailed to it', async () => {
    // Act: the email is at the site's registrable domain, but nobody proved the address (DECISIONS "Scan modes" [attacker]).
    activeAudit = await scanned(() => submitLead('127.0.18.2', { email: 'owner@alpha.test', webUrl: siteOf('shop.alpha.test') }));

    // Assess
    expect(nonPassiveTraffic(siteOf('shop.alpha.test'))).toEqual([]);
    expect(connectedServicePorts()).toEqual([]);
    expect(axfrs('alpha.test')).toEqual([]);
    expect(await report(activeAudit)).toMatchObject({ scan_mode: 'passive', address_proof_pending: true });
  });

  it('once the code mailed to the address is confirmed, a new report is scanned active (the partial one stays, linked to it): the port sweep reaches every listening port, the exposure catalogue and TRACE are sent, the zone transfer is tried', async () => {
    // Act: the code from SES local, typed for the report.
    const mail = (await mailbox(t.stack.mailboxUrl, 'owner@alpha.test')).filter((m) => m.subject === 'Your Rampart verification code').at(-1);
    const code = /is: (\d{6})/.exec(mail?.body.text ?? '')?.[1];
    const partial = activeAudit;
    activeAudit = await scanned(async () => {
      const reply = await postJsonFrom('127.0.18.2', url(`/api/audits/${partial}/confirm-address`), { verificationCode: code });
      expect(reply.status, JSON.stringify(reply.body)).toBe(202);
      return String(reply.body.auditId);
    });
    expect(activeAudit).not.toBe(partial);
    expect(await report(partial)).toMatchObject({ scan_mode: 'passive', superseded_by: { audit_id: activeAudit } });

    // Assess
    expect(connectedServicePorts()).toEqual([...target.servicePorts].sort((a, b) => a - b));
    const paths = requestedPaths();
    expect(SENSITIVE_PATHS.map((rule) => rule.path).filter((path) => paths.has(path)).length).toBeGreaterThan(20);
    expect(target.requests.some((r) => r.method === 'TRACE')).toBe(true);
    expect(axfrs('alpha.test').map((q) => q.transport)).toEqual(['tcp']);
    const view = await report(activeAudit);
    expect(view.scan_mode).toBe('active');
    expect(view.coverage).toMatchObject({ mode: 'active', allowedMode: 'active' });
    expect((view.coverage.notChecked as NotCheckedItem[]).filter((item) => item.cause === 'passive' || item.cause === 'limit')).toEqual([]);
    expect(view.port_scan_results.map((p: { port_number: number }) => p.port_number)).toEqual(expect.arrayContaining(target.servicePorts));
  });
});

describe('unlocking a passive report', () => {
  let stranger: TestUser;

  beforeAll(async () => {
    [visitorUser, stranger] = await Promise.all([signIn(t, visitor.email, 'Vic'), signIn(t, 'stranger@elsewhere.test', 'Stan')]);
  });

  it("refuses another user's unlock with 403, even one who verified the domain, and queues nothing", async () => {
    // Prepare: the stranger proves beta.test too; the report is still the visitor's.
    await verifyDomainByDns(t, zone, stranger, 'beta.test');

    const reply = await api(t, 'POST', `/api/audits/${passiveAudit}/unlock`, stranger.token);

    expect([reply.status, reply.body]).toEqual([403, { error: 'audit_forbidden', message: unlockMessages.notYours }]);
    expect(await t.stack.deps.audits.getAudit(passiveAudit)).toMatchObject({ status: 'completed', mode: 'passive' });
  });

  it('refuses the owner before the domain is verified (403 domain_not_verified), and a paid audit of it too: no checkout session, no order', async () => {
    const unlock = await api(t, 'POST', `/api/audits/${passiveAudit}/unlock`, visitorUser.token);
    const checkout = await api(t, 'POST', '/api/checkout-sessions', visitorUser.token, { planId: 'basic-audit', auditId: passiveAudit });

    expect([unlock.status, unlock.body]).toEqual([403, { error: 'domain_not_verified', message: unlockMessages.notVerified('shop.beta.test') }]);
    expect([checkout.status, checkout.body.error]).toEqual([403, 'domain_not_verified']);
    expect(checkout.body.url).toBeUndefined();
    expect(await t.stack.deps.billing.listOrders(visitorUser.userId)).toEqual([]);
    expect(await t.stack.deps.audits.getAudit(passiveAudit)).toMatchObject({ status: 'completed', mode: 'passive' });
  });

  it('after the TXT record is published and verified: 202, and an active scan follows as a new report; the partial one stays as it was, linked to it', async () => {
    // Prepare
    await verifyDomainByDns(t, zone, visitorUser, 'beta.test');

    // Act
    const partialBefore = await report(passiveAudit);
    let reply: Awaited<ReturnType<typeof api>> | undefined;
    const fullAudit = await scanned(async () => {
      reply = await api(t, 'POST', `/api/audits/${passiveAudit}/unlock`, visitorUser.token);
      return String(reply.body.auditId);
    });

    // Assess
    expect(fullAudit).not.toBe(passiveAudit);
    expect([reply!.status, reply!.body]).toEqual([202, { auditId: fullAudit, status: 'queued', mode: 'active', message: unlockMessages.started }]);
    expect(connectedServicePorts()).toEqual([...target.servicePorts].sort((a, b) => a - b));
    expect(target.requests.some((r) => r.method === 'TRACE')).toBe(true);
    expect(axfrs('beta.test').map((q) => q.transport)).toEqual(['tcp']);
    const view = await report(fullAudit);
    expect([view.scan_mode, view.coverage.mode, view.coverage.allowedMode]).toEqual(['active', 'active', 'active']);
    expect((view.coverage.notChecked as NotCheckedItem[]).filter((item) => item.cause === 'passive')).toEqual([]);
    expect(view.counters.openPorts).toBeGreaterThanOrEqual(target.servicePorts.length);
    expect(view.supersedes).toEqual({ audit_id: passiveAudit, completed_at: partialBefore.completed_at });
    expect(modeLine(await pdfText(fullAudit))).toEqual(['active']);
    // The partial report: as it was (its mode, findings, times and score), and linked to the full one.
    const { superseded_by: supersededBy, ...partialAfter } = await report(passiveAudit);
    expect(partialAfter).toEqual(partialBefore);
    expect(supersededBy).toEqual({ audit_id: fullAudit, created_at: expect.any(String) });
    expect(modeLine(await pdfText(passiveAudit))).toEqual(['passive']);
  });

  it('refuses a second unlock of the partial report with 409 audit_superseded, and of the full one with 409 already_active', async () => {
    const again = await api(t, 'POST', `/api/audits/${passiveAudit}/unlock`, visitorUser.token);
    const full = String((await report(passiveAudit)).superseded_by.audit_id);
    const ofFull = await api(t, 'POST', `/api/audits/${full}/unlock`, visitorUser.token);

    expect([again.status, again.body]).toEqual([409, { error: 'audit_superseded', message: unlockMessages.superseded }]);
    expect([ofFull.status, ofFull.body]).toEqual([409, { error: 'already_active', message: unlockMessages.alreadyActive }]);
  });
});

describe('the other abuse paths', () => {
  it("refuses checkout for a same-domain lead's report until the buyer verified the domain (the email proves it for a free scan only)", async () => {
    const owner = await signIn(t, 'owner@alpha.test', 'Olive');

    const reply = await api(t, 'POST', '/api/checkout-sessions', owner.token, { planId: 'pro-audit', auditId: activeAudit });

    expect([reply.status, reply.body.error]).toEqual([403, 'domain_not_verified']);
    expect(await t.stack.deps.billing.listOrders(owner.userId)).toEqual([]);
  });

  it(`allows ${ACTIVE_PER_HOUR} active scan of a registrable domain an hour: the next runs passive, and its report says why`, async () => {
    // Prepare: the domain's active budget used by one same-domain lead, its address proven for both sites by code.
    await verifyAddress('127.0.18.3', 'owner@gamma.test', siteOf('shop.gamma.test'));
    await verifyAddress('127.0.18.3', 'owner@gamma.test', siteOf('blog.gamma.test'));
    await scanned(() => submitLead('127.0.18.3', { email: 'owner@gamma.test', webUrl: siteOf('shop.gamma.test') }));
    expect(connectedServicePorts()).toHaveLength(target.servicePorts.length);

    // Act: another same-domain lead, of another name of the same registrable domain.
    const limited = await scanned(() => submitLead('127.0.18.3', { email: 'owner@gamma.test', webUrl: siteOf('blog.gamma.test'), businessName: 'Blog' }));

    // Assess: passive traffic only …
    expect(nonPassiveTraffic(siteOf('blog.gamma.test'))).toEqual([]);
    expect(axfrs('gamma.test')).toHaveLength(1);
    // … and the report says it was the limit, not the requester's proof.
    const view = await report(limited);
    expect(view.scan_mode).toBe('passive');
    expect(view.coverage).toMatchObject({ mode: 'passive', allowedMode: 'active', partial: true });
    const notChecked = view.coverage.notChecked as NotCheckedItem[];
    expect(notChecked.map((item) => item.check)).toEqual(expect.arrayContaining(['ports', 'wordpress', 'dns', 'exposure']));
    expect(causes(notChecked)).toEqual(['limit']);
    expect(notChecked[0]!.reason).toContain(`This site already had ${ACTIVE_PER_HOUR} active scans from Rampart in the last hour`);
    expect(view.risk_score).toBeLessThanOrEqual(PARTIAL_SCORE_CAP);
  });

  it('keeps the limit for an unlock too: the unlocked rescan of a domain past its budget runs passive, and its report and PDF say why', async () => {
    // Prepare: gamma.test had its active scan of the hour (the test above); a foreign address's passive report of it, its owner verified.
    const { auditId, owner } = await passiveReportOfVerifiedOwner('reader@mailbox.test', '127.0.18.4', 'shop.gamma.test', 'gamma.test');
    expect(modeLine(await pdfText(auditId))).toEqual(['passive']);

    // Act
    let reply: Awaited<ReturnType<typeof api>> | undefined;
    const unlocked = await scanned(async () => {
      reply = await api(t, 'POST', `/api/audits/${auditId}/unlock`, owner.token);
      return String(reply.body.auditId);
    });

    // Assess
    expect(reply!.status).toBe(202);
    expect(nonPassiveTraffic(siteOf('shop.gamma.test'))).toEqual([]);
    const view = await report(unlocked);
    expect(view.coverage).toMatchObject({ mode: 'passive', allowedMode: 'active', partial: true });
    expect(causes(view.coverage.notChecked as NotCheckedItem[])).toEqual(['limit']);
    expect(modeLine(await pdfText(unlocked))).toEqual(['limited']);
    expect(modeLine(await pdfText(auditId))).toEqual(['passive']);

    // A report that ran passive under the limit may be unlocked again (later): not 409 already_active.
    let again: Awaited<ReturnType<typeof api>> | undefined;
    const third = await scanned(async () => {
      again = await api(t, 'POST', `/api/audits/${unlocked}/unlock`, owner.token);
      return String(again.body.auditId);
    });
    expect(again!.status).toBe(202);
    expect(new Set([auditId, unlocked, third]).size).toBe(3);
    expect((await report(unlocked)).superseded_by.audit_id).toBe(third);
    // Still within the hour: passive again, and it says why.
    expect(causes((await report(third)).coverage.notChecked as NotCheckedItem[])).toEqual(['limit']);
  });

  it('reads ?premium=true on a report address as nothing: the stored premium state answers', async () => {
    const [plain, flagged] = await Promise.all([report(activeAudit), report(activeAudit, '?premium=true')]);
    expect([flagged.is_premium, flagged.plan_type]).toEqual([false, null]);
    expect(flagged).toEqual(plain);
  });
});
