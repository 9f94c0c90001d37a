import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeps } from '../../lambdas/composition.js';
import { alertEmail, alertSms, changeSummaryParts, scanCompletedEmail } from '../../lambdas/domain/alert-messages.js';
import type { Audit } from '../../lambdas/domain/audit.js';
import { changeTitle, MONITORING_CADENCE, rescanSlotStart } from '../../lambdas/domain/monitoring.js';
import { diffScans, type KevCatalogue } from '../../lambdas/domain/monitoring-diff.js';
import { matchVulnerabilities } from '../../lambdas/scanner/vulndb/index.js';
import { afterMonitoringRescan, checkKevUpdates, INVALID_UNSUBSCRIBE_LINK, scheduleMonitoringRescans, sendWaitingAlerts, unsubscribeUrl } from '../../lambdas/use-cases/monitoring.js';
import { issueCounts } from '../../lambdas/domain/audit-view.js';
import { api, setSubscription, signIn, type TestUser, verifyDomainByDns } from '../support/accounts.js';
import { startTestStack, TEST_ZONE_RECORDS, type TestStack, waitForAudit } from '../support/local-stack.js';
import { type HttpOnlySite, LANDING_WITHOUT_SCRIPTS, startHttpOnlySite } from '../support/http-only-site.js';
import { portServices } from '../support/loopback-servers.js';
import { arrived, mailbox, smsOutbox } from '../support/post-from.js';
import { startZoneServer, type ZoneServer } from '../support/zone-server.js';

/**
 * Monitoring over the whole local stack (issue 8 "Monitoring", "Alerts"): the scheduler (driven here
 * with an injected clock) queues real rescans of sites on loopback whose open ports change between
 * scans; the scan worker compares each rescan with the previous one and alerts by email (read back
 * from SES local) and SMS (the local outbox) as the owner's preferences say, once per change.
 */

/** Each scenario's site has its own loopback address, so the ports planted for one never show on another. */
const WATCHED = { domain: 'watch.example.test', address: '127.0.0.9' };
const QUIET = { domain: 'quiet.example.test', address: '127.0.0.10' };
const KEV = { domain: 'kev.example.test' };
const DAY_MS = MONITORING_CADENCE['monitor-plus'].periodMs;

let t: TestStack;
let zone: ZoneServer;
let alice: TestUser; // Monitor Plus, mobile number, default preferences
let bob: TestUser; // Monitor Plus, mobile number, every notification off
let carol: TestUser; // Monitor Lite, mobile number: email alerts only
const ALICE_MOBILE = '+61412345678';
const BOB_MOBILE = '+61412345679';
const CAROL_MOBILE = '+61412345670';

/** Deps on the stack's emulators whose clock reads `now` (the scheduler, the rate limiter, claims). */
const at = (now: Date) => buildDeps(t.stack.config, { clock: { now: () => now } });

async function profileWithMobile(user: TestUser, mobileNumber: string): Promise<void> {
  expect((await api(t, 'PUT', '/api/me', user.token, { firstName: 'Test', lastName: 'User', company: '', mobileNumber })).status).toBe(200);
}

const ports = portServices();
const outbox = () => smsOutbox(t.stack.url);

/** Schedules at `now` and answers the rescans queued for one user. */
async function scheduleFor(now: Date, user: TestUser): Promise<string[]> {
  const { queued } = await scheduleMonitoringRescans(at(now), now);
  return queued.filter((q) => q.userId === user.userId).map((q) => q.auditId);
}

const completed = async (auditId: string): Promise<Audit> => {
  expect((await waitForAudit(t.stack.url, auditId, 60_000)).status).toBe('completed');
  return (await t.stack.deps.audits.getAudit(auditId))!;
};

const T0 = new Date();
/** Monitor Plus is daily: the next slot of a domain begins one day after the one T0 falls in. */
const nextDailySlot = (domain: string) => new Date(rescanSlotStart(domain, DAY_MS, T0).getTime() + DAY_MS);

/** The sites' landing pages on port 80 (DECISIONS "Rescan target": a scan that loads no page fixes nothing). */
let sites: HttpOnlySite[] = [];

beforeAll(async () => {
  sites = await Promise.all([WATCHED.address, QUIET.address].map((address) => startHttpOnlySite(address, LANDING_WITHOUT_SCRIPTS, 80)));
  zone = await startZoneServer({
    records: [
      ...TEST_ZONE_RECORDS,
      { name: WATCHED.domain, type: 'A', ttl: 60, data: WATCHED.address },
      { name: QUIET.domain, type: 'A', ttl: 60, data: QUIET.address },
    ],
  });
  t = await startTestStack({ SCAN_ALLOW_PRIVATE_TARGETS: '1', SCAN_RESOLVERS: `127.0.0.1:${zone.port}` });
  [alice, bob, carol] = await Promise.all([signIn(t, 'alice@monitoring.example.test', 'Alice'), signIn(t, 'bob@monitoring.example.test', 'Bob'), signIn(t, 'carol@monitoring.example.test', 'Carol')]);
  await setSubscription(t, alice.userId, 'monitor-plus', 'active');
  await setSubscription(t, bob.userId, 'monitor-plus', 'active');
  await setSubscription(t, carol.userId, 'monitor-lite', 'active');
  await profileWithMobile(alice, ALICE_MOBILE);
  await profileWithMobile(bob, BOB_MOBILE);
  await profileWithMobile(carol, CAROL_MOBILE);
  expect((await api(t, 'PUT', '/api/me/notifications', bob.token, { emailAlerts: false, scanCompletions: false, securityUpdates: false, marketingEmails: false })).status).toBe(200);
  await verifyDomainByDns(t, zone, alice, WATCHED.domain);
  await verifyDomainByDns(t, zone, bob, QUIET.domain);
  await verifyDomainByDns(t, zone, carol, KEV.domain);
}, 90_000);

afterAll(async () => {
  await ports.closeAll();
  await Promise.all(sites.map((site) => site.close()));
  await t?.close();
  await zone?.close();
});

describe('alerts after a monitoring rescan', () => {
  let first: Audit;
  let second: Audit;
  let bobSecondId: string;

  it('rescans, then alerts exactly the planted changes by email and SMS, with the scan-completed emails', async () => {
    // Prepare: VNC open at the first rescans; at the second, VNC closed and a database port open.
    const [vnc, quietVnc] = await Promise.all([ports.listen(WATCHED.address, 5900), ports.listen(QUIET.address, 5900)]);
    const { queued } = await scheduleMonitoringRescans(at(T0), T0);
    const firstOf = (user: TestUser) => queued.filter((q) => q.userId === user.userId).map((q) => q.auditId);
    expect(firstOf(alice)).toHaveLength(1);
    expect(firstOf(bob)).toHaveLength(1);
    [first] = await Promise.all([completed(firstOf(alice)[0]!), completed(firstOf(bob)[0]!)]);
    await Promise.all([ports.close(vnc), ports.close(quietVnc)]);
    await Promise.all([ports.listen(WATCHED.address, 3306), ports.listen(QUIET.address, 3306)]);

    // Act: the next daily slot of both domains.
    const T1 = new Date(Math.max(nextDailySlot(WATCHED.domain).getTime(), nextDailySlot(QUIET.domain).getTime()));
    const [aliceSecond, bobSecond] = [await scheduleFor(T1, alice), await scheduleFor(T1, bob)];
    expect(bobSecond).toEqual([]); // the run for Alice queued Bob's too: one run, one rescan per domain
    const both = (await scheduleMonitoringRescans(at(T1), T1)).queued;
    expect(both).toEqual([]);
    second = await completed(aliceSecond[0]!);
    bobSecondId = (await t.stack.deps.accounts.listOwnedAudits(bob.userId, 1)).audits[0]!.auditId;

    // Assess: the changes are the planted ones, and the email and SMS carry exactly them.
    const changes = diffScans({ previous: first, current: second });
    expect(changes.map((c) => `${c.type} ${'findingId' in c ? c.findingId : 'port' in c ? c.port : ''}`)).toEqual([
      'finding_new ports.database.exposed',
      'finding_resolved ports.remote-access.vnc',
      'port_opened 3306',
    ]);
    const reportUrl = `${t.stack.url}/results/${second.id}`;
    const unsubscribe = await unsubscribeUrl(t.stack.deps, alice.userId);
    const expected = alertEmail({ productName: 'Rampart', domain: WATCHED.domain, changes, reportUrl, unsubscribeUrl: unsubscribe });
    const mails = await arrived(() => mailbox(t.stack.mailboxUrl, alice.email), 3);
    const alerts = mails.filter((m) => m.subject.startsWith('Rampart alert for'));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.subject).toBe(expected.subject);
    expect(alerts[0]!.subject).toBe('Rampart alert for watch.example.test: 1 new issue (1 high), port 3306 opened, 1 issue resolved');
    expect(alerts[0]!.body.text).toBe(expected.text);
    expect(alerts[0]!.body.html).toBe(expected.html);
    expect(alerts[0]!.body.text).toContain('- [High] Database is open to the internet');
    expect(alerts[0]!.body.text).toContain(`View the report: ${reportUrl}`);

    const completions = mails.filter((m) => m.subject.startsWith('Rampart: scan of watch.example.test completed'));
    expect(completions.map((m) => m.body.text)).toEqual(
      [first, second].map(
        (audit, index) =>
          scanCompletedEmail({
            productName: 'Rampart',
            domain: WATCHED.domain,
            completedAt: audit.completedAt!,
            grade: audit.grade!,
            score: audit.score!,
            issues: issueCounts(audit.checks.flatMap((c) => c.findings)),
            changeCount: index === 0 ? 0 : changes.length,
            reportUrl: `${t.stack.url}/results/${audit.id}`,
            unsubscribeUrl: unsubscribe,
          }).text,
      ),
    );
    expect(mails).toHaveLength(3);

    const sms = await arrived(async () => (await outbox()).filter((m) => m.to === ALICE_MOBILE), 1);
    expect(sms.map((m) => m.body)).toEqual([alertSms({ productName: 'Rampart', domain: WATCHED.domain, changes, reportUrl })]);
    expect(sms[0]!.body).toBe(`Rampart: watch.example.test - 1 new issue (1 high), port 3306 opened, 1 issue resolved. ${reportUrl}`);
  }, 180_000);

  it('sends nothing when the owner turned the notifications off, though the rescans ran and found changes', async () => {
    const bobSecond = await completed(bobSecondId);
    const [bobFirst] = await t.stack.deps.audits.completedScansOfSite(QUIET.domain, { ownerId: bob.userId, completedBefore: bobSecond.completedAt!, limit: 1 });
    const changes = diffScans({ previous: (await t.stack.deps.audits.getAudit(bobFirst!.auditId))!, current: bobSecond });
    expect(bobSecond.origin).toBe('monitoring');
    expect(changes.map((c) => c.type)).toEqual(['finding_new', 'finding_resolved', 'port_opened']);
    // The same evaluation the worker makes (it may still be making it): found changes, alerted none.
    expect(await afterMonitoringRescan(t.stack.deps, bobSecondId)).toEqual({ changes, alert: 'nothing', scanCompletedEmail: false });

    expect(await mailbox(t.stack.mailboxUrl, bob.email)).toEqual([]);
    expect((await outbox()).filter((m) => m.to === BOB_MOBILE)).toEqual([]);
    expect((await api(t, 'GET', '/api/me/alerts', bob.token)).body).toEqual({ alerts: [], nextCursor: null });
  }, 120_000);

  it('alerts nothing twice: the same comparison again, and the same job delivered again', async () => {
    const mailsBefore = (await mailbox(t.stack.mailboxUrl)).length;
    const smsBefore = (await outbox()).length;

    const again = await afterMonitoringRescan(t.stack.deps, second.id);
    await t.stack.deps.scanJobs.enqueue({ auditId: second.id, kind: 'scan' }, 'monitoring');
    await new Promise((resolve) => setTimeout(resolve, 3_000));

    expect(again).toMatchObject({ alert: 'duplicate', scanCompletedEmail: false });
    expect(again!.changes).toHaveLength(3);
    expect((await mailbox(t.stack.mailboxUrl)).length).toBe(mailsBefore);
    expect((await outbox()).length).toBe(smsBefore);
  });

  it('lists the alerts sent, newest first, a page at a time', async () => {
    const changes = diffScans({ previous: first, current: second });
    const entry = (channel: string) => ({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      domain: WATCHED.domain,
      sentAt: expect.any(String),
      channel,
      summary: changeSummaryParts(changes).join(', '),
      changes: changes.map((c) => ({ type: c.type, title: changeTitle(c) })),
      auditId: second.id,
    });
    const all = await api(t, 'GET', '/api/me/alerts', alice.token);
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ alerts: [entry('sms'), entry('email')], nextCursor: null });
    expect(all.body.alerts[0].changes.map((c: { title: string }) => c.title)).toEqual([
      'New high issue: Database is open to the internet',
      'Resolved: VNC remote control is open to the internet',
      'Port 3306 (mysql) opened',
    ]);

    const page1 = await api(t, 'GET', '/api/me/alerts?limit=1', alice.token);
    expect(page1.body.alerts).toEqual([entry('sms')]);
    const page2 = await api(t, 'GET', `/api/me/alerts?limit=1&cursor=${page1.body.nextCursor as string}`, alice.token);
    expect(page2.body).toEqual({ alerts: [entry('email')], nextCursor: null });

    expect((await api(t, 'GET', '/api/me/alerts?limit=51', alice.token)).status).toBe(400);
    expect((await api(t, 'GET', `/api/me/alerts?cursor=${Buffer.from('AUDIT#x#y').toString('base64url')}`, alice.token)).status).toBe(400);
    expect((await api(t, 'GET', '/api/me/alerts')).status).toBe(401);
  });

  it('turns the monitoring emails off from the signed unsubscribe link, and refuses a forged one', async () => {
    const alert = (await mailbox(t.stack.mailboxUrl, alice.email)).find((m) => m.subject.startsWith('Rampart alert for'))!;
    const link = /(http\S+\/api\/alerts\/unsubscribe\?token=\S+)/.exec(alert.body.text!)![1]!;
    const token = new URL(link).searchParams.get('token')!;
    const at = token.length - 10; // inside the MAC
    const forged = `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
    const otherUser = token.replace(/^v1\.[^.]+/, `v1.${Buffer.from(bob.userId).toString('base64url')}`);

    for (const bad of [forged, otherUser, '', 'v1.x.y']) {
      const refused = await api(t, 'GET', `/api/alerts/unsubscribe?token=${encodeURIComponent(bad)}`);
      expect([refused.status, refused.body]).toEqual([400, { error: 'validation_failed', message: INVALID_UNSUBSCRIBE_LINK, fields: { token: INVALID_UNSUBSCRIBE_LINK } }]);
    }
    expect((await api(t, 'GET', '/api/me/notifications', alice.token)).body).toEqual({ emailAlerts: true, scanCompletions: true, securityUpdates: true, marketingEmails: false });
    expect((await api(t, 'GET', '/api/me/notifications', bob.token)).body).toMatchObject({ emailAlerts: false });

    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('<h1>You are unsubscribed</h1>');
    expect((await api(t, 'GET', '/api/me/notifications', alice.token)).body).toEqual({ emailAlerts: false, scanCompletions: false, securityUpdates: false, marketingEmails: false });
    expect((await fetch(link)).status).toBe(200);
  });
});

describe('known exploited vulnerabilities without a rescan', () => {
  /** The range's WordPress host as stored by a real scan (OpenSSL 3.0.19 among its software), now Carol's domain. */
  const fixture = JSON.parse(readFileSync(new URL('../fixtures/audits/range-wordpress.json', import.meta.url), 'utf8').replaceAll('wp.example.test', KEV.domain)) as Audit;
  /** The knowledge base as an update would have it: these CVEs newly in CISA's catalogue. */
  const withExploited = (ids: string[]): KevCatalogue => (product, version) => {
    const match = matchVulnerabilities(product, version);
    return { ...match, vulnerabilities: match.vulnerabilities.map((v) => (ids.includes(v.id) ? { ...v, exploited: true, kevDateAdded: '2026-11-20', ransomware: false } : v)) };
  };
  /** Five minutes into the next hour: every step below knows which hourly window it is in. */
  const HOUR = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 5 * 60_000);

  beforeAll(async () => {
    const { checks, ...head } = fixture;
    const audit = { ...head, id: crypto.randomUUID(), ownerId: carol.userId, status: 'queued' as const, checks: [], createdAt: new Date().toISOString() };
    await t.stack.deps.audits.createAudit(audit);
    await t.stack.deps.audits.markInProgress(audit.id, audit.createdAt);
    for (const check of checks) await t.stack.deps.audits.saveCheck(audit.id, check);
    await t.stack.deps.audits.complete(audit.id, { score: fixture.score!, grade: fixture.grade!, riskLevel: fixture.riskLevel!, completedAt: new Date().toISOString() });
  });

  it('alerts a newly exploited CVE in a monitored site’s software once, by email only on Monitor Lite', async () => {
    const first = await checkKevUpdates(at(HOUR), withExploited(['CVE-2026-45447']));
    const again = await checkKevUpdates(at(HOUR), withExploited(['CVE-2026-45447']));

    expect(first).toMatchObject({ changes: 1, alerts: 1 });
    expect(again).toMatchObject({ changes: 1, alerts: 0 });
    const mails = await mailbox(t.stack.mailboxUrl, carol.email);
    expect(mails.map((m) => m.subject)).toEqual(['Rampart alert for kev.example.test: CVE-2026-45447 exploited in the wild']);
    expect(mails[0]!.body.text).toContain('CVE-2026-45447 in OpenSSL 3.0.19 is now known to be exploited in the wild (CISA KEV, listed 20 Nov 2026).');
    expect((await outbox()).filter((m) => m.to === CAROL_MOBILE)).toEqual([]);
  });

  it('holds a second alert within the hour and sends it when the hour is over', async () => {
    const other = matchVulnerabilities('openssl', '3.0.19').vulnerabilities.find((v) => !v.exploited && v.id !== 'CVE-2026-45447')!;

    const held = await checkKevUpdates(at(HOUR), withExploited(['CVE-2026-45447', other.id]));
    const stillHeld = await sendWaitingAlerts(at(new Date(HOUR.getTime() + 30 * 60_000)));
    const mailsWhileHeld = await mailbox(t.stack.mailboxUrl, carol.email);
    const sent = await sendWaitingAlerts(at(new Date(HOUR.getTime() + 60 * 60_000)));
    const sentAgain = await sendWaitingAlerts(at(new Date(HOUR.getTime() + 2 * 60 * 60_000)));

    expect(held).toMatchObject({ changes: 2, alerts: 1 });
    expect([stillHeld, sent, sentAgain]).toEqual([0, 1, 0]);
    expect(mailsWhileHeld).toHaveLength(1);
    const mails = await mailbox(t.stack.mailboxUrl, carol.email);
    expect(mails.map((m) => m.subject)).toEqual([
      'Rampart alert for kev.example.test: CVE-2026-45447 exploited in the wild',
      `Rampart alert for kev.example.test: ${other.id} exploited in the wild`,
    ]);
  });
});
