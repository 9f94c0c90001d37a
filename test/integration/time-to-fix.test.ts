import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeps } from '../../lambdas/composition.js';
import type { Audit } from '../../lambdas/domain/audit.js';
import { MONITORING_CADENCE, rescanSlotStart } from '../../lambdas/domain/monitoring.js';
import { TIME_TO_FIX_TARGET_DAYS } from '../../lambdas/domain/time-to-fix.js';
import type { TimeToFixSummaryView } from '../../lambdas/domain/time-to-fix.contract.js';
import { afterMonitoringRescan, sendWaitingAlerts } from '../../lambdas/use-cases/monitoring.js';
import { api, setSubscription, signIn, type TestUser, verifyDomainByDns } from '../support/accounts.js';
import { startTestStack, TEST_ZONE_RECORDS, type TestStack } from '../support/local-stack.js';
import { type HttpOnlySite, LANDING_WITHOUT_SCRIPTS, startHttpOnlySite } from '../support/http-only-site.js';
import { portServices } from '../support/loopback-servers.js';
import { monitoringRescan } from '../support/monitoring-rescan.js';
import { mailbox } from '../support/post-from.js';
import { startZoneServer, type ZoneServer } from '../support/zone-server.js';

/**
 * Time-to-fix over the whole local stack (issue 21 item 4): a monitored domain on loopback has VNC
 * open at one monitoring rescan (an issue appears) and closed at the next (it is fixed). The real
 * scheduler queues the rescans, the real worker scans and folds each into the stored issue history;
 * `GET /api/me/time-to-fix` shows the issue open with its due date, then fixed with its time to fix,
 * to its owner only. Back at a third rescan, with its first sighting moved past its target, the
 * issue reopens overdue and the alert email names it.
 */

const SITE = { domain: 'fixes.example.test', address: '127.0.0.71' };
const VNC = 'ports.remote-access.vnc';
const DAY_MS = 86_400_000;
const PERIOD = MONITORING_CADENCE['monitor-plus'].periodMs;

let t: TestStack;
let zone: ZoneServer;
let owner: TestUser;
let other: TestUser;
const ports = portServices();

const at = (now: Date) => buildDeps(t.stack.config, { clock: { now: () => now } });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The owner's one monitoring rescan at `now`, completed and folded into the issue history. */
const rescanAt = (now: Date): Promise<Audit> => monitoringRescan(t, owner, SITE.domain, now);

/** Sends the alerts waiting for the domain's hour (as the scheduler does once it is over) until an email holding `text` arrives. */
async function alertHolding(text: string) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    await sendWaitingAlerts(at(new Date(Date.now() + 3_600_000)));
    const found = (await mailbox(t.stack.mailboxUrl, owner.email)).filter((m) => m.body.text?.includes(text) === true);
    if (found.length > 0 || Date.now() > deadline) return found;
    await sleep(200);
  }
}

const timeToFix = async (user: TestUser, query = '') => {
  const reply = await api(t, 'GET', `/api/me/time-to-fix${query}`, user.token);
  expect(reply.status).toBe(200);
  return reply.body as TimeToFixSummaryView;
};

/** The sites' landing pages on port 80 (DECISIONS "Rescan target": a scan that loads no page fixes nothing). */
let sites: HttpOnlySite[] = [];

beforeAll(async () => {
  sites = await Promise.all([SITE.address].map((address) => startHttpOnlySite(address, LANDING_WITHOUT_SCRIPTS, 80)));
  zone = await startZoneServer({ records: [...TEST_ZONE_RECORDS, { name: SITE.domain, type: 'A', ttl: 60, data: SITE.address }] });
  t = await startTestStack({ SCAN_ALLOW_PRIVATE_TARGETS: '1', SCAN_RESOLVERS: `127.0.0.1:${zone.port}` });
  [owner, other] = await Promise.all([signIn(t, 'owner@fixes.example.test', 'Olive'), signIn(t, 'other@elsewhere.example.test', 'Oscar')]);
  await setSubscription(t, owner.userId, 'monitor-plus', 'active');
  // The profile (made at the first signed-in request) is what the rescans' alerts are sent by.
  expect((await api(t, 'PUT', '/api/me', owner.token, { firstName: 'Olive', lastName: 'Owner', company: '' })).status).toBe(200);
  await verifyDomainByDns(t, zone, owner, SITE.domain);
}, 90_000);

afterAll(async () => {
  await ports.closeAll();
  await Promise.all(sites.map((site) => site.close()));
  await t?.close();
  await zone?.close();
});

describe('time-to-fix of a monitored domain', () => {
  let first: Audit;
  let second: Audit;
  let T1: Date;

  it('an issue that appears at a rescan is stored open with its first seen and due date, and shown by the API', async () => {
    // Prepare: VNC answers on the site's address.
    const vnc = await ports.listen(SITE.address, 5900);
    const T0 = new Date();

    // Act: the first monitoring rescan.
    first = await rescanAt(T0);
    await ports.close(vnc);

    // Assess: the stored history and the API.
    const vncFinding = first.checks.flatMap((c) => c.findings).find((f) => f.id === VNC);
    expect(vncFinding?.severity).toBeDefined();
    const stored = await t.stack.deps.issueHistory.get(owner.userId, SITE.domain);
    expect([stored?.lastAuditId, stored?.lastScanAt]).toEqual([first.id, first.completedAt]);
    const occurrence = stored!.occurrences.find((o) => o.findingId === VNC)!;
    expect(occurrence).toMatchObject({ firstSeenAt: first.completedAt, firstSeenAuditId: first.id, lastSeenAt: first.completedAt, check: 'ports', reopened: 0 });
    expect(occurrence.fixedAt).toBeUndefined();

    const shown = await timeToFix(owner);
    const open = shown.open.find((o) => o.findingId === VNC);
    const target = TIME_TO_FIX_TARGET_DAYS[occurrence.severity];
    expect(open).toMatchObject({
      domain: SITE.domain,
      firstSeenAt: first.completedAt,
      fixedAt: null,
      targetDays: target,
      dueAt: new Date(Date.parse(first.completedAt!) + target * DAY_MS).toISOString(),
      overdue: false,
      ageDays: 0,
      timeToFixDays: null,
    });
    expect(shown.fixedTotal).toBe(0);
    expect(shown.openByAge[0]!.open).toBe(shown.openTotal);
    expect(shown.recentFixes).toEqual([]);
  });

  it('is fixed at the next rescan that no longer sees it: the time to fix is stored and shown, on time', async () => {
    // Act: the domain's next daily slot, VNC closed.
    T1 = new Date(rescanSlotStart(SITE.domain, PERIOD, new Date()).getTime() + PERIOD);
    second = await rescanAt(T1);

    // Assess: fixed at the second rescan's completion, in the table and in the API.
    expect(second.checks.flatMap((c) => c.findings).some((f) => f.id === VNC)).toBe(false);
    const stored = await t.stack.deps.issueHistory.get(owner.userId, SITE.domain);
    const occurrence = stored!.occurrences.find((o) => o.findingId === VNC)!;
    expect(occurrence).toMatchObject({ firstSeenAt: first.completedAt, fixedAt: second.completedAt, fixedAuditId: second.id });
    expect(stored?.lastAuditId).toBe(second.id);

    const shown = await timeToFix(owner);
    const expectedDays = (Date.parse(second.completedAt!) - Date.parse(first.completedAt!)) / DAY_MS;
    expect(shown.open.some((o) => o.findingId === VNC)).toBe(false);
    expect(shown.recentFixes.find((o) => o.findingId === VNC)).toMatchObject({
      domain: SITE.domain,
      firstSeenAt: first.completedAt,
      fixedAt: second.completedAt,
      timeToFixDays: expectedDays,
      fixedOnTime: true,
      overdue: false,
    });
    expect(expectedDays).toBeGreaterThan(0);
    const month = shown.byMonth.at(-1)!;
    expect(month.month).toBe(second.completedAt!.slice(0, 7));
    expect(month.fixed).toBeGreaterThanOrEqual(1);
    expect(shown.fixedOnTimeShare).toBe(1);
    expect(await timeToFix(owner, `?domain=${SITE.domain}`)).toEqual({ ...shown, asOf: expect.any(String) });
  });

  it('a redelivered rescan changes nothing: the history holds each scan once', async () => {
    const before = await t.stack.deps.issueHistory.get(owner.userId, SITE.domain);

    await afterMonitoringRescan(t.stack.deps, second.id);
    await afterMonitoringRescan(t.stack.deps, first.id);

    expect(await t.stack.deps.issueHistory.get(owner.userId, SITE.domain)).toEqual(before);
  });

  it('an issue back soon after its fix reopens with its first sighting, and once past its target the alert names it overdue', async () => {
    // Prepare: the stored history as if VNC had first been seen (target + 3) days ago; VNC answers again.
    const stored = (await t.stack.deps.issueHistory.get(owner.userId, SITE.domain))!;
    const occurrence = stored.occurrences.find((o) => o.findingId === VNC)!;
    const target = TIME_TO_FIX_TARGET_DAYS[occurrence.severity];
    const firstSeenAt = new Date(Date.now() - (target + 3) * DAY_MS).toISOString();
    const backdated = { ...stored, occurrences: stored.occurrences.map((o) => (o.findingId === VNC ? { ...o, firstSeenAt } : o)) };
    expect(await t.stack.deps.issueHistory.save(owner.userId, backdated, stored.lastScanAt)).toBe(true);
    const vnc = await ports.listen(SITE.address, 5900);

    // Act: the third rescan (its alert waits for the domain's hour: the second rescan alerted the fix), then the hour is over.
    const third = await rescanAt(new Date(T1.getTime() + PERIOD));
    await ports.close(vnc);
    const mails = await alertHolding('Overdue issues (');

    // Assess: reopened, not a new occurrence; overdue in the API and named in the alert.
    const after = (await t.stack.deps.issueHistory.get(owner.userId, SITE.domain))!;
    const vncs = after.occurrences.filter((o) => o.findingId === VNC);
    expect(vncs).toHaveLength(1);
    expect(vncs[0]).toMatchObject({ firstSeenAt, lastSeenAt: third.completedAt, reopened: 1 });
    expect(vncs[0]!.fixedAt).toBeUndefined();
    const shown = await timeToFix(owner);
    expect(shown.open.find((o) => o.findingId === VNC)).toMatchObject({ overdue: true, ageDays: target + 3, fixedAt: null });
    expect(shown.overdueTotal).toBeGreaterThanOrEqual(1);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain('overdue');
    expect(mails[0]!.body.text).toContain(`] ${vncs[0]!.title} (`);
    expect(mails[0]!.body.text).toContain(`(${target}-day target for ${vncs[0]!.severity} issues), 3 days overdue.`);
  });

  it("is in the owner's own data export", async () => {
    const exported = await api(t, 'GET', '/api/me/export', owner.token);

    expect(exported.status).toBe(200);
    expect(exported.body.issueHistories).toEqual([await t.stack.deps.issueHistory.get(owner.userId, SITE.domain)]);
  });

  it("shows another user none of it, and refuses them the owner's domain", async () => {
    const theirs = await timeToFix(other);
    const asked = await api(t, 'GET', `/api/me/time-to-fix?domain=${SITE.domain}`, other.token);

    expect([theirs.openTotal, theirs.fixedTotal, theirs.domains, theirs.open, theirs.recentFixes]).toEqual([0, 0, [], [], []]);
    expect([asked.status, asked.body.error]).toEqual([404, 'domain_not_found']);
    expect((await api(t, 'GET', '/api/me/time-to-fix')).status).toBe(401);
  });
});
