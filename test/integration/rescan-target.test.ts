import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Audit } from '../../lambdas/domain/audit.js';
import type { EssentialEightView } from '../../lambdas/domain/essential-eight.contract.js';
import { MONITORING_CADENCE, rescanSlotStart } from '../../lambdas/domain/monitoring.js';
import type { TimeToFixSummaryView } from '../../lambdas/domain/time-to-fix.contract.js';
import { afterMonitoringRescan } from '../../lambdas/use-cases/monitoring.js';
import { api, setSubscription, signIn, type TestUser, verifyDomainByDns } from '../support/accounts.js';
import { type HttpOnlySite, LANDING_WITHOUT_SCRIPTS, startHttpOnlySite } from '../support/http-only-site.js';
import { portServices } from '../support/loopback-servers.js';
import { startTestStack, TEST_ZONE_RECORDS, type TestStack, validLead, waitForAudit } from '../support/local-stack.js';
import { monitoringRescan } from '../support/monitoring-rescan.js';
import { mailbox } from '../support/post-from.js';
import { startZoneServer, type ZoneServer } from '../support/zone-server.js';

/**
 * DECISIONS "Rescan target" over the whole local stack (issue 27 item 3): a monitored site that
 * only speaks http, on a loopback address of its own (nothing on 443; a TLS client on its port gets
 * no handshake), with an exploited jQuery. The owner's first scan was of http://; the real
 * scheduler's rescans must scan http:// too (read off the requests the site recorded), still find
 * the jQuery issue, and neither resolve it, alert it resolved nor count it fixed. A rescan that
 * could not load the page (the host stopped answering: the site and its VNC port) fixes nothing
 * either, not even the VNC issue its port scan no longer saw; only a rescan of the same site that
 * no longer finds an issue resolves it.
 */

const SITE = { domain: 'plain-shop.example.test', address: '127.0.0.83' };
const JQUERY = 'cve.jquery';
const VNC = 'ports.remote-access.vnc';
const ports = portServices();
const PERIOD = MONITORING_CADENCE['monitor-plus'].periodMs;

let t: TestStack;
let zone: ZoneServer;
let site: HttpOnlySite;
let owner: TestUser;
let siteUrl: string;
let vnc: Awaited<ReturnType<typeof ports.listen>>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ids = (audit: Audit) => audit.checks.flatMap((c) => c.findings.map((f) => f.id));
const check = (audit: Audit, name: string) => audit.checks.find((c) => c.name === name);

/** The owner's one rescan at the domain's k-th daily slot from now, completed and folded into time-to-fix. */
let slot = 0;
async function rescan(): Promise<Audit> {
  slot += 1;
  const now = new Date(rescanSlotStart(SITE.domain, PERIOD, new Date()).getTime() + slot * PERIOD);
  return monitoringRescan(t, owner, SITE.domain, now, 90_000);
}

const timeToFix = async () => {
  const reply = await api(t, 'GET', '/api/me/time-to-fix', owner.token);
  expect(reply.status).toBe(200);
  return reply.body as TimeToFixSummaryView;
};
const patchApplications = async () => {
  const reply = await api(t, 'GET', `/api/me/essential-eight/${SITE.domain}`, owner.token);
  expect(reply.status).toBe(200);
  return (reply.body as EssentialEightView).strategies.find((s) => s.id === 'patch-applications')!;
};
const alertMails = async () => (await mailbox(t.stack.mailboxUrl, owner.email)).filter((m) => m.subject.startsWith(`Rampart alert for ${SITE.domain}`));
/** Every change the worker's comparison found for a rescan (the same evaluation, made again: each change still alerts once). */
const changesOf = async (audit: Audit) => (await afterMonitoringRescan(t.stack.deps, audit.id))!.changes.map((c) => `${c.type} ${'findingId' in c ? c.findingId : ''}`.trim());

beforeAll(async () => {
  site = await startHttpOnlySite(SITE.address);
  vnc = await ports.listen(SITE.address, 5900);
  siteUrl = `http://${SITE.domain}:${site.port}/`;
  zone = await startZoneServer({ records: [...TEST_ZONE_RECORDS, { name: SITE.domain, type: 'A', ttl: 60, data: SITE.address }] });
  t = await startTestStack({ SCAN_ALLOW_PRIVATE_TARGETS: '1', SCAN_RESOLVERS: `127.0.0.1:${zone.port}`, SCAN_ACTIVE_PER_TARGET_PER_HOUR: '50' });
  owner = await signIn(t, `owner@${SITE.domain}`, 'Petra');
  await setSubscription(t, owner.userId, 'monitor-plus', 'active');
  expect((await api(t, 'PUT', '/api/me', owner.token, { firstName: 'Petra', lastName: 'Plain', company: '' })).status).toBe(200);
  await verifyDomainByDns(t, zone, owner, SITE.domain);
}, 90_000);

afterAll(async () => {
  await ports.closeAll();
  await site?.close();
  await t?.close();
  await zone?.close();
});

describe('a monitored http-only site', () => {
  let first: Audit;
  let second: Audit;

  it('the owner’s scan of http:// finds the exploited jQuery on the page it loaded', async () => {
    const reply = await api(t, 'POST', '/api/leads', owner.token, { ...validLead, email: owner.email, webUrl: siteUrl });
    expect(reply.status).toBe(201);
    const auditId = String(reply.body.auditId);
    expect((await waitForAudit(t.stack.url, auditId, 90_000)).status).toBe('completed');
    first = (await t.stack.deps.audits.getAudit(auditId))!;

    expect(first.targetUrl).toBe(siteUrl);
    expect(check(first, 'http')?.data).toMatchObject({ url: siteUrl, analyzed: 'http', observatory: { statusCode: 200 } });
    const jquery = first.checks.flatMap((c) => c.findings).find((f) => f.id === JQUERY);
    expect(jquery?.cveDetails?.some((cve) => cve.exploited)).toBe(true);
    expect(ids(first)).toContain(VNC);
  }, 120_000);

  it('is rescanned over http at its own port, still has the jQuery issue, and nothing is resolved or fixed', async () => {
    site.requests.length = 0;

    second = await rescan();

    // The scan the scheduler queued, and the requests the site got.
    expect(second.targetUrl).toBe(siteUrl);
    expect(second.origin).toBe('monitoring');
    const landing = site.requests.filter((r) => r.method === 'GET' && r.path === '/');
    expect(landing.length).toBeGreaterThan(0);
    expect(landing.map((r) => `${r.port} ${r.host}`)).toEqual(landing.map(() => `${site.port} ${SITE.domain}:${site.port}`));
    expect(check(second, 'software')?.status).toBe('ok');
    expect(ids(second)).toContain(JQUERY);
    expect(await changesOf(second)).not.toContain(`finding_resolved ${JQUERY}`);

    const shown = await timeToFix();
    expect(shown.open.find((o) => o.findingId === JQUERY)).toMatchObject({ firstSeenAt: first.completedAt, fixedAt: null });
    expect([shown.fixedTotal, shown.fixedOnTimeShare]).toEqual([0, null]);
    expect((await patchApplications()).status).toBe('evidence-against');
    expect((await alertMails()).filter((m) => m.body.text?.includes('resolved'))).toEqual([]);
  }, 150_000);

  it('a rescan whose landing page did not load fixes nothing, sends no resolved alert and is never a full scan', async () => {
    await Promise.all([site.stop(), ports.close(vnc)]);
    let down: Audit;
    try {
      down = await rescan();
    } finally {
      await site.start();
      vnc = await ports.listen(SITE.address, 5900);
    }

    expect(down.targetUrl).toBe(siteUrl);
    expect(check(down, 'http')?.status).not.toBe('ok');
    expect(ids(down)).not.toContain(JQUERY);
    // The port scan ran and no longer saw VNC: without the page, that is no fix either.
    expect(check(down, 'ports')?.status).toBe('ok');
    expect(ids(down)).not.toContain(VNC);
    expect(await changesOf(down)).toEqual([]);
    const report = await api(t, 'GET', `/api/audits/${down.id}`, owner.token);
    expect((report.body.result as { coverage: { partial: boolean } }).coverage.partial).toBe(true);

    const shown = await timeToFix();
    expect(shown.open.filter((o) => [JQUERY, VNC].includes(o.findingId)).map((o) => [o.findingId, o.fixedAt]).sort()).toEqual([
      [JQUERY, null],
      [VNC, null],
    ]);
    expect(shown.fixedTotal).toBe(0);
    expect((await patchApplications()).status).not.toBe('evidence-for');
    expect((await alertMails()).filter((m) => m.body.text?.includes('resolved'))).toEqual([]);
  }, 150_000);

  it('once the site answers again its rescans go back to http://, and only the one that no longer finds jQuery resolves it', async () => {
    const back = await rescan();
    expect(back.targetUrl).toBe(siteUrl);
    expect(ids(back)).toEqual(expect.arrayContaining([JQUERY, VNC]));
    expect(await changesOf(back)).toEqual([]);

    site.setLanding(LANDING_WITHOUT_SCRIPTS);
    const fixed = await rescan();

    expect(fixed.targetUrl).toBe(siteUrl);
    expect(ids(fixed)).not.toContain(JQUERY);
    expect(await changesOf(fixed)).toContain(`finding_resolved ${JQUERY}`);
    expect(await changesOf(fixed)).not.toContain(`finding_resolved ${VNC}`);
    const shown = await timeToFix();
    expect(shown.recentFixes.find((o) => o.findingId === JQUERY)).toMatchObject({ fixedAt: fixed.completedAt, fixedOnTime: true });
    const deadline = Date.now() + 20_000;
    while ((await alertMails()).length === 0 && Date.now() < deadline) await sleep(200);
    expect((await alertMails()).map((m) => m.subject)).toEqual([expect.stringContaining('resolved')]);
  }, 240_000);

  it('a Quick Scan of the domain scans the same http:// site', async () => {
    site.requests.length = 0;
    const reply = await api(t, 'POST', '/api/me/scans', owner.token, { domain: SITE.domain });
    expect(reply.status).toBe(201);
    const auditId = String(reply.body.auditId);
    expect((await waitForAudit(t.stack.url, auditId, 90_000)).status).toBe('completed');
    const quick = (await t.stack.deps.audits.getAudit(auditId))!;

    expect(quick.targetUrl).toBe(siteUrl);
    expect(check(quick, 'software')?.status).toBe('ok');
    expect(site.requests.filter((r) => r.path === '/').map((r) => r.port)).toEqual(expect.arrayContaining([site.port]));
  }, 120_000);
});
