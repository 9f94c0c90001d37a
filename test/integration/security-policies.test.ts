import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeps } from '../../lambdas/composition.js';
import { alertEmail, alertSms } from '../../lambdas/domain/alert-messages.js';
import type { Audit } from '../../lambdas/domain/audit.js';
import { changeTitle, MONITORING_CADENCE, rescanSlotStart } from '../../lambdas/domain/monitoring.js';
import { diffScans } from '../../lambdas/domain/monitoring-diff.js';
import { policyMessages } from '../../lambdas/domain/security-policy.contract.js';
import { scheduleMonitoringRescans, unsubscribeUrl } from '../../lambdas/use-cases/monitoring.js';
import { addDomain, api, setSubscription, signIn, type TestUser, verifyDomainByDns } from '../support/accounts.js';
import { startTestStack, TEST_ZONE_RECORDS, type TestStack, waitForAudit } from '../support/local-stack.js';
import { type HttpOnlySite, LANDING_WITHOUT_SCRIPTS, startHttpOnlySite } from '../support/http-only-site.js';
import { portServices } from '../support/loopback-servers.js';
import { arrived, mailbox, smsOutbox } from '../support/post-from.js';
import { startZoneServer, type ZoneServer } from '../support/zone-server.js';

/**
 * Custom security policies over the whole local stack (DECISIONS "Plan features"): the API on the
 * emulators (create, replace, list, remove; the plan's gate; another user's policies out of reach;
 * bad input refused with nothing stored), the account's export and deletion, a deleted domain's
 * policies going with it, and a monitoring rescan whose muted new finding alerts nothing while an
 * unmuted one alerts by email and SMS.
 */

/** Alice's monitored site, on a loopback address of its own so ports planted here show nowhere else. */
const SITE = { domain: 'policies.example.test', address: '127.0.0.41' };
const PENDING = 'pending-policies.example.test';
const ALICE_MOBILE = '+61412345611';
const DAY_MS = MONITORING_CADENCE['monitor-plus'].periodMs;

let t: TestStack;
let zone: ZoneServer;
let alice: TestUser; // Monitor Plus, SITE verified, PENDING added but not verified
let bob: TestUser; // Monitor Plus, no domains
let trent: TestUser; // the trial: no custom policies
let lena: TestUser; // Monitor Lite: no custom policies

const path = (domain: string, findingId: string) => `/api/me/policies/${encodeURIComponent(domain)}/${encodeURIComponent(findingId)}`;
const policiesOf = async (user: TestUser, query = '') => (await api(t, 'GET', `/api/me/policies${query}`, user.token)).body;

/** The site's landing page on port 80 (DECISIONS "Rescan target": a rescan that loads no page compares nothing). */
let site: HttpOnlySite | undefined;

beforeAll(async () => {
  site = await startHttpOnlySite(SITE.address, LANDING_WITHOUT_SCRIPTS, 80);
  zone = await startZoneServer({
    records: [
      ...TEST_ZONE_RECORDS,
      { name: SITE.domain, type: 'A', ttl: 60, data: SITE.address },
    ],
  });
  t = await startTestStack({ SCAN_ALLOW_PRIVATE_TARGETS: '1', SCAN_RESOLVERS: `127.0.0.1:${zone.port}` });
  [alice, bob, trent, lena] = await Promise.all([
    signIn(t, 'alice@policies.example.test', 'Alice'),
    signIn(t, 'bob@policies.example.test', 'Bob'),
    signIn(t, 'trent@policies.example.test', 'Trent'),
    signIn(t, 'lena@policies.example.test', 'Lena'),
  ]);
  await setSubscription(t, alice.userId, 'monitor-plus', 'active');
  await setSubscription(t, bob.userId, 'monitor-plus', 'active');
  await setSubscription(t, lena.userId, 'monitor-lite', 'active');
  expect((await api(t, 'PUT', '/api/me', alice.token, { firstName: 'Alice', lastName: 'Tester', company: '', mobileNumber: ALICE_MOBILE })).status).toBe(200);
  await verifyDomainByDns(t, zone, alice, SITE.domain);
  expect((await api(t, 'POST', '/api/me/domains', alice.token, { domain: PENDING })).status).toBe(201);
}, 90_000);

afterAll(async () => {
  await ports.closeAll();
  await site?.close();
  await t?.close();
  await zone?.close();
});

describe('the policies API', () => {
  it('requires a signed-in user on every route', async () => {
    expect((await api(t, 'GET', '/api/me/policies')).status).toBe(401);
    expect((await api(t, 'PUT', path(SITE.domain, 'tls.protocol.tls10'), undefined, { action: 'accept', reason: 'Needed' })).status).toBe(401);
    expect((await api(t, 'DELETE', path(SITE.domain, 'tls.protocol.tls10'))).status).toBe(401);
  });

  it('creates, lists, replaces and removes a policy of a verified domain', async () => {
    // Act: create, then replace the same finding's policy with a mute that expires.
    const created = await api(t, 'PUT', path(`www.${SITE.domain}`, 'tls.protocol.tls10'), alice.token, { action: 'accept', reason: '  A legacy till needs TLS 1.0  ' });
    const expiresAt = new Date(Date.now() + 30 * DAY_MS).toISOString();
    const replaced = await api(t, 'PUT', path(SITE.domain, 'tls.protocol.tls10'), alice.token, { action: 'mute', reason: 'Till replaced in March', expiresAt });
    const other = await api(t, 'PUT', path(SITE.domain, 'dns.caa.missing'), alice.token, { action: 'accept', reason: 'Our registrar has no CAA' });

    // Assess: 201 for a new policy, 200 for a replacement; the site key, the trimmed reason, the author.
    expect(created.status).toBe(201);
    expect(created.body.policy).toEqual({
      domain: SITE.domain,
      findingId: 'tls.protocol.tls10',
      action: 'accept',
      reason: 'A legacy till needs TLS 1.0',
      expiresAt: null,
      createdAt: expect.any(String),
      createdBy: alice.email,
      active: true,
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.policy).toMatchObject({ action: 'mute', reason: 'Till replaced in March', expiresAt, active: true });
    expect(other.status).toBe(201);
    const listed = await policiesOf(alice);
    expect(listed.canManage).toBe(true);
    expect(listed.policies).toEqual([other.body.policy, replaced.body.policy]);
    expect((await policiesOf(alice, `?domain=${SITE.domain}`)).policies).toHaveLength(2);
    expect((await policiesOf(alice, `?domain=${PENDING}`)).policies).toEqual([]);

    // Act + Assess: removal, once.
    expect((await api(t, 'DELETE', path(SITE.domain, 'dns.caa.missing'), alice.token)).status).toBe(204);
    const again = await api(t, 'DELETE', path(SITE.domain, 'dns.caa.missing'), alice.token);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: 'policy_not_found', message: policyMessages.policyNotFound });
    expect((await policiesOf(alice)).policies).toEqual([replaced.body.policy]);
  });

  it('refuses a plan without custom policies with 403 plan_required, and stores nothing', async () => {
    for (const user of [trent, lena]) {
      const reply = await api(t, 'PUT', path(SITE.domain, 'http.csp.missing'), user.token, { action: 'mute', reason: 'Not now' });
      expect(reply.status).toBe(403);
      expect(reply.body).toEqual({ error: 'plan_required', message: policyMessages.planRequired });
      expect(await policiesOf(user)).toEqual({ policies: [], canManage: false });
    }
  });

  it('answers 404 for a domain that is not one of the caller’s verified domains', async () => {
    const pending = await api(t, 'PUT', path(PENDING, 'http.csp.missing'), alice.token, { action: 'mute', reason: 'Not verified yet' });
    const unknown = await api(t, 'PUT', path('elsewhere.example.test', 'http.csp.missing'), alice.token, { action: 'mute', reason: 'Not mine' });
    const someoneElses = await api(t, 'PUT', path(SITE.domain, 'http.csp.missing'), bob.token, { action: 'mute', reason: 'Not mine' });

    for (const reply of [pending, unknown, someoneElses]) {
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual({ error: 'domain_not_found', message: policyMessages.domainNotFound });
    }
    expect((await policiesOf(bob)).policies).toEqual([]);
    expect((await policiesOf(alice)).policies.map((p: { findingId: string }) => p.findingId)).toEqual(['tls.protocol.tls10']);
  });

  it('keeps one user’s policies out of another’s reach: not listed, and 404 on delete', async () => {
    const before = await policiesOf(alice);

    const listedForBob = await policiesOf(bob, `?domain=${SITE.domain}`);
    const deleteByBob = await api(t, 'DELETE', path(SITE.domain, 'tls.protocol.tls10'), bob.token);

    expect(listedForBob).toEqual({ policies: [], canManage: true });
    expect(deleteByBob.status).toBe(404);
    expect(deleteByBob.body.error).toBe('policy_not_found');
    expect(await policiesOf(alice)).toEqual(before);
  });

  it('refuses bad input with a 4xx and stores nothing', async () => {
    const before = await policiesOf(alice);
    const inOneYearAndTwoDays = new Date(Date.now() + 368 * DAY_MS).toISOString();
    const cases: [string, string, unknown, number, string][] = [
      ['PUT', path(SITE.domain, 'http.xfo.missing'), { action: 'mute', reason: 'no' }, 400, policyMessages.reason],
      ['PUT', path(SITE.domain, 'http.xfo.missing'), { action: 'snooze', reason: 'Not now' }, 400, policyMessages.action],
      ['PUT', path(SITE.domain, 'http.xfo.missing'), { action: 'mute', reason: 'Not now', expiresAt: '2020-01-01T00:00:00Z' }, 400, policyMessages.expiresAtPast],
      ['PUT', path(SITE.domain, 'http.xfo.missing'), { action: 'mute', reason: 'Not now', expiresAt: inOneYearAndTwoDays }, 400, policyMessages.expiresAtTooFar],
      ['PUT', path(SITE.domain, 'http.xfo.missing'), { action: 'mute', reason: 'Not now', expiresAt: 'tomorrow' }, 400, policyMessages.expiresAt],
      ['PUT', path(SITE.domain, 'HTTP.XFO'), { action: 'mute', reason: 'Not now' }, 400, policyMessages.findingId],
      ['PUT', `/api/me/policies/${SITE.domain}/http.xfo%25zz`, { action: 'mute', reason: 'Not now' }, 400, policyMessages.findingId],
      ['PUT', path('127.0.0.41', 'http.xfo.missing'), { action: 'mute', reason: 'Not now' }, 400, 'Please enter a domain name, not an IP address.'],
      ['PUT', path(SITE.domain, 'http.xfo.missing'), [], 400, policyMessages.body],
      ['DELETE', path(SITE.domain, 'not-an-id'), undefined, 400, policyMessages.findingId],
    ];
    for (const [method, url, body, status, message] of cases) {
      const reply = await api(t, method, url, alice.token, body);
      expect({ url, body, status: reply.status, message: reply.body.message }).toEqual({ url, body, status, message });
    }
    const notJson = await fetch(`${t.stack.url}${path(SITE.domain, 'http.xfo.missing')}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
      body: '{"action":',
    });
    expect(notJson.status).toBe(400);
    expect((await api(t, 'GET', '/api/me/policies?domain=not%20a%20domain', alice.token)).status).toBe(400);

    expect(await policiesOf(alice)).toEqual(before);
  });
});

describe('policies in the account’s data', () => {
  it('exports the policies with "Download my data", and deleting the account deletes them', async () => {
    // Prepare: a Monitor Plus account of its own with a verified domain (the demo-style seed path) and one policy.
    const dora = await signIn(t, 'dora@policies.example.test', 'Dora');
    await setSubscription(t, dora.userId, 'monitor-plus', 'active');
    await addDomain(t, dora.userId, 'dora.example.test');
    const put = await api(t, 'PUT', path('dora.example.test', 'http.csp.missing'), dora.token, { action: 'accept', reason: 'Third-party widget needs inline script' });
    expect(put.status).toBe(201);

    // Act
    const exported = await api(t, 'GET', '/api/me/export', dora.token);
    const deleted = await api(t, 'DELETE', '/api/me', dora.token);

    // Assess
    expect(exported.status).toBe(200);
    expect(exported.body.securityPolicies).toEqual([put.body.policy]);
    expect(deleted.status).toBe(204);
    expect(await t.stack.deps.policies.list(dora.userId)).toEqual([]);
  });
});

describe('deleting a domain', () => {
  it('deletes the domain’s policies (expired ones too) and keeps those of the user’s other domains', async () => {
    // Prepare: a Monitor Plus account with two verified domains, policies on both, one of them long expired.
    const eve = await signIn(t, 'eve@policies.example.test', 'Eve');
    await setSubscription(t, eve.userId, 'monitor-plus', 'active');
    const [gone, kept] = ['eve.example.test', 'shop.eve.example.test'];
    for (const domain of [gone, kept]) await addDomain(t, eve.userId, domain);
    const puts = await Promise.all([
      api(t, 'PUT', path(gone, 'http.csp.missing'), eve.token, { action: 'mute', reason: 'New theme ships in May' }),
      api(t, 'PUT', path(gone, 'tls.protocol.tls10'), eve.token, { action: 'accept', reason: 'A legacy till needs TLS 1.0' }),
      api(t, 'PUT', path(kept, 'http.csp.missing'), eve.token, { action: 'accept', reason: 'Shop widget needs inline script' }),
    ]);
    expect(puts.map((reply) => reply.status)).toEqual([201, 201, 201]);
    const lapsedAt = new Date(Date.now() - 2 * DAY_MS);
    await t.stack.deps.policies.put(
      eve.userId,
      { domain: gone, findingId: 'dns.caa.missing', action: 'mute', reason: 'Registrar adds CAA soon', expiresAt: lapsedAt.toISOString(), createdAt: new Date(Date.now() - 9 * DAY_MS).toISOString(), createdBy: eve.email },
      100,
    );
    const beforeLapse = at(new Date(lapsedAt.getTime() - DAY_MS));
    const storedFindings = async () => (await beforeLapse.policies.list(eve.userId)).map((p) => `${p.domain} ${p.findingId}`);
    expect(await storedFindings()).toEqual([`${gone} dns.caa.missing`, `${gone} http.csp.missing`, `${gone} tls.protocol.tls10`, `${kept} http.csp.missing`]);

    // Act: another user's attempt first (refused, nothing changes), then the owner's.
    const byBob = await api(t, 'DELETE', `/api/me/domains/${gone}`, bob.token);
    const afterBob = await storedFindings();
    const deleted = await api(t, 'DELETE', `/api/me/domains/${gone}`, eve.token);
    const again = await api(t, 'DELETE', `/api/me/domains/${gone}`, eve.token);

    // Assess
    expect(byBob.status).toBe(404);
    expect(afterBob).toHaveLength(4);
    expect(deleted.status).toBe(204);
    expect(again.status).toBe(404);
    expect(again.body.error).toBe('domain_not_found');
    expect(await storedFindings()).toEqual([`${kept} http.csp.missing`]);
    expect(await policiesOf(eve)).toEqual({ policies: [puts[2]!.body.policy], canManage: true });
    expect((await api(t, 'GET', '/api/me/domains', eve.token)).body.domains.map((d: { domain: string }) => d.domain)).toEqual([kept]);

    // The domain added and verified again starts without its old policies.
    await addDomain(t, eve.userId, gone);
    expect(await policiesOf(eve, `?domain=${gone}`)).toEqual({ policies: [], canManage: true });
  });
});

// ---- Monitoring ----

const ports = portServices();
const at = (now: Date) => buildDeps(t.stack.config, { clock: { now: () => now } });
const outbox = () => smsOutbox(t.stack.url);

async function rescanAt(now: Date): Promise<Audit> {
  const { queued } = await scheduleMonitoringRescans(at(now), now);
  const mine = queued.filter((q) => q.userId === alice.userId);
  expect(mine.map((q) => q.domain)).toEqual([SITE.domain]);
  expect((await waitForAudit(t.stack.url, mine[0]!.auditId, 60_000)).status).toBe('completed');
  return (await t.stack.deps.audits.getAudit(mine[0]!.auditId))!;
}

describe('monitoring with a muted finding', () => {
  it('alerts the unmuted new finding by email and SMS and says nothing of the muted one', async () => {
    // Prepare: nothing open at the first rescan; then VNC and a database open, and VNC muted.
    const T0 = new Date();
    const first = await rescanAt(T0);
    await Promise.all([ports.listen(SITE.address, 5900), ports.listen(SITE.address, 3306)]);
    const muted = await api(t, 'PUT', path(SITE.domain, 'ports.remote-access.vnc'), alice.token, { action: 'mute', reason: 'Support tunnel until the VPN is up' });
    expect(muted.status).toBe(201);

    // Act: the domain's next daily slot.
    const second = await rescanAt(new Date(rescanSlotStart(SITE.domain, DAY_MS, T0).getTime() + DAY_MS));

    // Assess: both findings are new, only the database one is in the alert.
    const findingsOf = (changes: ReturnType<typeof diffScans>) => changes.flatMap((c) => (c.type === 'finding_new' ? [c.findingId] : []));
    expect(findingsOf(diffScans({ previous: first, current: second }))).toEqual(['ports.database.exposed', 'ports.remote-access.vnc']);
    const changes = diffScans({ previous: first, current: second, mutedFindingIds: ['ports.remote-access.vnc'] });
    expect(findingsOf(changes)).toEqual(['ports.database.exposed']);

    const reportUrl = `${t.stack.url}/results/${second.id}`;
    const alerts = await arrived(async () => (await mailbox(t.stack.mailboxUrl, alice.email)).filter((m) => m.subject.startsWith('Rampart alert for')), 1);
    expect(alerts).toHaveLength(1);
    const expected = alertEmail({ productName: 'Rampart', domain: SITE.domain, changes, reportUrl, unsubscribeUrl: await unsubscribeUrl(t.stack.deps, alice.userId) });
    expect(alerts[0]!.subject).toBe(expected.subject);
    expect(alerts[0]!.body.text).toBe(expected.text);
    expect(alerts[0]!.body.text).toContain('- [High] Database is open to the internet');
    expect(alerts[0]!.body.text).not.toContain('VNC remote control is open to the internet');

    const sms = await arrived(async () => (await outbox()).filter((m) => m.to === ALICE_MOBILE), 1);
    expect(sms.map((m) => m.body)).toEqual([alertSms({ productName: 'Rampart', domain: SITE.domain, changes, reportUrl })]);

    // Each channel's alert is recorded once its message is sent: read the list once both are there.
    const listed = await arrived(async () => (await api(t, 'GET', '/api/me/alerts', alice.token)).body.alerts as { channel: string; changes: unknown }[], 2);
    const titles = changes.map((c) => ({ type: c.type, title: changeTitle(c) }));
    expect(listed.map((a) => [a.channel, a.changes])).toEqual([
      ['sms', titles],
      ['email', titles],
    ]);
  }, 180_000);
});
